/**
 * After a fill or a placement a strategy's snapshot makes views only for what the write touched:
 * the views of untouched orders, fills and positions are the very objects of the last snapshot,
 * and the new ones equal a fresh reader's. The recent fills' merge equals a sort, and the shared
 * read of new deals equals the repository's own read, also across a rollback.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { Decimal } from '../../../src/core/decimal.js';
import type { Side } from '../../../src/core/orders.js';
import type { FillRecord } from '../../../src/model/fills.js';
import { newestOf, ReadModels } from '../../../src/engine/read-models.js';
import type { MarketRules } from '../../../src/engine/risk-gate.js';
import { SharedDealReads } from '../../../src/engine/shared-deal-reads.js';
import { StrategyInputs } from '../../../src/engine/strategy-inputs.js';
import type { Store } from '../../../src/store/index.js';
import { memoryStore } from '../../support/test-scope.js';

const d = (s: string | number): Decimal => new Decimal(s);
const rules: MarketRules = { tick: d('0.01'), step: d('0.0001'), minAmount: d('0.0001'), minTotalQuote: d('5'), maxPositionBase: d('1'), maxOpenOrders: 10 };
const venue = { prices: {}, balances: {} };

function inputsOf(store: Store, clock: ManualClock): StrategyInputs {
  return new StrategyInputs({
    store,
    read: new ReadModels(store),
    clock,
    markets: { BTC_USDT: rules, ETH_USDT: rules },
    limits: { maxNotionalPerOrderQuote: d('1000'), maxDrawdownPct: d('10') },
    budgets: new Map(),
    tradingState: () => 'ACTIVE',
    equity: () => null,
    recentFillsLimit: 3,
  });
}

function fillOf(dealId: number, timeMs: number, cid = 'a-BTC_USDT', market = 'BTC_USDT', side: Side = 'buy'): FillRecord {
  return {
    dealId, orderId: dealId, clientOrderId: cid, market, side, role: 'maker', timeMs, amount: d('0.001'), price: d('50000'),
    quote: d('50'), fee: d(0), feeAsset: 'USDT', strategyId: 'a', ownerClientOrderId: cid,
  };
}

function place(store: Store, cid: string, market: string, now: number): void {
  store.orders.insertPending({ clientOrderId: cid, strategyId: 'a', kind: 'limit', market, side: 'buy', amount: d('0.01'), price: d('50000'), postOnly: true, ioc: false, rpi: false }, now);
  store.orders.setState(cid, 'PENDING', 'OPEN', null, now, { orderId: now });
}

describe("a strategy's snapshot lists kept by their counters", () => {
  it('are the same lists while nothing of the strategy or the flex ledger was written, and read again after its writes', () => {
    const clock = new ManualClock(1_000);
    const store = memoryStore({ clock });
    const inputs = inputsOf(store, clock);
    place(store, 'a-BTC_USDT', 'BTC_USDT', 1);
    const lists = (id: string) => {
      const s = inputs.snapshot(id, venue);
      return [s.openOrders, s.positions, s.recentFills, s.flex] as const;
    };
    const first = lists('a');
    clock.advance(1);
    expect(lists('a')).toEqual(first);
    lists('a').forEach((l, i) => expect(l).toBe(first[i]));
    // Another strategy's order: the lists of `a` stand.
    store.orders.insertPending({ clientOrderId: 'b-1', strategyId: 'b', kind: 'limit', market: 'BTC_USDT', side: 'buy', amount: d('0.01'), price: d('50000'), postOnly: true, ioc: false, rpi: false }, 2);
    lists('a').forEach((l, i) => expect(l).toBe(first[i]));
    expect(lists('b')[0].map((o) => o.clientOrderId)).toEqual(['b-1']);
    // Its own fill: its fills and positions are read again and seen.
    store.fills.insert(fillOf(1, 3));
    const after = lists('a');
    expect(after[2].map((f) => f.dealId)).toEqual([1]);
    expect(after[1].map((p) => p.base.toFixed())).toEqual(['0.001']);
    const fresh = inputsOf(store, clock).snapshot('a', venue);
    expect(JSON.stringify(after)).toBe(JSON.stringify([fresh.openOrders, fresh.positions, fresh.recentFills, fresh.flex]));
    // The flex ledger written: a new flex view, as a fresh reader sees it.
    store.flex.insert({ transactionId: 't1', createdAtMs: 4, planId: 'p1', investmentId: 'i1', currency: 'USDT', amount: d('100'), actionType: 'INVEST' });
    const flex = lists('a')[3];
    expect(flex).not.toBe(after[3]);
    expect(flex.investments.map((i) => i.amount.toFixed())).toEqual(['100']);
  });
});

describe('snapshot views kept per record', () => {
  it('a fill makes new views for its order, its fills and its position only', () => {
    const clock = new ManualClock(1_000);
    const store = memoryStore({ clock });
    const inputs = inputsOf(store, clock);
    place(store, 'a-BTC_USDT', 'BTC_USDT', 1);
    place(store, 'a-ETH_USDT', 'ETH_USDT', 2);
    store.fills.insert(fillOf(1, 3, 'a-ETH_USDT', 'ETH_USDT'));
    store.fills.insert(fillOf(2, 4));
    const before = inputs.snapshot('a', venue);
    store.orders.setState('a-BTC_USDT', 'OPEN', 'PARTIALLY_FILLED', null, 5, { filledBase: d('0.002') });
    store.fills.insert(fillOf(3, 5));
    const after = inputs.snapshot('a', venue);
    expect(JSON.stringify(after)).toBe(JSON.stringify(inputsOf(store, clock).snapshot('a', venue)));
    expect(after.openOrders).not.toBe(before.openOrders);
    expect(after.openOrders.map((o) => o.clientOrderId)).toEqual(['a-BTC_USDT', 'a-ETH_USDT']);
    expect(after.openOrders[0]).not.toBe(before.openOrders[0]);
    expect(after.openOrders[1]).toBe(before.openOrders[1]);
    expect(after.recentFills.map((f) => f.dealId)).toEqual([3, 2, 1]);
    expect(after.recentFills[1]).toBe(before.recentFills[0]);
    expect(after.recentFills[2]).toBe(before.recentFills[1]);
    expect(after.positions.map((p) => p.market)).toEqual(['BTC_USDT', 'ETH_USDT']);
    expect(after.positions[0]).not.toBe(before.positions[0]);
    expect(after.positions[0]?.base.toString()).toBe('0.002');
    expect(after.positions[1]).toBe(before.positions[1]);
    for (const list of [after.openOrders, after.recentFills, after.positions]) for (const v of list) expect(Object.isFrozen(v)).toBe(true);
  });

  it('a position that became collateral (a collateral order journaled on its market) gets a new view', () => {
    const clock = new ManualClock(1_000);
    const store = memoryStore({ clock });
    const inputs = inputsOf(store, clock);
    place(store, 'a-BTC_USDT', 'BTC_USDT', 1);
    store.fills.insert(fillOf(1, 2));
    const spot = inputs.snapshot('a', venue).positions[0];
    expect(spot?.kind).toBe('spot');
    store.orders.insertPending({ clientOrderId: 'a-c', strategyId: 'a', kind: 'collateral', market: 'BTC_USDT', side: 'sell', amount: d('0.01'), price: d('51000'), postOnly: false, ioc: false, rpi: false }, 3);
    const now = inputs.snapshot('a', venue).positions[0];
    expect(now?.kind).toBe('collateral');
    expect(now?.protection).toEqual({ stopLoss: null, takeProfit: null });
  });
});

describe('position views kept by what they are made from', () => {
  it('an order of its own written without a fill keeps the views; a leg, a new collateral market or a fill makes new ones, as a fresh reader sees them', () => {
    const clock = new ManualClock(1_000);
    const store = memoryStore({ clock });
    const inputs = inputsOf(store, clock);
    const fresh = (): string => JSON.stringify(inputsOf(store, clock).snapshot('a', venue).positions);
    place(store, 'a-BTC_USDT', 'BTC_USDT', 1);
    store.fills.insert(fillOf(1, 2));
    const first = inputs.snapshot('a', venue).positions;
    // Its own orders written (placed, moved): the lists are read again, the position views stand.
    place(store, 'a-2', 'BTC_USDT', 3);
    store.orders.setState('a-2', 'OPEN', 'CANCELLED', null, 4);
    const after = inputs.snapshot('a', venue);
    expect(after.openOrders).not.toBe(inputs.snapshot('x', venue).openOrders);
    expect(after.positions).toBe(first);
    expect(JSON.stringify(after.positions)).toBe(fresh());
    // A collateral order on the position's market with a stop-loss leg: collateral, protected.
    store.orders.insertPending({ clientOrderId: 'a-c', strategyId: 'a', kind: 'collateral', market: 'BTC_USDT', side: 'buy', amount: d('0.01'), price: d('50000'), postOnly: false, ioc: false, rpi: false }, 5);
    const collateral = inputs.snapshot('a', venue).positions;
    expect(collateral).not.toBe(first);
    expect(collateral[0]?.protection).toEqual({ stopLoss: null, takeProfit: null });
    store.children.add('a-c', 'a', 'stop_loss', d('49000'), 6);
    const protectedNow = inputs.snapshot('a', venue).positions;
    expect(protectedNow[0]?.protection?.stopLoss?.toFixed()).toBe('49000');
    expect(JSON.stringify(protectedNow)).toBe(fresh());
    // A fill: its position moves.
    store.fills.insert(fillOf(2, 9));
    expect(inputs.snapshot('a', venue).positions[0]?.base.toFixed()).toBe('0.002');
    expect(JSON.stringify(inputs.snapshot('a', venue).positions)).toBe(fresh());
  });
});

describe('recent fills merged, not sorted', () => {
  const fill = fc.record({ dealId: fc.integer({ min: 1, max: 60 }), timeMs: fc.integer({ min: 0, max: 20 }) });
  it('property: equal to sorting both lists by (time, deal id), newest first, a deal taken once, cut at the limit', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fill, { selector: (f) => f.dealId, maxLength: 12 }), fc.array(fill, { maxLength: 6 }), fc.integer({ min: 1, max: 8 }), (all, more, limit) => {
        const newest = (a: FillRecord, b: FillRecord): number => b.timeMs - a.timeMs || b.dealId - a.dealId;
        const kept = all.map((f) => fillOf(f.dealId, f.timeMs)).sort(newest).slice(0, limit);
        const keptIds = new Set(kept.map((f) => f.dealId));
        // Added rows: new deals, or deals already kept (same rows), oldest first as byDealIds gives them.
        const byId = new Map(kept.map((f) => [f.dealId, f]));
        const added = [...new Map(more.map((f) => [f.dealId, byId.get(f.dealId) ?? fillOf(f.dealId + 100, f.timeMs)])).values()].sort((a, b) => -newest(a, b));
        const expected = [...kept, ...added.filter((f) => !keptIds.has(f.dealId))].sort(newest).slice(0, limit);
        expect(newestOf(kept, added, limit).map((f) => f.dealId)).toEqual(expected.map((f) => f.dealId));
      }),
      { numRuns: 300 },
    );
  });
});

describe('new deals read once for every fold', () => {
  it('the same answer as the repository, read once while nothing is written, read again after a write or a rollback', () => {
    const store = memoryStore({ clock: new ManualClock(0) });
    let reads = 0;
    const counted = Object.create(store.fills, { byDealIds: { value: (ids: readonly number[]) => (reads++, store.fills.byDealIds(ids)) } }) as typeof store.fills;
    const shared = new SharedDealReads(counted);
    store.fills.insert(fillOf(1, 1));
    const first = shared.byDealIds([1, 2]);
    expect(shared.byDealIds([1, 2])).toBe(first);
    expect(reads).toBe(1);
    expect(shared.byDealIds([1])).toEqual(store.fills.byDealIds([1]));
    expect(reads).toBe(2);
    store.fills.insert(fillOf(2, 2));
    expect(shared.byDealIds([1, 2]).map((f) => f.dealId)).toEqual([1, 2]);
    expect(reads).toBe(3);
    expect(() =>
      store.tx(() => {
        store.fills.insert(fillOf(3, 3));
        expect(shared.byDealIds([1, 2, 3]).map((f) => f.dealId)).toEqual([1, 2, 3]);
        expect(shared.byDealIds([1, 2, 3]).map((f) => f.dealId)).toEqual([1, 2, 3]);
        throw new Error('rolled back on purpose');
      }),
    ).toThrow();
    expect(reads).toBe(5);
    expect(shared.byDealIds([1, 2, 3]).map((f) => f.dealId)).toEqual([1, 2]);
    expect(reads).toBe(6);
  });
});
