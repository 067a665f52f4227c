/**
 * The run loop's batches (src/backtest/candle-batch.ts) on a real scratch store: a commit every
 * `every` steps, the rest at the end, and what each step wrote is in the store once committed.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { CandleBatches } from '../../../src/backtest/candle-batch.js';
import { ManualClock } from '../../../src/core/clock.js';
import { silentLogger } from '../../../src/observability/logger.js';
import { openScratchStore, type ScratchStore } from '../../../src/store/index.js';

const stores: ScratchStore[] = [];
afterEach(() => {
  for (const s of stores.splice(0)) s.close();
});

describe('candle batches', () => {
  it('commit every `every` steps and the rest at the end', () => {
    const store = openScratchStore({ clock: new ManualClock(0), logger: silentLogger() });
    stores.push(store);
    const batches = new CandleBatches(store.batch, 3);
    const openAfter: boolean[] = [];
    for (let step = 1; step <= 7; step++) {
      batches.begin();
      store.tx(() => store.meta.set(`step${step}`, String(step)));
      batches.stepDone();
      openAfter.push(store.batch.open);
    }
    expect(openAfter).toEqual([true, true, false, true, true, false, true]);
    batches.end();
    expect(store.batch.open).toBe(false);
    expect(Array.from({ length: 7 }, (_, i) => store.meta.get(`step${i + 1}`))).toEqual(['1', '2', '3', '4', '5', '6', '7']);
  });
});
