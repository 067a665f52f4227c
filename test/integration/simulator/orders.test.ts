import { afterEach, describe, expect, it } from 'vitest';
import { Decimal } from '../../../src/core/decimal.js';
import { startTestSim, type TestSim } from '../../support/sim-harness.js';

const MARKETS = [
  { name: 'BTC_USDT', startPrice: '100', tick: '0.01', step: '0.001', minAmount: '0.001', minTotal: '5', volumePerStep: '0.3', volatility: '0' },
  { name: 'BTC_PERP', startPrice: '100', tick: '0.01', step: '0.001', minAmount: '0.001', minTotal: '5', volumePerStep: '0.3', volatility: '0' },
];

let t: TestSim;
afterEach(async () => t?.close());

function start(extra: Parameters<typeof startTestSim>[0] = {}): Promise<TestSim> {
  return startTestSim({ markets: MARKETS, accounts: [{ apiKey: 'k1', apiSecret: 's1', balances: { USDT: '10000', BTC: '5' } }], ...extra });
}

describe('simulator orders', () => {
  it('places a resting spot buy, holds quote, and cancels it', async () => {
    t = await start();
    const r = await t.post('/api/v4/order/bulk', { orders: [{ market: 'BTC_USDT', side: 'buy', amount: '1', price: '90', clientOrderId: 'a-1' }] });
    expect(r.status).toBe(200);
    const items = r.json as { result: Record<string, unknown>; error: unknown }[];
    expect(items).toHaveLength(1);
    expect(items[0]?.error).toBeNull();
    expect(items[0]?.result).toMatchObject({ status: 'NEW', left: '1', amount: '1', price: '90', clientOrderId: 'a-1', type: 'limit' });
    const truth = t.sim.truth('k1');
    expect(truth.balances['USDT']).toBe('9909.91'); // 10000 - 90 * 1.001
    expect(truth.openOrders).toHaveLength(1);
    const c = await t.post('/api/v4/order/cancel', { market: 'BTC_USDT', clientOrderId: 'a-1' });
    expect(c.status).toBe(200);
    expect((c.json as Record<string, unknown>)['status']).toBe('CANCELLED');
    expect(t.sim.truth('k1').balances['USDT']).toBe('10000');
    const again = await t.post('/api/v4/order/cancel', { market: 'BTC_USDT', orderId: (c.json as { orderId: number }).orderId });
    expect(again.status).toBe(400);
    expect(again.json).toEqual({ code: 2, message: 'Inner validation failed', errors: { orderId: ['Unexecuted order was not found.'] } });
  });

  it('takes immediately when crossing, with taker fee in money', async () => {
    t = await start();
    const r = await t.post('/api/v4/order/bulk', { orders: [{ market: 'BTC_USDT', side: 'buy', amount: '0.5', price: '101' }] });
    const item = (r.json as { result: Record<string, unknown> }[])[0]?.result;
    expect(item).toMatchObject({ status: 'FILLED', dealStock: '0.5', dealMoney: '50', dealFee: '0.05', left: '0' });
    const truth = t.sim.truth('k1');
    expect(truth.balances).toMatchObject({ USDT: '9949.95', BTC: '5.5' });
    expect(truth.deals.byMarket['BTC_USDT']).toEqual({ count: 1, base: '0.5', quote: '50', fees: '0.05' });
  });

  it('fills a resting order partially over steps, summing exactly to its amount', async () => {
    t = await start();
    const r = await t.post('/api/v4/order/bulk', { orders: [{ market: 'BTC_USDT', side: 'sell', amount: '1.234', price: '100.5', clientOrderId: 's1' }] });
    expect((r.json as { result: { status: string } }[])[0]?.result.status).toBe('NEW');
    t.sim.setPrice('BTC_USDT', '101');
    for (let i = 0; i < 20; i++) t.clock.advance(1000);
    const truth = t.sim.truth('k1');
    const order = truth.orders.find((o) => o.clientOrderId === 's1');
    expect(order?.status).toBe('FILLED');
    const deals = truth.deals.list.filter((d) => d['orderId'] === order?.orderId);
    expect(deals.length).toBeGreaterThan(1);
    const total = deals.reduce((acc, d) => acc.plus(new Decimal(d['amount'] as string)), new Decimal(0));
    expect(total.toFixed()).toBe('1.234');
    expect(deals.every((d) => d['role'] === 1 && d['price'] === '100.5')).toBe(true);
  });

  it('validates: code 30 fields, 31 market, 32 amount, 33 price, total, 36 duplicate, 37 rpi+ioc, 10 balance, 13 post-only', async () => {
    t = await start();
    const cases: [Record<string, unknown>, number, number, string][] = [
      [{ market: 'BTC_USDT', side: 'up', amount: '1', price: '90' }, 422, 30, 'side'],
      [{ market: 'NOPE_USDT', side: 'buy', amount: '1', price: '90' }, 422, 31, 'market'],
      [{ market: 'BTC_USDT', side: 'buy', amount: '1.0001', price: '90' }, 422, 32, 'amount'],
      [{ market: 'BTC_USDT', side: 'buy', amount: '1', price: '90.001' }, 422, 33, 'price'],
      [{ market: 'BTC_USDT', side: 'buy', amount: '0.01', price: '90' }, 422, 30, 'total'],
      [{ market: 'BTC_USDT', side: 'buy', amount: '1', price: '90', rpi: true, ioc: true }, 422, 37, 'rpi'],
      [{ market: 'BTC_USDT', side: 'buy', amount: '2000', price: '90' }, 400, 10, 'amount'],
      [{ market: 'BTC_USDT', side: 'buy', amount: '1', price: '110', postOnly: true }, 400, 13, 'postOnly'],
    ];
    for (const [order, status, code, field] of cases) {
      const r = await t.post('/api/v4/order/collateral/limit', { ...order, market: order['market'] === 'BTC_USDT' ? 'BTC_PERP' : order['market'] });
      const j = r.json as { code: number; errors?: object };
      expect([r.status, j.code, Object.keys(j.errors ?? { none: 1 })], JSON.stringify(j)).toEqual([status, code, [field]]);
    }
    const ok = await t.post('/api/v4/order/bulk', { orders: [{ market: 'BTC_USDT', side: 'buy', amount: '1', price: '90', clientOrderId: 'dup' }] });
    expect((ok.json as { error: unknown }[])[0]?.error).toBeNull();
    const dup = await t.post('/api/v4/order/bulk', { orders: [{ market: 'BTC_USDT', side: 'buy', amount: '1', price: '90', clientOrderId: 'dup' }] });
    expect((dup.json as { error: { code: number } }[])[0]?.error.code).toBe(36);
    const tooMany = await t.post('/api/v4/order/bulk', { orders: Array.from({ length: 21 }, () => ({ market: 'BTC_USDT', side: 'buy', amount: '1', price: '90' })) });
    expect([tooMany.status, (tooMany.json as { code: number }).code]).toEqual([422, 30]);
    const none = await t.post('/api/v4/order/bulk', { orders: [] });
    expect(none.status).toBe(422);
  });

  it('stopOnFail true stops at the first failure; false processes every order', async () => {
    t = await start();
    const orders = [
      { market: 'BTC_USDT', side: 'buy', amount: '1', price: '90', clientOrderId: 'x1' },
      { market: 'BTC_USDT', side: 'buy', amount: '1', price: '90.001', clientOrderId: 'x2' },
      { market: 'BTC_USDT', side: 'buy', amount: '1', price: '89', clientOrderId: 'x3' },
    ];
    const stop = await t.post('/api/v4/order/bulk', { orders, stopOnFail: true });
    const s = stop.json as { result: unknown; error: { code: number } | null }[];
    expect(s).toHaveLength(2);
    expect(s[0]?.error).toBeNull();
    expect(s[1]?.result).toBeNull();
    expect(s[1]?.error?.code).toBe(33);
    expect(t.sim.truth('k1').orders.map((o) => o.clientOrderId)).toEqual(['x1']);
    const orders2 = orders.map((o) => ({ ...o, clientOrderId: `${o.clientOrderId}b` }));
    const all = await t.post('/api/v4/order/bulk', { orders: orders2, stopOnFail: false });
    const a = all.json as { result: unknown; error: unknown }[];
    expect(a).toHaveLength(3);
    expect(a.map((i) => i.error === null)).toEqual([true, false, true]);
    expect(t.sim.truth('k1').orders.map((o) => o.clientOrderId)).toEqual(['x1', 'x1b', 'x3b']);
  });

  it('cancel validation, rpi that would take, bad clientOrderId', async () => {
    t = await start();
    for (const body of [{ orderId: 1 }, { market: 'BTC_USDT' }]) {
      const r = await t.post('/api/v4/order/cancel', body);
      expect([r.status, (r.json as { code: number }).code]).toEqual([422, 30]);
    }
    const rpi = await t.post('/api/v4/order/bulk', { orders: [{ market: 'BTC_USDT', side: 'sell', amount: '1', price: '99', rpi: true }] });
    expect((rpi.json as { error: { code: number } }[])[0]?.error.code).toBe(13);
    // A resting rpi order is post-only by design (api-v4 2.1 rule 1): its reply says so.
    const rests = await t.post('/api/v4/order/bulk', { orders: [{ market: 'BTC_USDT', side: 'sell', amount: '1', price: '101', rpi: true }] });
    expect((rests.json as { result: unknown }[])[0]?.result).toMatchObject({ status: 'NEW', rpi: true, postOnly: true });
    await t.post('/api/v4/order/cancel', { market: 'BTC_USDT', orderId: (rests.json as { result: { orderId: number } }[])[0]?.result.orderId });
    const badId = await t.post('/api/v4/order/bulk', { orders: [{ market: 'BTC_USDT', side: 'sell', amount: '1', price: '120', clientOrderId: 'has space' }] });
    expect((badId.json as { error: { code: number; errors: object } }[])[0]?.error).toMatchObject({ code: 30, errors: { clientOrderId: [expect.any(String)] } });
    // Only the resting rpi order was ever accepted.
    expect(t.sim.truth('k1').orders.map((o) => o['rpi'])).toEqual([true]);
  });

  it('ioc cancels the unfilled rest', async () => {
    t = await start({ markets: MARKETS.map((m) => ({ ...m, takerDepth: '0.4' })) });
    const r = await t.post('/api/v4/order/bulk', { orders: [{ market: 'BTC_USDT', side: 'buy', amount: '1', price: '101', ioc: true }] });
    expect((r.json as { result: unknown }[])[0]?.result).toMatchObject({ status: 'CANCELLED', dealStock: '0.4', left: '0.6' });
    expect(t.sim.truth('k1').locked['USDT']).toBe('0');
  });
});
