/**
 * A backtest's scratch store writes no order history and keeps the undelivered order finals in
 * memory (order-finals-repo.ts `kept`, orders-repo.ts `keepsHistory`). The engine must read the
 * same as from a store that writes both tables: on random sequences of journaled orders, moves,
 * deliveries and failing transactions (nested ones too) inside the run's batch, every read the
 * engine makes of orders and finals is compared with a memory store's (which writes the rows).
 */
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { Decimal } from '../../../src/core/decimal.js';
import type { OrderState } from '../../../src/core/orders.js';
import { OrderJournal } from '../../../src/engine/order-journal.js';
import { silentLogger } from '../../../src/observability/logger.js';
import { Prng } from '../../../src/simulator/prng.js';
import { openScratchStore, openStore, type Store } from '../../../src/store/index.js';
import { closeAfterTest } from '../../support/test-scope.js';
import { attempt, boom } from '../../support/attempt.js';

const d = (s: string): Decimal => new Decimal(s);
const LIVE: OrderState[] = ['PENDING', 'OPEN', 'PARTIALLY_FILLED', 'PENDING_CANCEL', 'UNKNOWN'];
const TARGETS: OrderState[] = ['OPEN', 'PARTIALLY_FILLED', 'PENDING_CANCEL', 'UNKNOWN', 'FILLED', 'CANCELLED', 'REJECTED'];

interface Side {
  store: Store;
  journal: OrderJournal;
}

/** What the engine reads of orders and finals (order-events.ts, the reconciler, the risk inputs). */
function reads(s: Side, ids: readonly string[]): unknown {
  return {
    finals: s.store.finals.undelivered(),
    live: s.store.orders.listByState(LIVE).map((o) => [o.clientOrderId, o.state, o.orderId, o.filledBase.toFixed()]),
    orders: ids.map((id) => s.store.orders.get(id)?.state),
  };
}

/** A transaction that fails after moving, recording and delivering (nested: only the inner one fails). */
function failing(s: Side, id: string, other: string, to: OrderState, orderId: number, nested: boolean, nowMs: number): unknown {
  const deliverFirst = (): boolean => s.store.finals.markDelivered(s.store.finals.undelivered()[0]?.clientOrderId ?? id, nowMs);
  return s.store.tx(() => {
    s.journal.move(id, to, 'in tx', { orderId });
    if (!nested) {
      deliverFirst();
      return boom();
    }
    const inner = attempt(() =>
      s.store.tx(() => {
        s.journal.move(other, 'REJECTED', 'inner');
        deliverFirst();
        boom();
      }),
    );
    return ['committed', inner];
  });
}

/** One random step, applied identically to both sides; returns each side's answer. */
function step(rng: Prng, sides: readonly Side[], ids: string[], clock: ManualClock): unknown[] {
  const r = rng.next();
  const pick = (): string => ids[Math.floor(rng.next() * ids.length)] as string;
  clock.advance(Math.floor(rng.next() * 3) * 1000);
  if (r < 0.2 || ids.length === 0) {
    const out = sides.map((s) => s.journal.open('grid1', [{ market: 'BTC_USDT', side: 'buy', amount: d('1'), price: d('100') }], 'limit'));
    ids.push(...(out[0] as string[]));
    return out;
  }
  const [id, other] = [pick(), pick()];
  const to = TARGETS[Math.floor(rng.next() * TARGETS.length)] as OrderState;
  const orderId = Math.floor(rng.next() * 1e9);
  if (r < 0.55) return sides.map((s) => attempt(() => s.journal.move(id, to, `to ${to}`, { orderId })));
  if (r < 0.75) {
    const first = rng.next() < 0.8 ? sides[0]?.store.finals.undelivered()[0]?.clientOrderId : undefined;
    return sides.map((s) => s.store.finals.markDelivered(first ?? id, clock.now()));
  }
  const nested = rng.next() < 0.5;
  return sides.map((s) => attempt(() => failing(s, id, other, to, orderId, nested, clock.now())));
}

describe("the scratch store's order finals and history", () => {
  it('gives the engine what a store writing both tables gives, through random moves, deliveries and rollbacks', () => {
    for (let seed = 1; seed <= 12; seed++) {
      const clock = new ManualClock(1_000);
      const full = openStore({ dataDir: '', clock, logger: silentLogger(), durability: 'memory' });
      const lean = openScratchStore({ clock, logger: silentLogger() });
      closeAfterTest(full);
      closeAfterTest(lean);
      const sides: Side[] = [full, lean].map((store) => ({ store, journal: new OrderJournal(store, clock) }));
      const rng = new Prng(seed);
      const ids: string[] = [];
      lean.batch.begin();
      for (let i = 0; i < 300; i++) {
        const answers = step(rng, sides, ids, clock);
        expect(answers[1], `seed ${seed} step ${i}`).toEqual(answers[0]);
        expect(reads(sides[1] as Side, ids), `seed ${seed} step ${i}`).toEqual(reads(sides[0] as Side, ids));
        if (rng.next() < 0.1) {
          lean.batch.commit();
          lean.batch.begin();
        }
      }
      lean.batch.commit();
      // The sequence reached every kind of step: finals recorded and delivered, orders ended.
      expect(ids.length).toBeGreaterThan(20);
      expect(full.orders.listByState(['FILLED', 'CANCELLED', 'REJECTED']).length).toBeGreaterThan(5);
    }
  });

  it('writes no order history in the scratch store (a memory store still does)', () => {
    const clock = new ManualClock(1_000);
    const lean = openScratchStore({ clock, logger: silentLogger() });
    const full = openStore({ dataDir: '', clock, logger: silentLogger(), durability: 'memory' });
    closeAfterTest(lean);
    closeAfterTest(full);
    for (const store of [lean, full]) {
      const journal = new OrderJournal(store, clock);
      const [cid] = journal.open('grid1', [{ market: 'BTC_USDT', side: 'buy', amount: d('1'), price: d('100') }], 'limit') as [string];
      journal.move(cid, 'OPEN', 'placed', { orderId: 7 });
      expect(store.orders.get(cid)?.state).toBe('OPEN');
    }
    expect(() => lean.orders.history('grid1-1')).toThrow('keeps no order history');
    expect(full.orders.history(full.orders.listByState(['OPEN'])[0]?.clientOrderId as string).map((e) => e.to)).toEqual(['PENDING', 'OPEN']);
  });

  it('undoes a record and a delivery made in a failing tx, keeps those of one that commits', () => {
    const clock = new ManualClock(1_000);
    const lean = openScratchStore({ clock, logger: silentLogger() });
    closeAfterTest(lean);
    const journal = new OrderJournal(lean, clock);
    lean.batch.begin();
    const [a, b] = journal.open('grid1', [1, 2].map(() => ({ market: 'BTC_USDT', side: 'buy' as const, amount: d('1'), price: d('100') })), 'limit') as [string, string];
    journal.move(a, 'CANCELLED', 'cancel confirmed');
    expect(() =>
      lean.tx(() => {
        expect(lean.finals.markDelivered(a, 5)).toBe(true);
        journal.move(b, 'REJECTED', 'refused');
        expect(lean.finals.undelivered().map((f) => f.clientOrderId)).toEqual([b]);
        boom();
      }),
    ).toThrow('boom');
    expect(lean.finals.undelivered().map((f) => [f.clientOrderId, f.state])).toEqual([[a, 'CANCELLED']]);
    lean.tx(() => journal.move(b, 'REJECTED', 'refused'));
    expect(lean.finals.markDelivered(a, 6)).toBe(true);
    expect(lean.finals.markDelivered(a, 7)).toBe(false);
    expect(lean.finals.undelivered().map((f) => f.clientOrderId)).toEqual([b]);
    lean.batch.commit();
  });
});
