/**
 * A strategy's snapshot and risk inputs, and the equity check's journal parts, served from the reads kept between ticks
 * (versioned-memo.ts) against the same read from SQL by a fresh reader, after every write of a
 * random sequence of order, child and fill writes to a real store.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { Decimal } from '../../../src/core/decimal.js';
import type { Side } from '../../../src/core/orders.js';
import { EquitySources } from '../../../src/engine/equity-sources.js';
import type { MarketHoldRule } from '../../../src/engine/order-holds.js';
import { ReadModels } from '../../../src/engine/read-models.js';
import type { MarketRules } from '../../../src/engine/risk-gate.js';
import { StrategyInputs } from '../../../src/engine/strategy-inputs.js';
import type { OrderState } from '../../../src/core/orders.js';
import type { Store } from '../../../src/store/index.js';
import { SETTLED_LISTS, type SnapshotData } from '../../../src/strategy-api/host.js';
import { memoryStore } from '../../support/test-scope.js';

const d = (s: string | number): Decimal => new Decimal(s);
const rules: MarketRules = { tick: d('0.01'), step: d('0.0001'), minAmount: d('0.0001'), minTotalQuote: d('5'), maxPositionBase: d('1'), maxOpenOrders: 10 };
const STATES: OrderState[] = ['PENDING', 'OPEN', 'PARTIALLY_FILLED', 'PENDING_CANCEL', 'UNKNOWN', 'FILLED', 'CANCELLED', 'REJECTED'];
const STRATEGIES = ['a', 'b'];

const op = fc.oneof(
  fc.record({
    kind: fc.constant('place' as const),
    strategy: fc.constantFrom(...STRATEGIES),
    collateral: fc.boolean(),
    side: fc.constantFrom<Side>('buy', 'sell'),
    amount: fc.integer({ min: 1, max: 100 }),
  }),
  fc.record({ kind: fc.constant('state' as const), order: fc.nat(), state: fc.constantFrom(...STATES) }),
  fc.record({ kind: fc.constant('filled' as const), order: fc.nat(), amount: fc.integer({ min: 0, max: 100 }) }),
  fc.record({ kind: fc.constant('leg' as const), order: fc.nat(), stop: fc.boolean() }),
  fc.record({ kind: fc.constant('legState' as const), child: fc.nat(), state: fc.constantFrom('armed', 'active', 'missing', 'cancelled', 'filled') }),
  fc.record({ kind: fc.constant('fill' as const), order: fc.nat(), amount: fc.integer({ min: 1, max: 100 }) }),
  fc.record({ kind: fc.constant('external' as const), order: fc.nat(), amount: fc.integer({ min: 1, max: 100 }), attribute: fc.boolean() }),
  fc.record({ kind: fc.constant('reported' as const), order: fc.nat(), amount: fc.integer({ min: 0, max: 100 }) }),
  fc.record({ kind: fc.constant('oto' as const), order: fc.nat() }),
  fc.record({ kind: fc.constant('flex' as const), action: fc.constantFrom('INVEST', 'WITHDRAW_FROM_INVESTMENT', 'DAILY_EARNING', 'CLOSE_INVESTMENT'), amount: fc.integer({ min: 1, max: 100 }) }),
);

type Op = typeof op extends fc.Arbitrary<infer T> ? T : never;

class Journal {
  private readonly orders: { cid: string; strategy: string; market: string; side: Side; state: OrderState }[] = [];
  private deal = 1;

  constructor(private readonly store: Store) {}

  write(o: Op, now: number): void {
    const pick = (i: number) => this.orders[i % Math.max(1, this.orders.length)];
    if (o.kind === 'place') {
      const cid = `${o.strategy}-${this.orders.length}`;
      const market = o.collateral ? 'BTC_PERP' : 'BTC_USDT';
      this.store.orders.insertPending(
        { clientOrderId: cid, strategyId: o.strategy, kind: o.collateral ? 'collateral' : 'limit', market, side: o.side, amount: d(o.amount).div(1000), price: d('50000'), postOnly: false, ioc: false, rpi: false },
        now,
      );
      this.orders.push({ cid, strategy: o.strategy, market, side: o.side, state: 'PENDING' });
      return;
    }
    if (o.kind === 'flex') {
      const n = this.deal++;
      this.store.flex.insert({ transactionId: `t${n}`, createdAtMs: now, planId: 'p1', investmentId: 'i1', currency: 'USDT', amount: d(o.amount), actionType: o.action });
      return;
    }
    const order = pick('order' in o ? o.order : 0);
    if (o.kind === 'legState') {
      const live = this.store.children.all();
      const c = live[o.child % Math.max(1, live.length)];
      if (c !== undefined) this.store.children.update(c.id, { state: o.state as never }, now);
      return;
    }
    if (order === undefined) return;
    if (o.kind === 'state') {
      this.store.orders.setState(order.cid, order.state, o.state, 'test', now);
      order.state = o.state;
    } else if (o.kind === 'filled') this.store.orders.patch(order.cid, { filledBase: d(o.amount).div(1000) }, now);
    else if (o.kind === 'reported') this.store.orders.patch(order.cid, { reported: { base: d(o.amount).div(1000), quote: d(o.amount).mul(50) } }, now);
    else if (o.kind === 'oto') this.store.children.setOtoId(order.cid, this.deal++, now);
    else if (o.kind === 'external') this.external(order, o.amount, o.attribute, now);
    else if (o.kind === 'leg') this.store.children.add(order.cid, order.strategy, o.stop ? 'stop_loss' : 'take_profit', d(o.stop ? '49000' : '51000'), now);
    else {
      const amount = d(o.amount).div(1000);
      const price = d('50000');
      const id = this.deal++;
      this.store.fills.insert({
        dealId: id, orderId: id, clientOrderId: order.cid, market: order.market, side: order.side, role: 'maker', timeMs: now, amount, price,
        quote: amount.mul(price), fee: d(0), feeAsset: 'USDT', strategyId: order.strategy, ownerClientOrderId: order.cid,
      });
    }
  }

  /** A fill of an order not known yet (no owner), then attributed to the order, as a late reply does. */
  private external(order: { cid: string; strategy: string; market: string; side: Side }, n: number, attribute: boolean, now: number): void {
    const amount = d(n).div(1000);
    const id = this.deal++;
    this.store.fills.insert({
      dealId: id, orderId: 1_000_000 + id, clientOrderId: '', market: order.market, side: order.side, role: 'taker', timeMs: now, amount, price: d('50000'),
      quote: amount.mul(50000), fee: d(0), feeAsset: 'USDT', strategyId: null, ownerClientOrderId: null,
    });
    if (attribute) this.store.fills.attribute(1_000_000 + id, order.strategy, order.cid);
  }
}

function inputsOf(store: Store, clock: ManualClock): StrategyInputs {
  return new StrategyInputs({
    store,
    read: new ReadModels(store),
    clock,
    markets: { BTC_USDT: rules, BTC_PERP: rules },
    limits: { maxNotionalPerOrderQuote: d('1000'), maxDrawdownPct: d('10') },
    budgets: new Map([['a', d('1000')]]),
    tradingState: () => 'ACTIVE',
    equity: () => null,
    recentFillsLimit: 3,
  });
}

const HOLD: MarketHoldRule = { base: 'BTC', quote: 'USDT', feeReserveRate: d('0.001'), leverage: d(10) };
const holdRules = (): MarketHoldRule => HOLD;

const venue = { prices: {}, balances: { USDT: d('1000') } };

/** The lists a context hands on unlooked-at (settledList): frozen, each view too, a position's protection too. */
function settledThrough(s: SnapshotData): void {
  // The mark the contexts trust without a look.
  expect(s.lists).toBe(SETTLED_LISTS);
  for (const list of [s.openOrders, s.recentFills, s.positions]) {
    expect(Object.isFrozen(list)).toBe(true);
    for (const v of list) expect(Object.isFrozen(v)).toBe(true);
  }
  for (const p of s.positions) expect(p.protection === null || Object.isFrozen(p.protection)).toBe(true);
}

describe('per-tick reads kept between writes', () => {
  it('property: the kept snapshot and risk inputs equal a fresh read from SQL after every write', () => {
    fc.assert(
      fc.property(fc.array(op, { minLength: 1, maxLength: 40 }), (ops) => {
        const clock = new ManualClock(1_000);
        const store = memoryStore({ clock });
        const journal = new Journal(store);
        const kept = inputsOf(store, clock);
        const keptSources = new EquitySources(store, holdRules);
        for (const o of ops) {
          clock.advance(1);
          journal.write(o, clock.now());
          const fresh = inputsOf(store, clock);
          for (const id of STRATEGIES) {
            expect(JSON.stringify(kept.snapshot(id, venue))).toBe(JSON.stringify(fresh.snapshot(id, venue)));
            settledThrough(kept.snapshot(id, venue));
            expect(JSON.stringify(kept.risk(id))).toBe(JSON.stringify(fresh.risk(id)));
          }
          expect(JSON.stringify(keptSources.read())).toBe(JSON.stringify(new EquitySources(store, holdRules).read()));
        }
      }),
      { numRuns: 60 },
    );
  });

  it('a collateral order rolled back is not kept, and the order that takes its row next is seen', () => {
    const clock = new ManualClock(1_000);
    const store = memoryStore({ clock });
    const inputs = inputsOf(store, clock);
    const journal = new Journal(store);
    const place = (market: string) =>
      store.orders.insertPending(
        { clientOrderId: `a-${market}`, strategyId: 'a', kind: 'collateral', market, side: 'buy', amount: d('0.01'), price: d('50000'), postOnly: false, ioc: false, rpi: false },
        clock.now(),
      );
    const kinds = () => inputs.snapshot('a', venue).positions.map((p) => `${p.market}:${p.kind}`);
    journal.write({ kind: 'place', strategy: 'a', collateral: false, side: 'buy', amount: 1 }, clock.now());
    journal.write({ kind: 'fill', order: 0, amount: 1 }, clock.now());
    expect(kinds()).toEqual(['BTC_USDT:spot']);
    expect(() =>
      store.tx(() => {
        place('BTC_USDT');
        expect(kinds()).toEqual(['BTC_USDT:collateral']);
        throw new Error('rolled back on purpose');
      }),
    ).toThrow();
    expect(kinds()).toEqual(['BTC_USDT:spot']);
    place('BTC_USDT');
    expect(kinds()).toEqual(['BTC_USDT:collateral']);
  });
});

describe("a strategy's kept reads see the writes that reach it by another path", () => {
  const setup = () => {
    const clock = new ManualClock(1_000);
    const store = memoryStore({ clock });
    const journal = new Journal(store);
    journal.write({ kind: 'place', strategy: 'a', collateral: true, side: 'buy', amount: 10 }, clock.now());
    journal.write({ kind: 'place', strategy: 'b', collateral: false, side: 'buy', amount: 10 }, clock.now());
    return { clock, store, journal, inputs: inputsOf(store, clock) };
  };

  it('a fill attributed to the strategy after it was stored as external', () => {
    const { clock, store, journal, inputs } = setup();
    expect(inputs.snapshot('a', venue).recentFills).toEqual([]);
    clock.advance(1);
    journal.write({ kind: 'external', order: 0, amount: 5, attribute: false }, clock.now());
    expect(inputs.snapshot('a', venue).recentFills).toEqual([]);
    journal.write({ kind: 'oto', order: 0 }, clock.now());
    store.fills.attribute(1_000_001, 'a', 'a-0');
    expect(inputs.snapshot('a', venue).recentFills.map((f) => f.dealId)).toEqual([1]);
    expect(inputs.snapshot('b', venue).recentFills).toEqual([]);
  });

  it('a fill rolled back is not kept, and the same deal stored afterwards is seen, newest first', () => {
    const { clock, store, journal, inputs } = setup();
    const deals = () => inputs.snapshot('a', venue).recentFills.map((f) => f.dealId);
    journal.write({ kind: 'fill', order: 0, amount: 1 }, clock.now());
    expect(deals()).toEqual([1]);
    clock.advance(1);
    expect(() =>
      store.tx(() => {
        journal.write({ kind: 'fill', order: 0, amount: 2 }, clock.now());
        expect(deals()).toEqual([2, 1]);
        throw new Error('rolled back on purpose');
      }),
    ).toThrow();
    expect(deals()).toEqual([1]);
    journal.write({ kind: 'fill', order: 1, amount: 2 }, clock.now());
    expect(deals()).toEqual([1]);
    // An older deal than the kept ones lands below them; past the limit (3) the oldest goes.
    const insert = (dealId: number, timeMs: number) =>
      store.fills.insert({
        dealId, orderId: dealId, clientOrderId: 'a-0', market: 'BTC_PERP', side: 'buy', role: 'maker', timeMs, amount: d('0.001'), price: d('50000'),
        quote: d('50'), fee: d(0), feeAsset: 'USDT', strategyId: 'a', ownerClientOrderId: 'a-0',
      });
    insert(2, clock.now());
    insert(10, 1);
    expect(deals()).toEqual([2, 1, 10]);
    insert(11, clock.now() + 5);
    expect(deals()).toEqual([11, 2, 1]);
  });

  it("a leg's state written by its id, and a fill written for another strategy", () => {
    const { clock, journal, inputs } = setup();
    journal.write({ kind: 'leg', order: 0, stop: true }, clock.now());
    journal.write({ kind: 'fill', order: 0, amount: 10 }, clock.now());
    const stop = () => inputs.snapshot('a', venue).positions[0]?.protection?.stopLoss?.toString() ?? null;
    expect(stop()).toBe('49000');
    journal.write({ kind: 'fill', order: 1, amount: 10 }, clock.now());
    expect(inputs.snapshot('b', venue).recentFills.map((f) => f.dealId)).toEqual([2]);
    journal.write({ kind: 'legState', child: 0, state: 'cancelled' }, clock.now());
    expect(stop()).toBeNull();
  });
});
