import { afterEach, describe, expect, it } from 'vitest';
import { startTestSim, type TestSim } from '../../support/sim-harness.js';

const PLAN = '11111111-2222-4333-8444-555555555555';
const PLAN2 = '66666666-2222-4333-8444-555555555555';
const MARKETS = [
  { name: 'BTC_USDT', startPrice: '50000', tick: '0.01', step: '0.0001', volatility: '0' },
  { name: 'BTC_PERP', startPrice: '50000', tick: '0.1', step: '0.0001', volatility: '0', maxLeverage: 50 },
];

let t: TestSim;
afterEach(async () => t?.close());

type Rec = Record<string, unknown>;

async function startAccount(): Promise<TestSim> {
  // 2023-11-14T22:13:20Z: the first UTC midnight is 6 400 s later.
  return startTestSim({
    markets: MARKETS,
    accounts: [
      {
        apiKey: 'k',
        apiSecret: 's',
        balances: { USDT: '100.5', BTC: '0.25' },
        flex: [
          { planId: PLAN, investmentId: 'inv-1', currency: 'USDT', amount: '1000', dailyRate: '0.000123' },
          { planId: PLAN2, investmentId: 'inv-2', currency: 'BTC', amount: '1', status: 'PAUSED' },
        ],
        loan: { asset: 'USDT', amount: '20000', collateralAsset: 'BTC', collateralAmount: '1', marginCallLtv: '0.7' },
      },
      { apiKey: 'k2', apiSecret: 's2', creditLineEnabled: false, flexEnabled: false },
      { apiKey: 'k3', apiSecret: 's3' },
    ],
  });
}
const K = { apiKey: 'k', apiSecret: 's' };

describe('account endpoints', () => {
  it('main balance: the spec map, and with ticker a map holding that asset', async () => {
    t = await startAccount();
    expect((await t.post('/api/v4/main-account/balance', {}, K)).json).toEqual({ BTC: { main_balance: '0.25' }, USDT: { main_balance: '100.5' } });
    expect((await t.post('/api/v4/main-account/balance', { ticker: 'BTC' }, K)).json).toEqual({ BTC: { main_balance: '0.25' } });
    expect((await t.post('/api/v4/main-account/balance', { ticker: 'XRP' }, K)).json).toEqual({ XRP: { main_balance: '0' } });
  });

  it('flex: daily earnings, history filters, validation body, close 201 and code 2', async () => {
    t = await startAccount();
    t.clock.advance(6_400_000 + 86_400_000); // two UTC midnights
    const hist = (await t.post('/api/v4/main-account/smart-flex/investments/history', {}, K)).json as { data: Rec[]; limit: number; offset: number };
    expect([hist.limit, hist.offset]).toEqual([50, 0]);
    const earnings = hist.data.filter((r) => r['actionType'] === 4);
    expect(earnings.map((r) => r['amount'])).toEqual(['0.12301512', '0.123']); // newest first, compounded, 8 places
    expect(earnings[1]?.['createdAt']).toBe(1_700_006_400);
    const byType = (await t.post('/api/v4/main-account/smart-flex/investments/history', { actionTypes: [1], plan: PLAN }, K)).json as { data: Rec[] };
    expect(byType.data).toEqual([expect.objectContaining({ actionType: 1, amount: '1000', investmentId: 'inv-1', currency: 'USDT', planId: PLAN })]);
    const dated = (await t.post('/api/v4/main-account/smart-flex/investments/history', { dateFrom: 1_700_006_400, dateTo: 1_700_006_400 }, K)).json as { data: Rec[] };
    expect(dated.data).toHaveLength(1);
    const tx = earnings[0]?.['transactionId'];
    const byTx = (await t.post('/api/v4/main-account/smart-flex/investments/history', { transaction: tx, investment: 'inv-1', limit: 1 }, K)).json as { data: Rec[] };
    expect(byTx.data.map((r) => r['transactionId'])).toEqual([tx]);

    const bad = await t.post('/api/v4/main-account/smart-flex/investments/history', { actionTypes: [1, 9], plan: 'x', dateFrom: 'y' }, K);
    expect(bad.status).toBe(400);
    expect(bad.json).toMatchObject({ code: 0, message: 'Validation failed' });
    expect(Object.keys((bad.json as { errors: Rec }).errors).sort()).toEqual(['actionTypes.1', 'dateFrom', 'plan']);

    const closed = await t.post('/api/v4/main-account/smart-flex/investments/close', { plan: PLAN }, K);
    expect(closed.status).toBe(201);
    const txId = (closed.json as { data: { transactionId: string } }).data.transactionId;
    expect(typeof txId).toBe('string');
    expect((await t.post('/api/v4/main-account/balance', { ticker: 'USDT' }, K)).json).toEqual({ USDT: { main_balance: '1100.74601512' } });
    const closeRow = (await t.post('/api/v4/main-account/smart-flex/investments/history', { actionTypes: [5] }, K)).json as { data: Rec[] };
    expect(closeRow.data[0]).toMatchObject({ transactionId: txId, amount: '1000.24601512' });
    for (const plan of [PLAN, PLAN2]) {
      const again = await t.post('/api/v4/main-account/smart-flex/investments/close', { plan }, K);
      expect([again.status, (again.json as { code: number }).code, Object.keys((again.json as { errors: Rec }).errors)]).toEqual([422, 2, ['investment']]);
    }
    const missing = await t.post('/api/v4/main-account/smart-flex/investments/close', {}, K);
    expect(missing.json).toEqual({ code: 0, message: 'Validation failed', errors: { plan: ['validation.required'] } });
    const noAccess = await t.post('/api/v4/main-account/smart-flex/investments/history', {}, { apiKey: 'k2', apiSecret: 's2' });
    expect(noAccess.status).toBe(403);
  });

  it('credit line: loan with LTV from the current price, no loan, not enabled', async () => {
    t = await startAccount();
    const loan = await t.post('/api/v4/credit-line/loans/info', {}, K);
    expect(loan.status).toBe(200);
    expect(loan.json).toMatchObject({ asset: 'USDT', amount: '20000', totalFunding: '20000', currentLtv: '0.4', marginCallLtv: '0.7', createdAt: 1_700_000_000 });
    t.sim.setPrice('BTC_USDT', '25000');
    expect((await t.post('/api/v4/credit-line/loans/info', {}, K)).json).toMatchObject({ currentLtv: '0.8' });
    const none = await t.post('/api/v4/credit-line/loans/info', {}, { apiKey: 'k3', apiSecret: 's3' });
    expect([none.status, none.json]).toEqual([400, { code: 0, message: 'No active loan at the moment', errors: {} }]);
    const off = await t.post('/api/v4/credit-line/loans/info', {}, { apiKey: 'k2', apiSecret: 's2' });
    expect([off.status, off.json]).toEqual([404, { code: 0, message: '', errors: {} }]);
  });
});

describe('public endpoints', () => {
  it('ping, futures listing built from _PERP markets, 404 elsewhere', async () => {
    t = await startAccount();
    const ping = await t.get('/api/v4/public/ping');
    expect([ping.status, ping.json]).toEqual([200, ['pong']]);
    const fut = (await t.get('/api/v4/public/futures')).json as { success: boolean; message: null; result: Rec[] };
    expect([fut.success, fut.message, fut.result.length]).toEqual([true, null, 1]);
    expect(fut.result[0]).toMatchObject({
      ticker_id: 'BTC_PERP',
      stock_currency: 'BTC',
      money_currency: 'USDT',
      last_price: '50000',
      bid: '49999.9',
      ask: '50000.1',
      product_type: 'Perpetual',
      max_leverage: 50,
      funding_interval_minutes: 480,
      // As the vendor's sample: the index asset's name and ticker, brackets beyond 20x non-zero.
      index_name: 'Bitcoin',
      index_currency: 'BTC',
      brackets: { '1': 0, '2': 0, '3': 0, '5': 0, '10': 0, '20': 0, '50': 20 },
    });
    expect(fut.result[0]?.['next_funding_rate_timestamp']).toMatch(/^\d+$/);
    expect((await t.get('/api/v4/public/nothing')).status).toBe(404);
  });
});
