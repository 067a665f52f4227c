/**
 * A hook that writes its state back as it is stored (a key deleted that is absent, a value set to
 * what it holds) changes nothing: such writes are not committed and do not count towards opening a
 * transaction. Over the real store, whose strategy state knows what it holds.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ManualClock } from '../../../src/core/clock.js';
import { StrategyRunner, type OrderPort } from '../../../src/engine/strategy-runner.js';
import { silentLogger } from '../../../src/observability/logger.js';
import type { LoadedStrategy, StateBackend } from '../../../src/strategy-api/host.js';
import { BufferedState } from '../../../src/strategy-api/host.js';
import { defineStrategy } from '../../../src/strategy-api/index.js';
import { openStore, type Store } from '../../../src/store/index.js';
import { MemoryState, snapshot } from '../../support/daemon-ctx.js';
import { RecordingEvents } from '../../support/runner-events.js';
import { tempDir } from '../../support/temp-dir.js';
import { closeAfterTest } from '../../support/test-scope.js';

function harness(store: Store) {
  let ticks = 0;
  const definition = defineStrategy({
    name: 't',
    params: z.object({}),
    schedule: '* * * * * *',
    // Like a strategy that keeps a window of prices: one key moves, the others are written back as they are.
    onTick: (ctx) => {
      ticks++;
      ctx.state.set('tick', ticks);
      ctx.state.set('same', { a: [1, 'x'] });
      ctx.state.delete('absent');
      return [];
    },
  });
  const strategy: LoadedStrategy = { id: 't', module: 't', params: {}, schedule: '* * * * * *', definition: definition as NonNullable<LoadedStrategy['definition']> };
  const transactions: number[] = [];
  const runner = new StrategyRunner({
    strategy,
    clock: new ManualClock(),
    logger: silentLogger(),
    orders: {} as OrderPort,
    snapshot: async () => snapshot(),
    risk: () => ({}) as never,
    onDrawdown: () => undefined,
    state: store.strategyState('t') as StateBackend,
    atomically: (fn) => {
      transactions.push(ticks);
      store.tx(fn);
    },
    accepting: () => true,
    events: new RecordingEvents(),
    deadlineMs: 1_000,
    errorBudget: 3,
    errorWindowMs: 60_000,
  });
  return { runner, transactions };
}

describe('StrategyRunner: state written back unchanged', () => {
  it('commits only what changed, without a transaction once one key changes; the stored state is the same', async () => {
    const clock = new ManualClock(1_700_000_000_000);
    const store = closeAfterTest(openStore({ dataDir: tempDir(), clock, logger: silentLogger() }));
    const h = harness(store);
    // The first tick: what the store holds is not known yet, every key counts.
    await h.runner.tick();
    expect(h.transactions).toEqual([1]);
    await h.runner.tick();
    await h.runner.tick();
    expect(h.transactions).toEqual([1]);
    const state = store.strategyState('t');
    expect(state.entries()).toEqual({ tick: 3, same: { a: [1, 'x'] } });
    // A failed transaction may have rolled a write back: nothing is known again, every key counts.
    expect(() =>
      store.tx(() => {
        state.set('same', 'changed');
        throw new Error('boom');
      }),
    ).toThrow('boom');
    await h.runner.tick();
    expect(h.transactions).toEqual([1, 4]);
    expect(store.strategyState('t').entries()).toEqual({ tick: 4, same: { a: [1, 'x'] } });
  });
});

describe('BufferedState.keysChanged', () => {
  it('counts every write over a backend that cannot tell what it holds, and commits them all', () => {
    const backend = new MemoryState();
    backend.set('k', 1);
    const s = new BufferedState(backend);
    s.set('k', 1);
    s.delete('gone');
    expect(s.keysChanged).toBe(2);
    s.commit();
    expect(backend.get('k')).toBe(1);
  });

  it('counts a write as a change unless the backend holds exactly that JSON (null: absent)', () => {
    const held = new Map<string, string | null>([['k', '{"a":1}'], ['gone', null]]);
    const writes: string[] = [];
    const backend: StateBackend = {
      get: () => undefined,
      set: (k) => void writes.push(`set ${k}`),
      delete: (k) => void writes.push(`delete ${k}`),
      holds: (k, json) => held.get(k) === json,
    };
    const s = new BufferedState(backend);
    s.set('k', { a: 1 });
    s.delete('gone');
    expect(s.keysChanged).toBe(0);
    s.set('k', { a: 2 });
    s.delete('k2');
    s.set('gone', 0);
    expect(s.keysChanged).toBe(3);
    s.commit();
    expect(writes).toEqual(['set k', 'set gone', 'delete k2']);
  });
});
