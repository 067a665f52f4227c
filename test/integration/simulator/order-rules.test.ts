import { afterEach, describe, expect, it } from 'vitest';
import { startTestSim, type TestSim } from '../../support/sim-harness.js';

const MARKETS = [
  { name: 'BTC_USDT', startPrice: '100', tick: '0.01', step: '0.001', minAmount: '0.01', minTotal: '1', volatility: '0', makerFee: '0.001', takerFee: '0.002' },
  { name: 'BTC_PERP', startPrice: '100', tick: '0.01', step: '0.001', minAmount: '0.01', minTotal: '1', volatility: '0', makerFee: '0.001', takerFee: '0.002' },
];
const COL = '/api/v4/order/collateral/limit';

let t: TestSim;
afterEach(async () => t?.close());

function start(): Promise<TestSim> {
  return startTestSim({ markets: MARKETS, accounts: [{ apiKey: 'k1', apiSecret: 's1', balances: { USDT: '10000', BTC: '5' } }] });
}

/** Status, code and error fields of a refused single order. */
async function refusal(path: string, order: Record<string, unknown>): Promise<[number, number, string[]]> {
  const r = path === COL ? await t.post(COL, order) : await t.post(path, { orders: [order] });
  const j = (path === COL ? r.json : (r.json as { error: unknown }[])[0]?.error) as { code: number; errors: Record<string, string[]> };
  return [path === COL ? r.status : 0, j.code, Object.keys(j.errors)];
}

describe('simulator order rules', () => {
  it('refuses each broken rule with its code and field', async () => {
    t = await start();
    const base = { market: 'BTC_PERP', side: 'buy', amount: '1', price: '90' };
    const cases: [Record<string, unknown>, [number, number, string[]]][] = [
      [{ ...base, postOnly: true, ioc: true }, [422, 37, ['ioc']]],
      [{ ...base, amount: '0.005' }, [422, 32, ['amount']]],
      [{ ...base, stopLoss: '80.001' }, [422, 33, ['stopLoss']]],
      [{ ...base, takeProfit: '95.001' }, [422, 33, ['takeProfit']]],
      [{ ...base, stopLoss: '95', takeProfit: '85' }, [422, 30, ['stopLoss', 'takeProfit']]],
      [{ ...base, side: 'sell', stopLoss: '85', takeProfit: '95' }, [422, 30, ['stopLoss', 'takeProfit']]],
      [{ ...base, positionSide: 'LONG' }, [422, 30, ['positionSide']]],
      [{ ...base, positionSide: 'UP' }, [422, 30, ['positionSide']]],
      [{ market: 'BTC_PERP', side: 'buy' }, [422, 30, ['amount', 'price']]],
    ];
    for (const [order, expected] of cases) expect(await refusal(COL, order), JSON.stringify(order)).toEqual(expected);
    expect(await refusal('/api/v4/order/bulk', { ...base })).toEqual([0, 31, ['market']]); // spot order on a _PERP market
    const notObject = await t.post('/api/v4/order/bulk', { orders: ['x'] });
    expect((notObject.json as { error: { code: number; errors: object } }[])[0]?.error).toMatchObject({ code: 30, errors: { order: [expect.any(String)] } });
    expect(t.sim.truth('k1').orders).toEqual([]);
  });

  it('holds the stock for a spot sell, quote plus the largest fee for a buy, margin plus fee for collateral', async () => {
    t = await start();
    await t.post('/api/v4/order/bulk', { orders: [{ market: 'BTC_USDT', side: 'sell', amount: '2', price: '110' }] });
    expect(t.sim.truth('k1').locked).toMatchObject({ BTC: '2' });
    await t.post('/api/v4/order/bulk', { orders: [{ market: 'BTC_USDT', side: 'buy', amount: '1', price: '90' }] });
    expect(t.sim.truth('k1').locked).toMatchObject({ BTC: '2', USDT: '90.18' }); // 90 * 1.002
    const col = await t.post(COL, { market: 'BTC_PERP', side: 'sell', amount: '1', price: '110', stopLoss: '120', takeProfit: '100' });
    expect(col.json).toMatchObject({ status: 'NEW', positionSide: 'BOTH' });
    expect(t.sim.truth('k1').locked).toMatchObject({ BTC: '2', USDT: '101.4' }); // + 110 / 10 + 110 * 0.002
    expect(t.sim.truth('k1').conditional).toHaveLength(1);
  });
});
