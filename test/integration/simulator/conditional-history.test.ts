import { afterEach, describe, expect, it } from 'vitest';
import { startTestSim, type TestSim } from '../../support/sim-harness.js';

const MARKETS = [
  { name: 'BTC_USDT', startPrice: '100', tick: '0.01', step: '0.001', minTotal: '5', volumePerStep: '0.3', volatility: '0' },
  { name: 'ETH_USDT', startPrice: '10', tick: '0.01', step: '0.01', minTotal: '5', volumePerStep: '10', volatility: '0' },
  { name: 'BTC_PERP', startPrice: '100', tick: '0.01', step: '0.001', minTotal: '5', volumePerStep: '0.3', volatility: '0' },
];

let t: TestSim;
afterEach(async () => t?.close());

type Rec = Record<string, unknown>;

describe('OTO → OCO lifecycle', () => {
  it('lists the OTO while the parent rests, an OCO pair after it fills, and cancels the other leg', async () => {
    t = await startTestSim({ markets: MARKETS, accounts: [{ apiKey: 'k', apiSecret: 's', balances: { USDT: '1000' } }] });
    const creds = { apiKey: 'k', apiSecret: 's' };
    const placed = await t.post(
      '/api/v4/order/collateral/limit',
      { market: 'BTC_PERP', side: 'buy', amount: '0.2', price: '99', stopLoss: '95', takeProfit: '105', clientOrderId: 'p1' },
      creds,
    );
    expect(placed.status).toBe(200);
    const parent = placed.json as Rec & { oto: { otoId: number } };
    expect(parent).toMatchObject({ status: 'NEW', positionSide: 'BOTH', oto: { stopLoss: '95', takeProfit: '105' } });
    const otoId = parent.oto.otoId;

    const list1 = (await t.post('/api/v4/orders/conditional', { market: 'BTC_PERP', offset: 0, limit: 10 }, creds)).json as { total: number; records: Rec[] };
    expect(list1.total).toBe(1);
    expect(list1.records[0]).toMatchObject({ id: otoId, type: 'oto', stopLossPrice: '95', takeProfitPrice: '105' });
    expect((list1.records[0]?.['conditionalOrder'] as Rec)['orderId']).toBe(parent['orderId']);

    t.sim.setPrice('BTC_PERP', '98');
    const list2 = (await t.post('/api/v4/conditional-orders', { market: 'BTC_PERP' }, creds)).json as { records: Rec[] };
    expect(list2.records).toHaveLength(1);
    const oco = list2.records[0] as Rec;
    expect(oco['type']).toBe('oco');
    expect(oco['stop_loss']).toMatchObject({ type: 'stop limit', side: 'sell', amount: '0.2', activation_price: '95', activation_condition: 'lte', activated: 0, status: 'NEW' });
    expect(oco['take_profit']).toMatchObject({ type: 'limit', side: 'sell', amount: '0.2', price: '105', status: 'NEW' });
    expect(t.sim.truth('k').positions[0]).toMatchObject({ market: 'BTC_PERP', amount: '0.2', entryPrice: '99' });

    t.sim.setPrice('BTC_PERP', '105');
    const list3 = (await t.post('/api/v4/orders/conditional', {}, creds)).json as { total: number };
    expect(list3.total).toBe(0);
    const truth = t.sim.truth('k');
    const tp = truth.orders.find((o) => o.orderId === (oco['take_profit'] as Rec)['orderId']);
    const sl = truth.orders.find((o) => o.orderId === (oco['stop_loss'] as Rec)['orderId']);
    expect([tp?.status, sl?.status]).toEqual(['FILLED', 'CANCELLED']);
    expect(truth.positions[0]).toMatchObject({ amount: '0', realisedPnl: '1.2', margin: '0' });
  });

  it('a triggered stop leg executes at the current price and cancels the take-profit', async () => {
    t = await startTestSim({ markets: MARKETS, accounts: [{ apiKey: 'k', apiSecret: 's', balances: { USDT: '1000' } }] });
    const creds = { apiKey: 'k', apiSecret: 's' };
    await t.post('/api/v4/order/collateral/limit', { market: 'BTC_PERP', side: 'sell', amount: '0.1', price: '100', stopLoss: '110', takeProfit: '90' }, creds);
    // sold at once (taker): OCO exists immediately, legs are buys; the stop activates on gte
    const list = (await t.post('/api/v4/orders/conditional', {}, creds)).json as { records: Rec[] };
    expect(list.records[0]?.['stop_loss']).toMatchObject({ side: 'buy', activation_condition: 'gte' });
    t.sim.setPrice('BTC_PERP', '111');
    const truth = t.sim.truth('k');
    expect(truth.conditional).toHaveLength(0);
    expect(truth.positions[0]).toMatchObject({ amount: '0', realisedPnl: '-1.1' });
  });
});

describe('executed history', () => {
  it('keys by market, newest first, with every filter and the spec bounds', async () => {
    t = await startTestSim({ markets: MARKETS, accounts: [{ apiKey: 'k', apiSecret: 's', balances: { USDT: '10000', BTC: '1', ETH: '10' } }] });
    const creds = { apiKey: 'k', apiSecret: 's' };
    const start = Math.floor(t.clock.now() / 1000);
    await t.post('/api/v4/order/bulk', { orders: [{ market: 'BTC_USDT', side: 'buy', amount: '0.1', price: '101', clientOrderId: 'h1' }] }, creds);
    t.clock.advance(10_000);
    await t.post('/api/v4/order/bulk', { orders: [{ market: 'ETH_USDT', side: 'sell', amount: '1', price: '9', clientOrderId: 'h2' }] }, creds);
    t.clock.advance(10_000);
    await t.post('/api/v4/order/bulk', { orders: [{ market: 'BTC_USDT', side: 'sell', amount: '0.06', price: '99', clientOrderId: 'h3' }] }, creds);

    const all = (await t.post('/api/v4/trade-account/executed-history', {}, creds)).json as Record<string, Rec[]>;
    expect(Object.keys(all).sort()).toEqual(['BTC_USDT', 'ETH_USDT']);
    expect(all['BTC_USDT']?.map((d) => d['clientOrderId'])).toEqual(['h3', 'h1']);
    expect(all['BTC_USDT']?.[0]).toMatchObject({ side: 'sell', role: 2, amount: '0.06', price: '100', deal: '6', fee: '0.006', feeAsset: 'USDT' });

    const btc = (await t.post('/api/v4/trade-account/executed-history', { market: 'BTC_USDT' }, creds)).json as Record<string, Rec[]>;
    expect(Object.keys(btc)).toEqual(['BTC_USDT']);
    const one = (await t.post('/api/v4/trade-account/executed-history', { clientOrderId: 'h2' }, creds)).json as Record<string, Rec[]>;
    expect(one['ETH_USDT']?.map((d) => d['clientOrderId'])).toEqual(['h2']);
    const none = await t.post('/api/v4/trade-account/executed-history', { clientOrderId: 'zz' }, creds);
    expect([none.status, none.json]).toEqual([422, { code: 30, message: 'Validation failed', errors: { orderHistory: ['OrderHistory was not found.'] } }]);
    const window = (await t.post('/api/v4/trade-account/executed-history', { startDate: start + 5, endDate: start + 15 }, creds)).json as Record<string, Rec[]>;
    expect(Object.keys(window)).toEqual(['ETH_USDT']);
    const page = (await t.post('/api/v4/trade-account/executed-history', { offset: 1, limit: 1 }, creds)).json as Record<string, Rec[]>;
    expect(page).toEqual({ ETH_USDT: [expect.objectContaining({ clientOrderId: 'h2' })] });
    const market = await t.post('/api/v4/trade-account/executed-history', { market: 'NOPE_USDT' }, creds);
    expect([market.status, (market.json as { code: number }).code]).toEqual([422, 31]);
    const empty = (await t.post('/api/v4/trade-account/executed-history', { market: '', clientOrderId: '' }, creds)).json as Record<string, Rec[]>;
    expect(Object.keys(empty).sort()).toEqual(['BTC_USDT', 'ETH_USDT']);
    for (const bad of [{ limit: 0 }, { limit: 101 }, { offset: -1 }, { limit: 'x' }]) {
      const r = await t.post('/api/v4/trade-account/executed-history', bad, creds);
      expect([r.status, (r.json as { code: number }).code]).toEqual([422, 30]);
    }
  });

  it('serves the flat array with market only behind the option', async () => {
    t = await startTestSim({ markets: MARKETS, flatHistoryWithMarket: true, accounts: [{ apiKey: 'k', apiSecret: 's', balances: { USDT: '1000' } }] });
    const creds = { apiKey: 'k', apiSecret: 's' };
    await t.post('/api/v4/order/bulk', { orders: [{ market: 'BTC_USDT', side: 'buy', amount: '0.1', price: '101' }] }, creds);
    const r = (await t.post('/api/v4/trade-account/executed-history', { market: 'BTC_USDT' }, creds)).json;
    expect(Array.isArray(r) && r.length === 1).toBe(true);
  });
});
