/**
 * The fill applier reads protective legs only when a deal might be a leg's
 * (src/engine/kernels/fills.ts `ordersNameAll`): whenever that says every deal is named by an
 * order, the kernel gives the same events without the legs as with them; a batch with a leg's
 * deal among order fills still reads the legs and credits the leg.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Decimal } from '../../../src/core/decimal.js';
import type { Fill } from '../../../src/model/fills.js';
import { applyDeals, ordersNameAll, type FillsKernelInput, type LegView, type OrderView } from '../../../src/engine/kernels/fills.js';

const d = (s: string | number) => new Decimal(s);

function deal(dealId: number, orderId: number, clientOrderId: string, amount: string, side: 'buy' | 'sell', price: number): Fill {
  return { dealId, orderId, clientOrderId, market: 'BTC_PERP', side, role: 'maker', timeMs: dealId * 1000, amount: d(amount), price: d(price), quote: d(amount).mul(price), fee: d('0.01'), feeAsset: 'USDT' };
}

function order(i: number, orderId: number | null, filled: string): OrderView {
  return { clientOrderId: `s-${i}`, strategyId: i % 2 === 0 ? 'a' : 'b', orderId, market: 'BTC_PERP', side: 'buy', amount: d('1'), filledBase: d(filled), state: 'OPEN' };
}

function leg(i: number, kind: LegView['kind'], orderId: number | null): LegView {
  const price = kind === 'take_profit' ? d(110) : d(90);
  return { childId: i * 10 + (kind === 'take_profit' ? 1 : 2), kind, parentClientOrderId: `s-${i}`, strategyId: i % 2 === 0 ? 'a' : 'b', market: 'BTC_PERP',
    side: 'sell', price, orderId, parentFilled: d('0.5'), parentPrice: d(100) };
}

function input(orders: OrderView[], legs: LegView[]): FillsKernelInput {
  return {
    ordersByOrderId: new Map(orders.filter((o) => o.orderId !== null).map((o) => [o.orderId as number, o])),
    ordersByClientId: new Map(orders.map((o) => [o.clientOrderId, o])),
    legs,
    knownDealIds: new Set(),
  };
}

describe('fills kernel without the legs', () => {
  it('property: when every deal is named by an order, the events are the same with and without the legs', () => {
    const dealArb = fc.record({
      orderId: fc.integer({ min: 1, max: 8 }),
      cid: fc.constantFrom('', 's-0', 's-1', 's-2', 's-3', 'other'),
      amount: fc.constantFrom('0.1', '0.3', '0.6'),
      side: fc.constantFrom('buy' as const, 'sell' as const),
      price: fc.constantFrom(85, 100, 115),
    });
    fc.assert(
      fc.property(
        fc.array(fc.option(fc.integer({ min: 1, max: 8 }), { nil: null }), { minLength: 4, maxLength: 4 }),
        fc.array(fc.option(fc.integer({ min: 1, max: 8 }), { nil: null }), { minLength: 4, maxLength: 4 }),
        fc.array(dealArb, { minLength: 1, maxLength: 6 }),
        (orderIds, legIds, ds) => {
          const orders = orderIds.map((id, i) => order(i, id, '0.5'));
          const legs = legIds.map((id, i) => leg(i, i % 2 === 0 ? 'take_profit' : 'stop_loss', id));
          const deals = ds.map((x, k) => deal(k + 1, x.orderId, x.cid, x.amount, x.side, x.price));
          const full = input(orders, legs);
          if (!ordersNameAll(full.ordersByOrderId, full.ordersByClientId, deals)) return;
          expect(applyDeals({ ...full, legs: [] }, deals)).toEqual(applyDeals(full, deals));
        },
      ),
      { numRuns: 400 },
    );
  });

  it('names the cases: known orderId or a learnable clientOrderId yes; a leg-like deal or a clientOrderId of another orderId no', () => {
    const o = input([order(0, 7, '0.5'), order(1, null, '0')], []);
    const named = (deals: Fill[]) => ordersNameAll(o.ordersByOrderId, o.ordersByClientId, deals);
    expect(named([deal(1, 7, '', '0.1', 'buy', 100), deal(2, 9, 's-1', '0.1', 'buy', 100)])).toBe(true);
    expect(named([deal(1, 7, '', '0.1', 'buy', 100), deal(2, 55, '', '0.2', 'sell', 115)])).toBe(false);
    expect(named([deal(1, 8, 's-0', '0.1', 'buy', 100)])).toBe(false);
  });

  it('a leg deal among order fills needs the legs: with them it is the leg fill, without them an external one', () => {
    const full = input([order(0, 7, '0.5')], [leg(0, 'take_profit', null)]);
    const deals = [deal(1, 7, 's-0', '0.1', 'buy', 100), deal(2, 55, '', '0.5', 'sell', 115)];
    expect(ordersNameAll(full.ordersByOrderId, full.ordersByClientId, deals)).toBe(false);
    expect(applyDeals(full, deals)).toContainEqual({ type: 'leg_filled', childId: 1, parentClientOrderId: 's-0', orderId: 55 });
    expect(applyDeals({ ...full, legs: [] }, deals).some((e) => e.type === 'leg_filled')).toBe(false);
  });
});
