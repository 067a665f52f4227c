/**
 * The checkpoints of skipped reconciliation passes are held (src/engine/reconcile-checkpoints.ts)
 * and written before the backtest's store batch commits: what a commit makes durable is what
 * every pass would have written, and a full pass's own write supersedes what is held.
 */
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { flushingBatch, HISTORY_CHECKPOINT, RECONCILED_AT, ReconcileCheckpoints } from '../../../src/engine/reconcile-checkpoints.js';
import { silentLogger } from '../../../src/observability/logger.js';
import { openScratchStore } from '../../../src/store/index.js';
import { closeAfterTest } from '../../support/test-scope.js';

function rig(holdFullPasses = false) {
  const store = closeAfterTest(openScratchStore({ clock: new ManualClock(1_000), logger: silentLogger() }));
  const checkpoints = new ReconcileCheckpoints(store, holdFullPasses);
  const batch = flushingBatch(store.batch, () => checkpoints.flush());
  const row = (name: string) => store.checkpoints.get(name);
  return { store, checkpoints, batch, row };
}

describe('held reconcile checkpoints', () => {
  it('are read as if written, and written before the batch commits', () => {
    const { checkpoints, batch, row } = rig();
    batch.begin();
    checkpoints.skipped(5_000, 5_001);
    checkpoints.skipped(6_000, 6_001);
    expect(row(HISTORY_CHECKPOINT)).toBeUndefined();
    expect(checkpoints.anchor()).toBe('6000');
    expect(checkpoints.completedMs()).toBe(6_001);
    batch.commit();
    expect(batch.open).toBe(false);
    expect(row(HISTORY_CHECKPOINT)).toEqual({ value: '6000', updatedMs: 6_001 });
    expect(row(RECONCILED_AT)).toEqual({ value: '6001', updatedMs: 6_001 });
    expect(checkpoints.holding).toBe(false);
  });

  it('a full pass supersedes what is held; a commit then writes nothing older over it', () => {
    const { store, checkpoints, batch, row } = rig();
    batch.begin();
    checkpoints.skipped(5_000, 5_001);
    checkpoints.fullPass();
    store.tx(() => checkpoints.writeAnchor(7_000, 7_000));
    checkpoints.anchorCommitted(7_000);
    checkpoints.complete(7_002);
    expect(checkpoints.holding).toBe(false);
    batch.commit();
    expect(row(HISTORY_CHECKPOINT)?.value).toBe('7000');
    expect(row(RECONCILED_AT)?.value).toBe('7002');
  });

  it('held full passes (the in-process mark) leave the rows written ones leave at each commit', () => {
    const runs = [false, true].map((hold) => {
      const { store, checkpoints, batch, row } = rig(hold);
      const seen: unknown[] = [];
      batch.begin();
      const full = (toMs: number, atMs: number): void => {
        checkpoints.fullPass();
        store.tx(() => checkpoints.inScan(toMs, () => atMs)?.());
        checkpoints.scanCommitted(toMs, atMs);
        checkpoints.complete(atMs + 1);
        seen.push(checkpoints.anchor(), checkpoints.completedMs());
      };
      full(7_000, 7_000);
      checkpoints.skipped(8_000, 8_001);
      full(9_000, 9_000);
      seen.push(hold ? checkpoints.holding : !checkpoints.holding);
      batch.commit();
      seen.push(row(HISTORY_CHECKPOINT), row(RECONCILED_AT));
      batch.begin();
      full(10_000, 10_000);
      batch.commit();
      seen.push(row(HISTORY_CHECKPOINT), row(RECONCILED_AT), checkpoints.holding);
      return seen;
    });
    expect(runs[1]).toEqual(runs[0]);
    expect(runs[1]).toContainEqual({ value: '10000', updatedMs: 10_000 });
    expect(runs[1]).toContainEqual({ value: '10001', updatedMs: 10_001 });
  });

  it('held full passes write at once inside a transaction', () => {
    const { store, checkpoints, row } = rig(true);
    store.tx(() => {
      expect(checkpoints.inScan(4_000, () => 4_000)).toBeDefined();
      checkpoints.complete(4_001);
    });
    expect(row(RECONCILED_AT)?.value).toBe('4001');
    expect(checkpoints.holding).toBe(false);
    checkpoints.complete(5_001);
    expect(checkpoints.holding).toBe(true);
    expect(row(RECONCILED_AT)?.value).toBe('4001');
  });

  it('inside a transaction nothing is held: the rows roll back with it', () => {
    const { store, checkpoints, row } = rig();
    store.tx(() => checkpoints.skipped(4_000, 4_000));
    expect(row(HISTORY_CHECKPOINT)?.value).toBe('4000');
    expect(() =>
      store.tx(() => {
        checkpoints.skipped(5_000, 5_000);
        throw new Error('rolled back');
      }),
    ).toThrow('rolled back');
    expect(checkpoints.holding).toBe(false);
    expect(row(HISTORY_CHECKPOINT)?.value).toBe('4000');
    expect(checkpoints.anchor()).toBe('4000');
  });
});
