import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { Decimal } from '../../../src/core/decimal.js';
import type { ExecutedHistoryQuery, Fill } from '../../../src/exchange/gateway.js';
import { scanHistory } from '../../../src/engine/kernels/history-scan.js';
import { HISTORY_CHECKPOINT } from '../../../src/engine/reconciler.js';
import { buildEngine, tempDir } from '../../support/engine-harness.js';
import { FakeGateway } from '../../support/fake-gateway.js';

/** A venue history where new deals (with times up to `latenessSec` in the past) arrive between page requests. */
class ArrivingHistory extends FakeGateway {
  all: Fill[] = [];
  private id = 1;
  arrivals: number[] = [];
  private call = 0;
  constructor(
    private readonly clock: ManualClock,
    private readonly latenessSec: number,
  ) {
    super();
  }
  add(n: number, backSec: number): void {
    for (let i = 0; i < n; i++) {
      const t = this.clock.now() - backSec * 1000 - i;
      const f: Fill = { dealId: this.id++, orderId: 9, clientOrderId: '', market: 'BTC_USDT', side: 'buy', role: 'taker', timeMs: t, amount: new Decimal('0.001'), price: new Decimal(this.id), quote: new Decimal('0.001').mul(this.id), fee: new Decimal(0), feeAsset: 'USDT' };
      this.all.push(f);
    }
    this.all.sort((a, b) => b.timeMs - a.timeMs || b.dealId - a.dealId);
  }
  resetCalls(): void {
    this.call = 0;
  }
  override async executedHistory(q: ExecutedHistoryQuery = {}): Promise<Fill[]> {
    const list = this.all.filter((d) => (q.startDate === undefined || d.timeMs >= q.startDate * 1000) && (q.endDate === undefined || d.timeMs < (q.endDate + 1) * 1000));
    const page = list.slice(q.offset ?? 0, (q.offset ?? 0) + (q.limit ?? 50));
    // Each scripted arrival happens once (after the page it follows), so a scan always ends.
    const n = this.arrivals[this.call++] ?? 0;
    this.add(n, Math.min(this.latenessSec, n % (this.latenessSec + 1)));
    return page;
  }
}

const cleanups: (() => void)[] = [];
afterEach(() => {
  while (cleanups.length > 0) cleanups.pop()?.();
});

describe('executed-history pagination', () => {
  it('property: a single scan with arrivals between pages returns every pre-existing deal once', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 100 }), fc.integer({ min: 0, max: 400 }), fc.array(fc.integer({ min: 0, max: 30 }), { maxLength: 10 }), async (pageSize, initial, arrivals) => {
        const clock = new ManualClock(1_700_000_000_000);
        const h = new ArrivingHistory(clock, 100);
        h.add(initial, 0);
        clock.advance(1000);
        const before = new Set(h.all.map((d) => d.dealId));
        h.arrivals = arrivals;
        const r = await scanHistory((q) => h.executedHistory(q), { endDate: Math.floor(clock.now() / 1000), pageSize });
        const ids = r.deals.map((d) => d.dealId);
        expect(new Set(ids).size).toBe(ids.length);
        for (const id of before) expect(ids).toContain(id);
      }),
      { numRuns: 60 },
    );
  });

  it('property: repeated reconciler scans with late arrivals (within the overlap) end with the store equal to the venue, nothing twice', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 100 }),
        fc.array(fc.array(fc.integer({ min: 0, max: 25 }), { maxLength: 6 }), { minLength: 1, maxLength: 5 }),
        fc.integer({ min: 1, max: 400 }),
        async (pageSize, rounds, applyChunk) => {
          const t = tempDir();
          cleanups.push(t.cleanup);
          const clock = new ManualClock(1_700_000_000_000);
          const h = new ArrivingHistory(clock, 60);
          const e = buildEngine(t.dir, h, clock, { reconcile: { pageSize, overlapMs: 120_000, applyChunk } });
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
    const t = tempDir();
    cleanups.push(t.cleanup);
    const clock = new ManualClock(1_700_000_000_000);
    const h = new ArrivingHistory(clock, 0);
    h.add(250, 0);
    clock.advance(5000);
    const e = buildEngine(t.dir, h, clock, { reconcile: { pageSize: 100 } });
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
