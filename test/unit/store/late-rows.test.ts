/**
 * A backtest's scratch store writes some rows late (late-rows.ts: a strategy's state, the
 * checkpoints): each key's pending row is written at each commit of the run's batch (and, for
 * a strategy's state, before a read of its table; a checkpoint read takes the pending value),
 * and a failing `store.tx` undoes what it buffered. On random writes, deletes, reads, failing
 * transactions (nested ones too) and batch commits, the scratch store must answer every read as
 * a memory store (which writes each row as it happens) answers, and hold the same rows once
 * committed.
 */
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { silentLogger } from '../../../src/observability/logger.js';
import { Prng } from '../../../src/simulator/prng.js';
import { openScratchStore, openStore, type Store } from '../../../src/store/index.js';
import { LateRows } from '../../../src/store/late-rows.js';
import { closeAfterTest } from '../../support/test-scope.js';
import { attempt, boom } from '../../support/attempt.js';

const STRATEGIES = ['grid1', 'trend1'];
const KEYS = ['levels', 'anchor', 'count', 'last'];

/** The tables' rows as SQL holds them (read on the store's own connection). */
function rows(store: Store): unknown[] {
  const db = (store as unknown as { db: { prepare(sql: string): { all(): unknown[] } } }).db;
  return [
    db.prepare('SELECT strategy_id, key, value_json, updated_ms FROM strategy_state ORDER BY strategy_id, key').all(),
    db.prepare('SELECT name, value, updated_ms FROM checkpoints ORDER BY name').all(),
  ];
}

const CHECKPOINTS = ['fills.scannedToMs', 'reconciledAt', 'flex.newestCreatedMs'];

/** One random write or read of a strategy's state or a checkpoint; the same draws on both stores. */
function op(store: Store, rng: Prng, clock: ManualClock): unknown {
  const state = store.strategyState(STRATEGIES[Math.floor(rng.next() * STRATEGIES.length)] as string);
  const key = KEYS[Math.floor(rng.next() * KEYS.length)] as string;
  const r = rng.next();
  clock.advance(1000);
  const checkpoint = CHECKPOINTS[Math.floor(rng.next() * CHECKPOINTS.length)] as string;
  if (rng.next() < 0.3) return rng.next() < 0.5 ? store.checkpoints.set(checkpoint, String(clock.now()), clock.now()) : store.checkpoints.get(checkpoint);
  if (r < 0.45) return state.set(key, { n: Math.floor(rng.next() * 5), at: clock.now() });
  if (r < 0.6) return state.delete(key);
  if (r < 0.8) return [state.get(key), state.holds(key, null)];
  return state.entries();
}

/** A few ops in a transaction that fails at the end (nested: only an inner one fails). */
function failing(store: Store, rng: Prng, clock: ManualClock, nested: boolean): unknown {
  return store.tx(() => {
    const before = [op(store, rng, clock), op(store, rng, clock)];
    if (!nested) return boom();
    const inner = attempt(() => store.tx(() => [op(store, rng, clock), op(store, rng, clock), boom()]));
    return [before, inner, op(store, rng, clock)];
  });
}

describe("the scratch store's late rows", () => {
  it("answer a strategy's state and the checkpoints as a memory store does, and hold the same rows at each commit, through rollbacks", () => {
    let failed = 0;
    let checkpointRows = 0;
    for (let seed = 1; seed <= 8; seed++) {
      const [c1, c2] = [new ManualClock(1_000), new ManualClock(1_000)];
      const full = openStore({ dataDir: '', clock: c1, logger: silentLogger(), durability: 'memory' });
      const lean = openScratchStore({ clock: c2, logger: silentLogger() });
      closeAfterTest(full);
      closeAfterTest(lean);
      const rng = new Prng(seed);
      lean.batch.begin();
      for (let i = 0; i < 300; i++) {
        const [r, s] = [rng.next(), Math.floor(rng.next() * 1e9)];
        const run = (store: Store, clock: ManualClock): unknown =>
          r < 0.8 ? op(store, new Prng(s), clock) : attempt(() => failing(store, new Prng(s), clock, r < 0.9));
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
      const [states, checkpoints] = rows(full) as [unknown[], unknown[]];
      expect(states.length).toBeGreaterThan(0);
      checkpointRows += checkpoints.length;
    }
    expect(failed).toBeGreaterThan(10);
    expect(checkpointRows).toBeGreaterThan(0);
  });

  it('writes nothing until a flush, undoes a failed transaction\'s puts and flushes, keeps a committed one\'s', () => {
    let depth = 0;
    const written: string[] = [];
    const late = new LateRows<string>({ get rollbackable() { return depth > 0; } }, (row) => written.push(row));
    late.put('a', 'a1');
    // A transaction that puts and flushes, then fails: its flush is undone with it.
    depth = 1;
    const mark = late.mark();
    late.put('a', 'a2');
    late.put('b', 'b1');
    late.flush();
    expect(written).toEqual(['a2', 'b1']);
    late.undoTo(mark);
    depth = 0;
    late.settled();
    expect([late.get('a'), late.get('b')]).toEqual(['a1', undefined]);
    // One that commits keeps what it put.
    depth = 1;
    late.put('b', 'b2');
    depth = 0;
    late.settled();
    late.flush();
    expect(written).toEqual(['a2', 'b1', 'a1', 'b2']);
    expect(late.get('a')).toBeUndefined();
  });
});
