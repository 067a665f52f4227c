import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { Decimal } from '../../../src/core/decimal.js';
import { HISTORY_CHECKPOINT } from '../../../src/engine/reconciler.js';
import { ArrivingHistory } from '../../support/arriving-history.js';
import { buildEngine } from '../../support/engine-harness.js';
import { tempDir } from '../../support/temp-dir.js';


describe('reconciler history scan', () => {
  it('property: repeated reconciler scans with late arrivals (within the overlap) end with the store equal to the venue, nothing twice', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 100 }),
        fc.array(fc.array(fc.integer({ min: 0, max: 25 }), { maxLength: 6 }), { minLength: 1, maxLength: 5 }),
        fc.integer({ min: 1, max: 400 }),
        async (pageSize, rounds, applyChunk) => {
          const dir = tempDir();
          const clock = new ManualClock(1_700_000_000_000);
          const h = new ArrivingHistory(clock, 60);
          h.historyPageSize = pageSize;
          const e = buildEngine(dir, h, clock, { reconcile: { overlapMs: 120_000, applyChunk } });
          try {
            h.add(150, 0);
            for (const arrivals of rounds) {
              clock.advance(7_000);
              h.arrivals = arrivals;
              h.resetCalls();
              await e.reconciler.scanOnce();
            }
            h.arrivals = [];
            clock.advance(7_000);
            await e.reconciler.scanOnce();
            const stored = e.store.fills.all();
            expect(stored.length).toBe(h.all.length);
            expect(new Set(stored.map((f) => f.dealId))).toEqual(new Set(h.all.map((f) => f.dealId)));
            const sum = (xs: { quote: Decimal }[]) => xs.reduce((a, f) => a.plus(f.quote), new Decimal(0));
            expect(sum(stored).eq(sum(h.all))).toBe(true);
            expect(e.store.scanStage.count()).toBe(0); // nothing staged between scans
          } finally {
            e.store.close();
          }
        },
      ),
      { numRuns: 25 },
    );
  });

  it('the checkpoint does not move when the scan fails midway', async () => {
    const dir = tempDir();
    const clock = new ManualClock(1_700_000_000_000);
    const h = new ArrivingHistory(clock, 0);
    h.add(250, 0);
    clock.advance(5000);
    const e = buildEngine(dir, h, clock);
    let calls = 0;
    const orig = h.executedHistory.bind(h);
    h.executedHistory = async (q) => {
      if (++calls === 2) throw new Error('network');
      return orig(q);
    };
    await expect(e.reconciler.scanOnce()).rejects.toThrow('network');
    expect(e.store.checkpoints.get(HISTORY_CHECKPOINT)).toBeUndefined();
    expect(e.store.fills.count()).toBe(0);
    expect(e.store.scanStage.count()).toBe(0);
    await e.reconciler.scanOnce();
    expect(e.store.fills.count()).toBe(250);
    expect(e.store.checkpoints.get(HISTORY_CHECKPOINT)?.value).toBe(String(clock.now()));
    e.store.close();
  });
});
