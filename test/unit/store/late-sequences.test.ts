/**
 * The scratch store writes each clientOrderId prefix's next sequence number late (late-rows.ts),
 * at the batch's commit instead of with every placement. On random reservations, failing
 * transactions (nested ones too) and batch commits, it must hand out the ids a memory store
 * (which writes each row as it happens) hands out, and hold the same `sequences` rows once
 * committed.
 */
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { silentLogger } from '../../../src/observability/logger.js';
import { Prng } from '../../../src/simulator/prng.js';
import { openScratchStore, openStore, type Store } from '../../../src/store/index.js';
import { closeAfterTest } from '../../support/test-scope.js';
import { attempt, boom } from '../../support/attempt.js';

const PREFIXES = ['g1', 'tr', 'tz'];

function rows(store: Store): unknown[] {
  const db = (store as unknown as { db: { prepare(sql: string): { all(): unknown[] } } }).db;
  return db.prepare('SELECT prefix, next FROM sequences ORDER BY prefix').all();
}

function reserve(store: Store, rng: Prng, clock: ManualClock): number {
  clock.advance(1000);
  return store.orders.reserveSequence(PREFIXES[Math.floor(rng.next() * PREFIXES.length)] as string, 1 + Math.floor(rng.next() * 3), clock.now());
}

/** Reservations in a transaction that fails at the end (nested: only an inner one fails). */
function failing(store: Store, rng: Prng, clock: ManualClock, nested: boolean): unknown {
  return store.tx(() => {
    const before = [reserve(store, rng, clock), reserve(store, rng, clock)];
    if (!nested) return boom();
    const inner = attempt(() => store.tx(() => [reserve(store, rng, clock), boom()]));
    return [before, inner, reserve(store, rng, clock)];
  });
}

describe("the scratch store's late sequence numbers", () => {
  it('hand out the ids a memory store hands out and hold its rows at each commit, through rollbacks', () => {
    let failed = 0;
    for (let seed = 1; seed <= 8; seed++) {
      const [c1, c2] = [new ManualClock(1_000), new ManualClock(1_000)];
      const full = openStore({ dataDir: '', clock: c1, logger: silentLogger(), durability: 'memory' });
      const lean = openScratchStore({ clock: c2, logger: silentLogger() });
      closeAfterTest(full);
      closeAfterTest(lean);
      const rng = new Prng(seed);
      lean.batch.begin();
      for (let i = 0; i < 200; i++) {
        const [r, s] = [rng.next(), Math.floor(rng.next() * 1e9)];
        const run = (store: Store, clock: ManualClock): unknown =>
          r < 0.6 ? reserve(store, new Prng(s), clock)
          : r < 0.7 ? store.tx(() => reserve(store, new Prng(s), clock))
          : attempt(() => failing(store, new Prng(s), clock, r < 0.85));
        const answer = run(full, c1);
        expect(run(lean, c2), `seed ${seed} step ${i}`).toEqual(answer);
        if (typeof answer === 'string') failed++;
        if (rng.next() < 0.1) {
          lean.batch.commit();
          expect(rows(lean), `seed ${seed} step ${i}`).toEqual(rows(full));
          lean.batch.begin();
        }
      }
      lean.batch.commit();
      expect(rows(lean)).toEqual(rows(full));
      expect(rows(full)).toHaveLength(PREFIXES.length);
    }
    expect(failed).toBeGreaterThan(20);
  });

  it('writes nothing to the table until the batch commits', () => {
    const clock = new ManualClock(5_000);
    const lean = openScratchStore({ clock, logger: silentLogger() });
    closeAfterTest(lean);
    lean.batch.begin();
    expect(lean.orders.reserveSequence('g1', 2, clock.now())).toBe(5_000);
    expect(lean.orders.reserveSequence('g1', 1, clock.now())).toBe(5_002);
    expect(rows(lean)).toEqual([]);
    lean.batch.commit();
    expect(rows(lean)).toEqual([{ prefix: 'g1', next: 5_003 }]);
  });
});
