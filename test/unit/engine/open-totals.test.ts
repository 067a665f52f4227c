/**
 * The live orders' totals kept across writes (open-totals.ts) against a fresh build of the risk
 * inputs (and the protective legs kept with them), after every step of random placements, cancels,
 * fills, reported fills, legs and rolled-back batches, to the last digit; and the fresh sum taken
 * over once a term could make a sum round.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { Decimal } from '../../../src/core/decimal.js';
import type { OrderState, Side } from '../../../src/core/orders.js';
import { OpenTotals } from '../../../src/engine/open-totals.js';
import { ReadModels } from '../../../src/engine/read-models.js';
import type { MarketRules } from '../../../src/engine/risk-gate.js';
import { StrategyInputs } from '../../../src/engine/strategy-inputs.js';
import type { OrderRecord } from '../../../src/model/journal.js';
import type { Store } from '../../../src/store/index.js';
import { memoryStore } from '../../support/test-scope.js';

const d = (s: string | number): Decimal => new Decimal(s);
const rules: MarketRules = { tick: d('0.01'), step: d('0.0001'), minAmount: d('0.0001'), minTotalQuote: d('5'), maxPositionBase: d('1'), maxOpenOrders: 10 };
const STRATEGIES = ['a', 'b'];
const MARKETS = ['BTC_USDT', 'ETH_USDT', 'BTC_PERP'];

const op = fc.oneof(
  fc.record({
    kind: fc.constant('place' as const),
    strategy: fc.constantFrom(...STRATEGIES),
    market: fc.constantFrom(...MARKETS),
    side: fc.constantFrom<Side>('buy', 'sell'),
    amount: fc.integer({ min: 1, max: 100_000 }),
    cents: fc.integer({ min: 1, max: 9_999_999 }),
  }),
  fc.record({ kind: fc.constant('state' as const), order: fc.nat(), state: fc.constantFrom<OrderState>('OPEN', 'PARTIALLY_FILLED', 'PENDING_CANCEL', 'UNKNOWN', 'FILLED', 'CANCELLED', 'REJECTED') }),
  fc.record({ kind: fc.constant('filled' as const), order: fc.nat(), amount: fc.integer({ min: 0, max: 100_000 }) }),
  fc.record({ kind: fc.constant('reported' as const), order: fc.nat(), amount: fc.integer({ min: 0, max: 100_000 }) }),
  fc.record({ kind: fc.constant('fill' as const), order: fc.nat(), amount: fc.integer({ min: 1, max: 100_000 }) }),
  fc.record({ kind: fc.constant('leg' as const), order: fc.nat(), stop: fc.boolean() }),
  fc.record({ kind: fc.constant('legState' as const), child: fc.nat(), state: fc.constantFrom('armed', 'active', 'missing', 'cancelled', 'filled') }),
);

type Op = typeof op extends fc.Arbitrary<infer T> ? T : never;

interface Placed {
  cid: string;
  strategy: string;
  market: string;
  side: Side;
  price: Decimal;
  state: OrderState;
}

class Journal {
  readonly orders: Placed[] = [];
  private deal = 1;

  constructor(private readonly store: Store) {}

  write(o: Op, now: number): void {
    if (o.kind === 'place') return this.place(o, now);
    if (o.kind === 'legState') {
      const legs = this.store.children.all();
      const c = legs[o.child % Math.max(1, legs.length)];
      if (c !== undefined) this.store.children.update(c.id, { state: o.state as never }, now);
      return;
    }
    const order = this.orders[o.order % Math.max(1, this.orders.length)];
    if (order === undefined) return;
    if (o.kind === 'state') {
      this.store.orders.setState(order.cid, order.state, o.state, 'test', now);
      order.state = o.state;
      return;
    }
    if (o.kind === 'leg') {
      this.store.children.add(order.cid, order.strategy, o.stop ? 'stop_loss' : 'take_profit', o.stop ? d('1') : d('100000'), now);
      return;
    }
    const base = d(o.amount).div(100_000);
    if (o.kind === 'filled') this.store.orders.patch(order.cid, { filledBase: base }, now);
    else if (o.kind === 'reported') this.store.orders.patch(order.cid, { reported: { base, quote: base.mul(order.price) } }, now);
    else {
      const id = this.deal++;
      this.store.fills.insert({
        dealId: id, orderId: id, clientOrderId: order.cid, market: order.market, side: order.side, role: 'maker', timeMs: now, amount: base,
        price: order.price, quote: base.mul(order.price), fee: d(0), feeAsset: 'USDT', strategyId: order.strategy, ownerClientOrderId: order.cid,
      });
    }
  }

  private place(o: Extract<Op, { kind: 'place' }>, now: number): void {
    const cid = `${o.strategy}-${this.orders.length}`;
    const price = d(o.cents).div(100);
    this.store.orders.insertPending(
      { clientOrderId: cid, strategyId: o.strategy, kind: 'limit', market: o.market, side: o.side, amount: d(o.amount).div(100_000), price, postOnly: false, ioc: false, rpi: false },
      now,
    );
    this.orders.push({ cid, strategy: o.strategy, market: o.market, side: o.side, price, state: 'PENDING' });
  }
}

function inputsOf(store: Store, clock: ManualClock): StrategyInputs {
  return new StrategyInputs({
    store,
    read: new ReadModels(store),
    clock,
    markets: Object.fromEntries(MARKETS.map((m) => [m, rules])),
    limits: { maxNotionalPerOrderQuote: d('1000'), maxDrawdownPct: d('10') },
    budgets: new Map([['a', d('1000')]]),
    tradingState: () => 'ACTIVE',
    equity: () => null,
    recentFillsLimit: 3,
  });
}

/** A step: one write, or a batch of writes in a transaction that fails (`rollback`). */
const step = fc.oneof({ arbitrary: op.map((o) => ({ ops: [o], rollback: false })), weight: 4 }, fc.record({ ops: fc.array(op, { minLength: 1, maxLength: 4 }), rollback: fc.boolean() }));

describe('the live orders totals kept across writes', () => {
  it('property: the risk inputs equal a fresh build after every write, inside a batch and after its rollback', () => {
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 40 }), (steps) => {
        const clock = new ManualClock(1_000);
        const store = memoryStore({ clock });
        const journal = new Journal(store);
        const kept = inputsOf(store, clock);
        const same = (): void => {
          const fresh = inputsOf(store, clock);
          for (const id of STRATEGIES) expect(JSON.stringify(kept.risk(id))).toBe(JSON.stringify(fresh.risk(id)));
        };
        for (const s of steps) {
          clock.advance(1);
          const batch = (): void => {
            for (const o of s.ops) {
              journal.write(o, clock.now());
              same();
            }
            if (s.rollback) throw new Error('rolled back on purpose');
          };
          const states = journal.orders.map((o) => o.state);
          const placed = journal.orders.length;
          if (s.ops.length === 1 && !s.rollback) batch();
          else if (s.rollback) {
            expect(() => store.tx(batch)).toThrow();
            // The journal's own notes follow the store back.
            journal.orders.length = placed;
            states.forEach((st, i) => ((journal.orders[i] as Placed).state = st));
          } else store.tx(batch);
          same();
        }
      }),
      { numRuns: 80 },
    );
  });

  const record = (cid: string, amount: string, price: string): OrderRecord =>
    Object.freeze({ clientOrderId: cid, strategyId: 'a', market: 'M', side: 'buy', amount: d(amount), price: d(price) }) as unknown as OrderRecord;
  const part = (o: OrderRecord) => ({ remaining: o.amount, quote: o.amount.mul(o.price) });

  it('counts only what the list holds: an order ended or written anew is taken out', () => {
    const totals = new OpenTotals();
    const [x, y] = [record('x', '0.5', '100.25'), record('y', '0.25', '3')];
    totals.update([x, y], part);
    expect(totals.market('M')?.buy.toString()).toBe('0.75');
    expect(totals.committed('a').toString()).toBe('50.875');
    const y2 = record('y', '0.125', '3');
    totals.update([x, y2], part);
    expect([totals.market('M')?.buy.toString(), totals.committed('a').toString(), totals.market('M')?.orders]).toEqual(['0.625', '50.5', 2]);
    totals.update([y2], part);
    expect([totals.market('M')?.buy.toString(), totals.committed('a').toString(), totals.market('M')?.orders]).toEqual(['0.125', '0.375', 1]);
    expect(totals.exact).toBe(true);
  });

  it('gives the totals up once a term could make a sum round', () => {
    const totals = new OpenTotals();
    totals.update([record('x', '12345678901234567890', '1')], part);
    expect(totals.exact).toBe(true);
    totals.update([record('x', '12345678901234567890', '1'), record('z', '0.0000000000000000000000000000000000000001', '3')], part);
    expect(totals.exact).toBe(false);
  });
});
