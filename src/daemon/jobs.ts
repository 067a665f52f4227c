/**
 * The scheduled work: reconciliation (with the health state it reports), flex, credit, equity,
 * the balance audit (daemon only), and one lane per strategy instance.
 */
import { errorCode } from '../core/errors.js';
import { CLOCK_SKEW_TOLERANCE_MS } from '../engine/reconciler.js';
import { Scheduler, type JobResult } from '../engine/scheduler.js';
import type { HealthReport } from '../observability/health.js';
import { candleTimeframe, type LoadedStrategy } from '../strategy-api/host.js';
import type { LiveCandleFeed } from './candle-feed.js';
import type { Base, Engine } from './engine.js';
import { laneOf, type Runners } from './runners.js';

export function buildScheduler(b: Base, engine: Engine): Scheduler {
  const { metrics, logger } = b;
  return new Scheduler({
    clock: b.clock,
    maxConcurrent: b.config.jobs.maxConcurrentJobs,
    events: {
      onRun: (job, outcome, _s, endedMs, err) => {
        metrics.jobRun(job, outcome, endedMs);
        if (outcome !== 'failed') return;
        logger.warn({ job, err }, 'job failed');
        engine.engineError(err);
      },
      onSkip: (job) => {
        metrics.jobSkipped(job);
        logger.debug({ job }, 'tick skipped: previous run still going');
      },
    },
  });
}

/** Runs reconciliation passes and keeps what `/healthz` reports about them. */
export class ReconcileJob {
  state: HealthReport['reconcile'] = { ok: false, lastSuccessMs: null, lastError: null };
  private skewWarned = false;
  private rejectedSeen = 0;

  constructor(
    private readonly base: Base,
    private readonly engine: Engine,
    /** How many reply `Date` headers were too absurd to be a clock skew (the client counts them). */
    private readonly skewRejected: () => number,
  ) {}

  readonly run = async (): Promise<void> => {
    const { metrics } = this.base;
    try {
      const report = await this.engine.reconciler.reconcileOnce();
      this.watchSkew();
      this.state = { ok: true, lastSuccessMs: report.finishedMs, lastError: null };
      metrics.setReconcile(true, report.finishedMs);
    } catch (err) {
      this.state = { ...this.state, ok: false, lastError: errorCode(err) };
      metrics.setReconcile(false, null);
      throw err;
    }
  };

  /**
   * A `Date` header days away from local time is a broken proxy or venue clock, not a skew: the
   * client ignores it for the history anchor, and the operator is told once per new run of them.
   */
  private watchAbsurdDates(): void {
    const rejected = this.skewRejected();
    if (rejected <= this.rejectedSeen) return;
    const { store, clock, logger } = this.base;
    store.tx(() => store.alerts.add('absurd_date_header', 'venue', `${rejected - this.rejectedSeen} reply Date headers ignored (more than a day off)`, clock.now()));
    logger.error({ ignored: rejected }, 'ALERT: venue replies carry absurd Date headers; clock skew from them is ignored');
    this.rejectedSeen = rejected;
  }

  /** The history anchor already follows the venue clock; the operator should still know. */
  private watchSkew(): void {
    this.watchAbsurdDates();
    const skew = this.engine.gateway.clockSkewMs?.();
    if (skew === undefined) return;
    this.base.metrics.setClockSkew(skew);
    const off = Math.abs(skew) > CLOCK_SKEW_TOLERANCE_MS;
    if (off && !this.skewWarned) {
      this.base.logger.warn({ clockSkewMs: skew }, 'local clock differs from the venue by more than 2 s: check NTP on this host');
      const { store, clock } = this.base;
      store.tx(() => store.alerts.add('clock_skew', 'venue', `local clock ${Math.abs(skew)} ms ${skew > 0 ? 'behind' : 'ahead of'} the venue`, clock.now()));
    }
    if (!off && this.skewWarned) this.base.logger.info({ clockSkewMs: skew }, 'local clock back within 2 s of the venue');
    this.skewWarned = off;
  }
}

/** First runs of the side jobs before trading starts; a failure there does not stop the start. */
export async function runStartupJobs(b: Base, engine: Engine): Promise<void> {
  const jobs: [string, () => Promise<unknown>][] = [
    ['flex', () => engine.flexJob.runOnce()],
    ['credit', () => engine.creditJob.runOnce()],
    ['equity', () => engine.computeEquity()],
  ];
  for (const [job, run] of jobs) {
    await run().catch((err: unknown) => b.logger.warn({ err, job }, 'start-up job failed; continuing'));
  }
}

/**
 * The balance audit at start-up (the window since the last run's audit, down-time included) and
 * on its schedule. The daemon's alone: a backtest's venue is the bot's own replay, nothing to audit.
 */
export async function runStartupAudit(b: Base, engine: Engine): Promise<void> {
  await engine.audit.runOnce().catch((err: unknown) => b.logger.warn({ err, job: 'audit' }, 'start-up job failed; continuing'));
}

export function registerAudit(b: Base, engine: Engine, scheduler: Scheduler): void {
  scheduler.add({ name: 'audit', cron: b.config.jobs.balanceAuditCron, run: async () => void (await engine.audit.runOnce()) });
}

/**
 * The price poll that feeds the candles (docs/market-data.md): the daemon's alone, a backtest
 * records the prices its strategies read and nothing more.
 */
export function registerPricePoll(b: Base, engine: Engine, scheduler: Scheduler, feed?: LiveCandleFeed): void {
  const run = async (): Promise<void> => {
    await engine.pollPrices();
    // The strategies' candle windows take the minutes this poll closed; a closed candle ticks the
    // instances on its candle schedule, each on its own lane (a busy lane skips, as a cron tick).
    for (const id of feed?.update() ?? []) void scheduler.trigger(laneOf(id));
  };
  scheduler.add({ name: 'prices', cron: `*/${b.config.marketData.pollSeconds} * * * * *`, run });
}

/** A tick a pause held back: one settled answer shared by every such tick. */
const PAUSED: Promise<JobResult> = Promise.resolve('paused');

export function registerJobs(
  b: Base,
  engine: Engine,
  scheduler: Scheduler,
  reconcile: ReconcileJob,
  runners: Runners,
  strategies: readonly LoadedStrategy[],
  /** Whether a strategy's scheduled tick may run now (an operator's pause holds it back). */
  admitTick: (strategyId: string) => boolean = () => true,
): void {
  const { jobs } = b.config;
  scheduler.add({ name: 'reconcile', cron: jobs.reconcileCron, run: reconcile.run });
  scheduler.add({ name: 'flex', cron: jobs.flexPullCron, run: async () => void (await engine.flexJob.runOnce()) });
  scheduler.add({ name: 'credit', cron: jobs.creditCheckCron, run: async () => void (await engine.creditJob.runOnce()) });
  scheduler.add({ name: 'equity', cron: jobs.equityCheckCron, run: () => engine.computeEquity() });
  for (const s of strategies) {
    const runner = runners.get(s.id);
    if (runner === undefined) continue;
    // The tick's own promise, not one more around it (an `async` wrapper adopting it costs a fire
    // two continuations); a throw still reaches the scheduler's catch as a failed run.
    const run = (): Promise<JobResult> => (admitTick(s.id) ? runner.tick() : PAUSED);
    // A candle schedule has no cron: the candle feed triggers it as candles close.
    scheduler.add(candleTimeframe(s.schedule) === null ? { name: laneOf(s.id), cron: s.schedule, run } : { name: laneOf(s.id), run });
  }
}
