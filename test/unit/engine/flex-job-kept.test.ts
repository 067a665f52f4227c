/**
 * A flex pull in a throwaway store (flex-job.ts `recordEveryRun: false`) over the in-process
 * gateway that keeps its answers: a run handed the pages of the last run that wrote writes
 * nothing, and the ledger and checkpoint it leaves are, run after run, those of a job that writes
 * every pull over a gateway that asks every time; a new record (a daily earning, a close) is
 * always written.
 */
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { inProcessApi } from '../../../src/backtest/in-process-api.js';
import { inProcessGateway } from '../../../src/backtest/in-process-venue.js';
import { FLEX_CHECKPOINT, FlexJob } from '../../../src/engine/flex-job.js';
import { silentLogger } from '../../../src/observability/logger.js';
import { defaultMarkets } from '../../../src/simulator/options.js';
import { Venue } from '../../../src/simulator/venue.js';
import type { Store } from '../../../src/store/index.js';
import { memoryStore } from '../../support/test-scope.js';

const T0 = Date.UTC(2024, 0, 1, 20);
const PLAN = '11111111-2222-4333-8444-555555555555';

function ledger(store: Store): unknown {
  return { rows: store.flex.all().map((r) => ({ ...r, amount: r.amount.toFixed() })), checkpoint: store.checkpoints.get(FLEX_CHECKPOINT)?.value };
}

describe('a flex pull in a throwaway store', () => {
  it('writes nothing when handed the last pages, and leaves the ledger and checkpoint of a job that writes every pull', async () => {
    const clock = new ManualClock(T0);
    const venue = new Venue(clock, 5, defaultMarkets(), 60_000);
    const account = venue.addAccount({ apiKey: 'k', apiSecret: 's', balances: { USDT: '100' }, flex: [{ currency: 'USDT', amount: '5000', dailyRate: '0.001', planId: PLAN }] });
    const api = inProcessApi(venue, account);
    const catchUp = (): void => venue.catchUp();
    const jobOf = (store: Store, keep: boolean): FlexJob =>
      new FlexJob({ store, gateway: inProcessGateway(api, account, { catchUp, keepReads: keep, flexPageSize: 2 }), clock, logger: silentLogger() }, { recordEveryRun: !keep });
    const [fullStore, keptStore] = [memoryStore({ clock }), memoryStore({ clock })];
    const [full, kept] = [jobOf(fullStore, false), jobOf(keptStore, true)];
    let skipped = 0;
    let written = 0;
    for (let step = 0; step < 40; step++) {
      clock.advance(step % 7 === 0 ? 5 * 3_600_000 : 600_000);
      if (step === 30) await inProcessGateway(api, account).closeFlex(PLAN);
      const stamped = keptStore.checkpoints.get(FLEX_CHECKPOINT)?.updatedMs;
      const [a, b] = [await full.runOnce(), await kept.runOnce()];
      expect(b, `step ${step}`).toEqual(a);
      expect(ledger(keptStore), `step ${step}`).toEqual(ledger(fullStore));
      const moved = keptStore.checkpoints.get(FLEX_CHECKPOINT)?.updatedMs !== stamped;
      if (a.newRecords > 0) expect(moved, `step ${step}: new records are written`).toBe(true);
      if (moved) written++;
      else skipped++;
    }
    expect(fullStore.flex.all().map((r) => r.actionType)).toContain('CLOSE_INVESTMENT');
    expect(fullStore.flex.all().filter((r) => r.actionType === 'DAILY_EARNING').length).toBeGreaterThan(1);
    expect(skipped).toBeGreaterThan(20);
    expect(written).toBeGreaterThan(2);
  });
});
