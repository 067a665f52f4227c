import { afterEach, describe, expect, it } from 'vitest';
import { startTestSim, type TestSim } from '../../support/sim-harness.js';

const MARKETS = [
  { name: 'BTC_USDT', startPrice: '100', tick: '0.01', step: '0.001', minTotal: '5', volumePerStep: '0.3', volatility: '0', makerFee: '0', takerFee: '0' },
  { name: 'BTC_PERP', startPrice: '100', tick: '0.01', step: '0.001', minTotal: '5', volumePerStep: '0.3', volatility: '0', makerFee: '0', takerFee: '0.001' },
];
const K = { apiKey: 'k', apiSecret: 's' };
const COL = '/api/v4/order/collateral/limit';

let t: TestSim;
afterEach(async () => t?.close());

describe('collateral positions', () => {
  it('one-way: opens, flips with realised PnL, margin and fees from the money balance', async () => {
    t = await startTestSim({ markets: MARKETS, accounts: [{ apiKey: 'k', apiSecret: 's', balances: { USDT: '1000' } }] });
    await t.post(COL, { market: 'BTC_PERP', side: 'buy', amount: '1', price: '100' }, K); // taker at 100, fee 0.1, margin 10
    let truth = t.sim.truth('k');
    expect(truth.positions).toEqual([
      { market: 'BTC_PERP', positionSide: 'BOTH', amount: '1', entryPrice: '100', entryCost: '100', margin: '10', realisedPnl: '0' },
    ]);
    expect(truth.balances['USDT']).toBe('989.9');
    t.sim.setPrice('BTC_PERP', '110');
    await t.post(COL, { market: 'BTC_PERP', side: 'sell', amount: '1.5', price: '110' }, K); // closes 1 (+10), opens 0.5 short
    truth = t.sim.truth('k');
    expect(truth.positions[0]).toMatchObject({ amount: '-0.5', entryPrice: '110', margin: '5.5', realisedPnl: '10' });
    // 989.9 + 10 margin back + 10 pnl - 5.5 new margin - 0.165 fee
    expect(truth.balances['USDT']).toBe('1004.235');
    expect(truth.locked['USDT']).toBe('0');
  });

  it('hedge mode on _PERP: LONG and SHORT are separate positions', async () => {
    t = await startTestSim({ markets: MARKETS, accounts: [{ apiKey: 'k', apiSecret: 's', balances: { USDT: '1000' }, hedgeMode: true }] });
    const long = await t.post(COL, { market: 'BTC_PERP', side: 'buy', amount: '1', price: '100', positionSide: 'LONG' }, K);
    expect((long.json as { positionSide: string }).positionSide).toBe('LONG');
    await t.post(COL, { market: 'BTC_PERP', side: 'sell', amount: '0.5', price: '100', positionSide: 'SHORT' }, K);
    const truth = t.sim.truth('k');
    expect(truth.positions.map((p) => [p.positionSide, p.amount])).toEqual([['LONG', '1'], ['SHORT', '-0.5']]);
    const both = await t.post(COL, { market: 'BTC_PERP', side: 'buy', amount: '1', price: '100', positionSide: 'BOTH' }, K);
    expect([both.status, (both.json as { code: number }).code]).toEqual([422, 30]);
    const spot = await t.post(COL, { market: 'BTC_USDT', side: 'buy', amount: '1', price: '100', positionSide: 'LONG' }, K);
    expect(spot.status).toBe(422); // hedge mode only on _PERP
  });

  it('a resting order shows PARTIALLY_FILLED between steps', async () => {
    t = await startTestSim({ markets: MARKETS, accounts: [{ apiKey: 'k', apiSecret: 's', balances: { USDT: '1000' } }] });
    await t.post(COL, { market: 'BTC_PERP', side: 'buy', amount: '2', price: '99', clientOrderId: 'big' }, K);
    t.sim.setPrice('BTC_PERP', '98');
    const o = t.sim.truth('k').orders.find((x) => x.clientOrderId === 'big');
    expect(o?.status).toBe('PARTIALLY_FILLED');
    const c = await t.post('/api/v4/order/cancel', { market: 'BTC_PERP', clientOrderId: 'big' }, K);
    expect(c.json).toMatchObject({ status: 'CANCELLED', dealStock: '0.3', left: '1.7' });
    expect(t.sim.truth('k').locked['USDT']).toBe('0');
  });
});
