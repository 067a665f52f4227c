/**
 * The fill batch's kernel input (src/engine/fill-input.ts) looks a deal's order up by its
 * clientOrderId first and skips the look-up by orderId when that order holds the deal's orderId,
 * and hands the kernel only the deals not stored. On random stores and batches (orders live or
 * final, with the deal's orderId, none or another; legs known or not; stored deals, duplicates,
 * deals of nobody) the kernel's events equal those of the full input: every order read by
 * orderId and by clientOrderId, every deal of the batch.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Decimal } from '../../../src/core/decimal.js';
import type { OrderState } from '../../../src/core/orders.js';
import type { Fill } from '../../../src/model/fills.js';
import type { ChildRecord } from '../../../src/model/conditional.js';
import type { OrderRecord } from '../../../src/model/journal.js';
import type { Store } from '../../../src/store/index.js';
import { batchInput, kernelOrderView } from '../../../src/engine/fill-input.js';
import { applyDeals, type FillsKernelInput, type LegView, type OrderView } from '../../../src/engine/kernels/fills.js';

const d = (s: string | number) => new Decimal(s);

function order(i: number, orderId: number | null, state: OrderState, filled: string): OrderRecord {
  return {
    clientOrderId: `s-${i}`, strategyId: i % 2 === 0 ? 'a' : 'b', kind: 'collateral', market: 'BTC_PERP', side: 'buy', amount: d('1'), price: d(100),
    postOnly: false, ioc: false, rpi: false, stopLoss: null, takeProfit: null, positionSide: null, state, orderId, otoId: null, reason: null,
    filledBase: d(filled), reportedFilledBase: d(0), reportedFilledQuote: d(0), createdMs: i, updatedMs: i, unknownSinceMs: null, resolveLooks: 0,
  } as OrderRecord;
}

function child(i: number, orderId: number | null): ChildRecord {
  const kind = i % 2 === 0 ? 'take_profit' : 'stop_loss';
  return { id: i + 1, parentClientOrderId: `s-${i}`, strategyId: i % 2 === 0 ? 'a' : 'b', otoId: null, kind, price: d(kind === 'take_profit' ? 110 : 90), orderId, ocoId: null, state: 'active', updatedMs: 0 };
}

function deal(dealId: number, orderId: number, clientOrderId: string, amount: string, side: 'buy' | 'sell', price: number): Fill {
  return { dealId, orderId, clientOrderId, market: 'BTC_PERP', side, role: 'maker', timeMs: (dealId % 3) * 1000, amount: d(amount), price: d(price), quote: d(amount).mul(price), fee: d('0.01'), feeAsset: 'USDT' };
}

/** The store reads the input makes, over fixed rows; counts the look-ups by orderId. */
function stubStore(orders: OrderRecord[], children: ChildRecord[], stored: Set<number>) {
  const lookups = { byOrderId: 0 };
  const store = {
    fills: { existing: (ids: readonly number[]) => new Set(ids.filter((id) => stored.has(id))) },
    orders: {
      get: (cid: string) => orders.find((o) => o.clientOrderId === cid),
      getByOrderId: (id: number) => {
        lookups.byOrderId++;
        return orders.find((o) => o.orderId === id);
      },
    },
    children: { live: () => children, byOrderId: (id: number) => children.find((c) => c.orderId === id) },
  } as unknown as Store;
  return { store, lookups };
}

/** The full input: every order a deal names read both ways, every leg (as the applier read them before). */
function fullInput(orders: OrderRecord[], children: ChildRecord[], stored: Set<number>): FillsKernelInput {
  const byOrderId = new Map<number, OrderView>();
  for (const o of orders) if (o.orderId !== null) byOrderId.set(o.orderId, kernelOrderView(o));
  const legs: LegView[] = children.map((c) => {
    const p = orders.find((o) => o.clientOrderId === c.parentClientOrderId) as OrderRecord;
    return { childId: c.id, kind: c.kind, parentClientOrderId: c.parentClientOrderId, strategyId: c.strategyId, market: p.market, side: 'sell', price: c.price, orderId: c.orderId, parentFilled: p.filledBase, parentPrice: p.price };
  });
  return { ordersByOrderId: byOrderId, ordersByClientId: new Map(orders.map((o) => [o.clientOrderId, kernelOrderView(o)])), legs, knownDealIds: stored };
}

describe('fill batch input', () => {
  it('property: the kernel gives the same events as with the full input and every deal', () => {
    const orderArb = fc.record({
      orderId: fc.option(fc.integer({ min: 1, max: 6 }), { nil: null }),
      state: fc.constantFrom<OrderState>('OPEN', 'PARTIALLY_FILLED', 'FILLED', 'CANCELLED', 'PENDING'),
      filled: fc.constantFrom('0', '0.5', '1'),
    });
    const dealArb = fc.record({
      dealId: fc.integer({ min: 1, max: 10 }),
      orderId: fc.integer({ min: 1, max: 9 }),
      cid: fc.constantFrom('', 's-0', 's-1', 's-2', 's-3', 'other'),
      amount: fc.constantFrom('0.1', '0.3', '0.6'),
      side: fc.constantFrom('buy' as const, 'sell' as const),
      price: fc.constantFrom(85, 100, 115),
    });
    fc.assert(
      fc.property(
        fc.array(orderArb, { minLength: 4, maxLength: 4 }),
        fc.array(fc.option(fc.integer({ min: 7, max: 9 }), { nil: null }), { minLength: 0, maxLength: 4 }),
        fc.array(dealArb, { minLength: 1, maxLength: 7 }),
        fc.array(fc.integer({ min: 1, max: 10 }), { maxLength: 4 }),
        (os, legIds, ds, storedIds) => {
          // Venue order ids are unique: a repeated one is dropped.
          const seen = new Set<number>();
          const orders = os.map((o, i) => {
            const id = o.orderId !== null && !seen.has(o.orderId) ? o.orderId : null;
            if (id !== null) seen.add(id);
            return order(i, id, o.state, o.filled);
          });
          const children = legIds.map((id, i) => child(i, id));
          const deals = ds.map((x) => deal(x.dealId, x.orderId, x.cid, x.amount, x.side, x.price));
          const stored = new Set(storedIds);
          const { store } = stubStore(orders, children, stored);
          const batch = batchInput(store, deals);
          const events = batch === undefined ? [] : applyDeals(batch.input, batch.fresh);
          expect(events).toEqual(applyDeals(fullInput(orders, children, stored), deals));
        },
      ),
      { numRuns: 600 },
    );
  });

  it('reads no order by orderId when the clientOrderId names the order holding it (one filled at placement)', () => {
    const orders = [order(0, 5, 'FILLED', '0'), order(1, null, 'OPEN', '0')];
    const { store, lookups } = stubStore(orders, [], new Set());
    const batch = batchInput(store, [deal(1, 5, 's-0', '1', 'buy', 100)]);
    expect(lookups.byOrderId).toBe(0);
    expect(batch?.input.ordersByOrderId.get(5)?.clientOrderId).toBe('s-0');
    // An order without the deal's orderId yet (learned from this deal) is still looked up by it.
    batchInput(store, [deal(2, 6, 's-1', '1', 'buy', 100)]);
    expect(lookups.byOrderId).toBe(1);
  });

  it('hands the kernel only the deals not stored, and nothing when all are', () => {
    const { store } = stubStore([order(0, 5, 'OPEN', '0')], [], new Set([1, 3]));
    const deals = [deal(1, 5, 's-0', '0.1', 'buy', 100), deal(2, 5, 's-0', '0.1', 'buy', 100), deal(3, 5, 's-0', '0.1', 'buy', 100)];
    expect(batchInput(store, deals)?.fresh.map((x) => x.dealId)).toEqual([2]);
    expect(batchInput(store, [deals[0] as Fill])).toBeUndefined();
  });
});
