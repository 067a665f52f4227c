/**
 * A backtest's scratch store drops the orders indexes nothing of a run reads through
 * (index.ts `SCRATCH_DROPPED_INDEXES`). Every read of the orders repository must answer as a
 * store with them answers: on random journaled orders of several strategies, kinds and markets,
 * moves, reported fills (the provisional flag) and failing transactions (nested ones too, after
 * which the live index reads the table again) inside the run's batch, each read that goes to SQL
 * by state, by strategy or by the provisional flag is compared with a memory store's.
 */
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { Decimal } from '../../../src/core/decimal.js';
import type { OrderState } from '../../../src/core/orders.js';
import { OrderJournal } from '../../../src/engine/order-journal.js';
import type { OrderRecord } from '../../../src/model/journal.js';
import { silentLogger } from '../../../src/observability/logger.js';
import { Prng } from '../../../src/simulator/prng.js';
import { openScratchStore, openStore, SCRATCH_DROPPED_INDEXES, type Store } from '../../../src/store/index.js';
import { closeAfterTest } from '../../support/test-scope.js';
import { attempt, boom } from '../../support/attempt.js';

const d = (s: string): Decimal => new Decimal(s);
const STATES: OrderState[] = ['PENDING', 'OPEN', 'PARTIALLY_FILLED', 'PENDING_CANCEL', 'UNKNOWN', 'FILLED', 'CANCELLED', 'REJECTED'];
const FINAL: OrderState[] = ['FILLED', 'CANCELLED', 'REJECTED'];
const STRATEGIES = ['grid1', 'trend1', 'hedge'];
const MARKETS = ['BTC_USDT', 'ETH_USDT', 'BTC_PERP'];

interface Side {
  store: Store;
  journal: OrderJournal;
}

const row = (o: OrderRecord): string =>
  [o.clientOrderId, o.strategyId, o.kind, o.market, o.state, o.orderId, o.reason, o.filledBase.toFixed(), o.reportedFilledBase.toFixed(), o.updatedMs].join('|');

/** The reads that went through the dropped indexes (by state, strategy and state, provisional), and their neighbours. */
function reads(s: Side, rng: Prng): unknown {
  const { orders } = s.store;
  const states = STATES.filter(() => rng.next() < 0.4);
  return {
    final: orders.listByState(FINAL).map(row),
    some: orders.listByState(states).map(row),
    byStrategy: STRATEGIES.map((id) => orders.listByStrategy(id).map(row)),
    byStrategyFinal: STRATEGIES.map((id) => orders.listByStrategy(id, ['FILLED', 'CANCELLED']).map(row)),
    byStrategySome: STRATEGIES.map((id) => orders.listByStrategy(id, states).map(row)),
    kinds: STRATEGIES.map((id) => [orders.marketsOfKind(id, 'limit'), orders.marketsOfKind(id, 'collateral')]),
    provisional: orders.listProvisional().map(row),
    counts: orders.countByState(),
    sent: [...orders.sentCounts()],
    all: orders.all().map(row),
  };
}

/** One random step, the same on both sides (the same draws); each side's answer. */
function step(rng: Prng, sides: readonly Side[], ids: string[], clock: ManualClock): unknown[] {
  const r = rng.next();
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rng.next() * xs.length)] as T;
  clock.advance(Math.floor(rng.next() * 3) * 1000);
  if (r < 0.25 || ids.length === 0) {
    const [strategy, kind, market, n] = [pick(STRATEGIES), pick(['limit', 'collateral'] as const), pick(MARKETS), 1 + Math.floor(rng.next() * 3)];
    const specs = Array.from({ length: n }, (_, i) => ({ market, side: 'buy' as const, amount: d('1'), price: d(String(100 + i)) }));
    const out = sides.map((s) => s.journal.open(strategy, specs, kind));
    ids.push(...(out[0] as string[]));
    return out;
  }
  const [id, to, orderId] = [pick(ids), pick(STATES), Math.floor(rng.next() * 1e9)];
  const reported = { base: d(String(Math.floor(rng.next() * 3) / 2)), quote: d('10') };
  const filledBase = d(String(Math.floor(rng.next() * 3) / 2));
  if (r < 0.6) return sides.map((s) => attempt(() => s.journal.move(id, to, `to ${to}`, { orderId, reported })));
  if (r < 0.75) return sides.map((s) => attempt(() => s.journal.move(id, to, 'fills', { filledBase })));
  const [other, nested] = [pick(ids), rng.next() < 0.5];
  return sides.map((s) =>
    attempt(() =>
      s.store.tx(() => {
        s.journal.move(id, to, 'in tx', { orderId, reported });
        const inner = nested ? attempt(() => s.store.tx(() => (s.journal.move(other, 'REJECTED', 'inner'), boom()))) : boom();
        return ['committed', inner];
      }),
    ),
  );
}

describe("the scratch store's orders and fills without the unread indexes", () => {
  it('has none of them (a memory store has all)', () => {
    const clock = new ManualClock(1_000);
    const indexes = (store: Store): string[] =>
      ((store as unknown as { db: { prepare(sql: string): { all(): { name: string }[] } } }).db)
        .prepare("SELECT name FROM sqlite_master WHERE type = 'index'")
        .all()
        .map((r) => r.name);
    const lean = openScratchStore({ clock, logger: silentLogger() });
    const full = openStore({ dataDir: '', clock, logger: silentLogger(), durability: 'memory' });
    closeAfterTest(lean);
    closeAfterTest(full);
    for (const name of SCRATCH_DROPPED_INDEXES) {
      expect(indexes(full)).toContain(name);
      expect(indexes(lean)).not.toContain(name);
    }
  });

  it('answers every read by state, strategy, kind and the provisional flag as a store with them, through random moves and rollbacks', () => {
    let provisional = 0;
    for (let seed = 1; seed <= 6; seed++) {
      const clock = new ManualClock(1_000);
      const full = openStore({ dataDir: '', clock, logger: silentLogger(), durability: 'memory' });
      const lean = openScratchStore({ clock, logger: silentLogger() });
      closeAfterTest(full);
      closeAfterTest(lean);
      const sides: Side[] = [full, lean].map((store) => ({ store, journal: new OrderJournal(store, clock) }));
      const rng = new Prng(seed);
      const ids: string[] = [];
      lean.batch.begin();
      for (let i = 0; i < 150; i++) {
        const answers = step(rng, sides, ids, clock);
        expect(answers[1], `seed ${seed} step ${i}`).toEqual(answers[0]);
        const readSeed = Math.floor(rng.next() * 1e9);
        expect(reads(sides[1] as Side, new Prng(readSeed)), `seed ${seed} step ${i}`).toEqual(reads(sides[0] as Side, new Prng(readSeed)));
        provisional = Math.max(provisional, full.orders.listProvisional().length);
        if (rng.next() < 0.1) {
          lean.batch.commit();
          lean.batch.begin();
        }
      }
      lean.batch.commit();
      // The sequence reached the reads' interesting cases: final orders and provisional ones.
      expect(full.orders.listByState(FINAL).length).toBeGreaterThan(5);
      expect(full.orders.countByState()['PENDING'] ?? 0).toBeGreaterThan(0);
    }
    expect(provisional).toBeGreaterThan(0);
  });

  it('answers every read of the fills as a store with them, through random inserts, attributions and rollbacks', () => {
    for (let seed = 1; seed <= 4; seed++) {
      const clock = new ManualClock(1_000);
      const full = openStore({ dataDir: '', clock, logger: silentLogger(), durability: 'memory' });
      const lean = openScratchStore({ clock, logger: silentLogger() });
      closeAfterTest(full);
      closeAfterTest(lean);
      const rng = new Prng(seed);
      const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rng.next() * xs.length)] as T;
      lean.batch.begin();
      let attributed = 0;
      for (let i = 0; i < 200; i++) {
        const r = rng.next();
        const orderId = 1 + Math.floor(rng.next() * 12);
        const strategy = pick([...STRATEGIES, null]);
        const fill = {
          dealId: 1 + Math.floor(rng.next() * 400), orderId, clientOrderId: rng.next() < 0.3 ? '' : `c${orderId}`, market: pick(MARKETS),
          side: pick(['buy', 'sell'] as const), role: pick(['maker', 'taker'] as const), timeMs: Math.floor(rng.next() * 50) * 1000,
          amount: d(String(orderId / 4)), price: d('100.5'), quote: d('10'), fee: d('0.01'), feeAsset: 'USDT',
          strategyId: strategy, ownerClientOrderId: strategy === null ? null : `c${orderId}`,
        };
        const owner = pick(STRATEGIES);
        const write = (s: Store): unknown => {
          if (r < 0.6) return s.fills.insert(fill);
          if (r < 0.8) return s.fills.attribute(orderId, owner, `c${orderId}`);
          return attempt(() => s.tx(() => (s.fills.insert({ ...fill, dealId: fill.dealId + 1000 }), boom())));
        };
        const answers = [full, lean].map(write);
        expect(answers[1], `seed ${seed} step ${i}`).toEqual(answers[0]);
        attributed = Math.max(attributed, full.fills.attributionCount);
        const readOf = (s: Store): unknown => ({
          byStrategy: [...STRATEGIES, 'none'].map((id) => s.fills.byStrategy(id)),
          recent: STRATEGIES.map((id) => s.fills.recentByStrategy(id, 5)),
          byOrder: [orderId, orderId + 1].map((id) => s.fills.byOrderId(id)),
          byOwner: s.fills.byOwner(`c${orderId}`),
          inMarket: MARKETS.map((m) => s.fills.recentInMarket(m, 10_000, 7)),
          all: s.fills.all(),
          rows: [...s.fills.resultRowsInOrder()],
          count: s.fills.count(),
        });
        expect(readOf(lean), `seed ${seed} step ${i}`).toEqual(readOf(full));
        if (rng.next() < 0.1) {
          lean.batch.commit();
          lean.batch.begin();
        }
      }
      lean.batch.commit();
      expect(full.fills.count()).toBeGreaterThan(50);
      expect(attributed).toBeGreaterThan(0);
    }
  });
});
