/**
 * The reconciler keeps the history checkpoint it committed instead of reading it back
 * (src/engine/reconciler.ts): every scan still starts `overlapMs` before the stored checkpoint,
 * full passes and skipped ones alike; a new reconciler on the same store starts from the stored
 * one, and the old one's kept value can only be older (a wider scan, no deal lost); a checkpoint
 * written inside an outer transaction that rolled back is not kept. With the in-process change
 * mark a pass, skipped or full, holds its checkpoint until a flush (the backtest's batch commit):
 * each pass here is followed by one.
 */
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { dec } from '../../../src/core/decimal.js';
import { inProcessApi } from '../../../src/backtest/in-process-api.js';
import { inProcessGateway } from '../../../src/backtest/in-process-venue.js';
import { HISTORY_CHECKPOINT, Reconciler, type ReconcileReport } from '../../../src/engine/reconciler.js';
import { defaultMarkets } from '../../../src/simulator/options.js';
import { Venue } from '../../../src/simulator/venue.js';
import { buildEngine } from '../../support/engine-harness.js';
import { tempDir } from '../../support/temp-dir.js';
import { closeAfterTest } from '../../support/test-scope.js';

const OVERLAP = 120_000;

function rig() {
  const clock = new ManualClock(1_700_000_040_000);
  const venue = new Venue(clock, 7, defaultMarkets().map((m) => ({ ...m, volatility: '0' })), 60_000);
  const account = venue.addAccount({ apiKey: 'k', apiSecret: 's', balances: { USDT: '1000000', BTC: '10' } });
  const gateway = inProcessGateway(inProcessApi(venue, account), account, { catchUp: () => venue.catchUp() });
  const e = buildEngine(tempDir(), gateway, clock, { reconcile: { overlapMs: OVERLAP } });
  closeAfterTest(e.store);
  const trade = (id: string) =>
    venue.place(account, { market: 'BTC_USDT', side: 'buy', amount: dec('0.001'), price: dec('60100'), postOnly: false, ioc: false, rpi: false, clientOrderId: id, kind: 'spot' });
  const stored = () => Number(e.store.checkpoints.get(HISTORY_CHECKPOINT)?.value);
  /** A pass, checked against the checkpoint stored before and after it (held ones flushed). */
  const pass = async (r: Reconciler = e.reconciler): Promise<ReconcileReport> => {
    const before = stored();
    const report = await r.reconcileOnce();
    expect(report.scan.fromMs).toBe(before - OVERLAP);
    r.flushCheckpoints();
    expect(stored()).toBe(report.scan.toMs);
    return report;
  };
  return { clock, account, e, trade, stored, pass };
}

describe('reconciler history checkpoint', () => {
  it('starts every scan, full or skipped, the overlap before the stored checkpoint', async () => {
    const { clock, account, e, trade, stored, pass } = rig();
    expect((await e.reconciler.reconcileOnce()).scan.fromMs).toBeNull();
    e.reconciler.flushCheckpoints();
    const kinds: boolean[] = [];
    for (let i = 0; i < 8; i++) {
      if (i % 3 === 0) trade(`m-${i}`);
      clock.advance(30_000);
      kinds.push((await pass()).scan.pages > 0);
    }
    expect(kinds).toContain(true);
    expect(kinds).toContain(false);
    expect(e.store.fills.all()).toHaveLength(account.deals.length);
    // Another reconciler on the same store starts from what is stored; the first one then scans
    // from its own older checkpoint, a wider range, and stores every deal all the same.
    const other = new Reconciler({ store: e.store, gateway: e.reconciler['deps'].gateway, clock, logger: e.reconciler['deps'].logger, fills: e.fills, resolver: e.resolver }, { overlapMs: OVERLAP });
    clock.advance(30_000);
    await pass(other);
    const before = stored();
    trade('m-late');
    clock.advance(30_000);
    const wide = await e.reconciler.reconcileOnce();
    expect(wide.scan.fromMs).toBeLessThan(before - OVERLAP);
    expect(wide.scan.newFills).toBe(1);
    expect(e.store.fills.all()).toHaveLength(account.deals.length);
  });

  it('does not keep a checkpoint whose transaction rolled back', async () => {
    const { clock, account, e, trade, stored, pass } = rig();
    trade('m-1');
    clock.advance(30_000);
    await e.reconciler.reconcileOnce();
    e.reconciler.flushCheckpoints();
    clock.advance(30_000);
    await pass();
    const kept = stored();
    clock.advance(30_000);
    // A skipped pass runs to its end at once: here inside a transaction that then fails.
    let inner: Promise<ReconcileReport> | undefined;
    expect(() =>
      e.store.tx(() => {
        inner = e.reconciler.reconcileOnce();
        throw new Error('rolled back');
      }),
    ).toThrow('rolled back');
    expect((await inner)?.scan.pages).toBe(0);
    expect(stored()).toBe(kept);
    trade('m-2');
    clock.advance(30_000);
    expect((await pass()).scan.newFills).toBe(1);
    expect(e.store.fills.all()).toHaveLength(account.deals.length);
  });
});
