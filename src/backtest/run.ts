/**
 * The backtest run loop. Time is a virtual clock that jumps from event to event: the next price
 * step (the simulator moves its CSV-driven markets and matches resting orders) or the next cron
 * fire of a job (the daemon's schedules, computed by node-cron: cron-times.ts). At each instant
 * the due jobs run one after another, each until the engine is idle again, in registration order
 * (reconcile, flex, credit, equity, strategies), so the same inputs always give the same order of
 * requests, the same venue state and byte-identical output.
 *
 * Waits on the virtual clock (a rate-limit pool out of budget) take no real time: the clock jumps
 * to the pool's refill (settle.ts).
 */
import type { BotConfig } from '../config/index.js';
import type { RateLimitOverrides } from '../exchange/rate-limits/pools.js';
import type { Logger } from '../observability/logger.js';
import type { LoadedStrategy } from '../strategy-api/host.js';
import { laneOf } from '../daemon/runners.js';
import type { ClosedCandle } from '../engine/candle-windows.js';
import { CandleBatches } from './candle-batch.js';
import { BacktestCandleFeed } from './candle-input.js';
import { CronTimes } from './cron-times.js';
import { backtestConfig, startUp, wireEngine, type StrategiesIn, type Wired } from './engine-wiring.js';
import { accountEquity } from './equity.js';
import type { FillModel } from './fill-model.js';
import type { PriceSet } from './load-prices.js';
import { startBacktestVenue, type BacktestVenue, type VenueKind } from './sim-venue.js';
import { Samples } from './samples.js';
import { settler, type Settle } from './settle.js';
import type { RunSpan } from './span.js';
import type { RunWatch } from './run-watch.js';
import { VirtualClock } from './virtual-clock.js';

export { settler, type Settle } from './settle.js';

export interface RunInputs {
  config: BotConfig;
  strategies: LoadedStrategy[];
  prices: PriceSet;
  span: RunSpan;
  model: FillModel;
  logger: Logger;
  onProgress?: (p: Progress) => void;
  /** Client rate-limit pools other than the venue's defaults (tests of waiting on them). */
  pools?: RateLimitOverrides['pools'];
  /** `--job-resolution` (default `step`): see JobResolution. */
  jobResolution?: JobResolution;
  /** `--venue` (default in process): how the engine reaches the simulator. */
  venue?: VenueKind;
  /** `--strategies`: where the hooks run (absent: `worker`, as the daemon; the CLI's default is `thread`). */
  strategiesIn?: StrategiesIn;
  /** The heartbeat a supervisor outside the run's thread watches (run-watch.ts); absent: none. */
  watch?: RunWatch;
}

/**
 * `cron`: every job fires at every fire time of its schedule, as in the daemon. `step`: a job
 * fires at most once per price step: after a fire, its next is its first fire time at or after
 * the next price step, so fires between two steps (where no price moves) coalesce into one.
 * Jobs whose schedule is sparser than the step fire as under `cron` (docs/backtesting.md).
 */
export type JobResolution = 'cron' | 'step';

export interface Progress {
  nowMs: number;
  fromMs: number;
  toMs: number;
  /** One candle (price step), ms. */
  stepMs: number;
  orders: number;
  fills: number;
}

export interface RunState {
  wired: Wired;
  venue: BacktestVenue;
  samples: Samples;
  /** Times the clock jumped to a timer because the engine waited on it (rate limits, back-offs). */
  timerJumps: number;
  /** Scheduled job fires the run loop triggered (start-up steps not counted). */
  jobsRun: number;
  /** Jobs whose schedule fires more often than the price steps (coalesced to one fire per step under `step`). */
  finerJobs: string[];
  /** Ticks of strategies on a candle schedule: one per closed candle of their timeframe. */
  candleTicks: number;
}

interface Job {
  name: string;
  cron: CronTimes;
  next: number;
}

/** The earliest of the next price step and the jobs' next fires. */
function nextEvent(nextStep: number, jobs: readonly Job[]): number {
  let t = nextStep;
  for (const j of jobs) if (j.next < t) t = j.next;
  return t;
}

/** The cron-scheduled jobs (a candle schedule has no cron: the candle feed fires it, candleTicks below). */
function jobsOf(w: Wired, fromMs: number): Job[] {
  return w.scheduler.jobNames.flatMap((name) => {
    const expr = w.scheduler.cronOf(name);
    if (expr === undefined) return [];
    const cron = new CronTimes(expr);
    return [{ name, cron, next: cron.next(fromMs) }];
  });
}

/**
 * The input's minutes that ended by `t` go to the candle windows; each candle closed ticks the
 * strategies that follow it. Nothing to wait for (most steps close no candle of a followed
 * timeframe, a run without candle schedules none): undefined, no promise and no await per step.
 */
function candleTicks(state: RunState, feed: BacktestCandleFeed, settle: Settle, t: number): Promise<void> | undefined {
  const closed = feed.advanceTo(t);
  if (closed.length === 0) return undefined;
  return tickClosed(state, settle, closed);
}

async function tickClosed(state: RunState, settle: Settle, closed: readonly ClosedCandle[]): Promise<void> {
  const { engine, scheduler } = state.wired;
  for (const id of engine.candles.due(closed)) {
    await settle.drive(scheduler.trigger(laneOf(id)));
    state.jobsRun++;
    state.candleTicks++;
  }
}

/**
 * Whether the scheduler's global bound (`jobs.maxConcurrentJobs`) can never hold work back in a
 * run: the loop (and start-up) fires one job at a time and waits until it and everything it
 * queued is done, so besides that one job only the strategies' lanes (their fill and order hooks)
 * can be busy. With at most the bound of lanes busy, each starts at once with or without it.
 */
export function globalBoundIdle(maxConcurrentJobs: number, strategies: number): boolean {
  return 1 + strategies <= maxConcurrentJobs;
}

/** The jobs with two fires closer together than one price step (their first two after the start). */
function finerThan(jobs: readonly Job[], stepMs: number): string[] {
  return jobs.filter((j) => j.cron.next(j.next) - j.next < stepMs).map((j) => j.name);
}

function sample(state: RunState, t: number): void {
  const { venue, samples } = state;
  venue.venue.catchUp();
  samples.push(t, accountEquity(venue.venue, venue.account, state.wired.b.config.risk.equityAsset), (m) => venue.venue.requireMarket(m).price);
}

async function loop(state: RunState, inputs: RunInputs, clock: VirtualClock, settle: Settle, jobs: Job[], feed: BacktestCandleFeed): Promise<void> {
  const { fromMs, toMs, stepMs } = inputs.span;
  const perStep = inputs.jobResolution === 'step';
  state.finerJobs = finerThan(jobs, stepMs);
  const report = progressReporter(state, inputs);
  sample(state, fromMs);
  const batches = new CandleBatches(state.wired.batch);
  let nextStep = fromMs + stepMs;
  const beat = beatOf(inputs.watch);
  for (;;) {
    beat();
    // A job that waited on a rate-limit pool may have moved the clock past due events: they run
    // now, and missed cron fires of one job coalesce into one (as a busy lane skips ticks).
    const t = Math.max(clock.now(), nextEvent(nextStep, jobs));
    if (t > toMs) break;
    batches.begin();
    clock.advanceTo(t);
    if (nextStep <= t) {
      sample(state, t);
      while (nextStep <= t) nextStep += stepMs;
      report(t);
    }
    for (const job of jobs) {
      if (job.next > t) continue;
      await settle.drive(state.wired.scheduler.trigger(job.name));
      state.jobsRun++;
      // `step`: the first fire at or after the next price step (cron.next is strictly after).
      job.next = job.cron.next(Math.max(t, clock.now(), perStep ? nextStep - 1 : t));
    }
    const ticks = candleTicks(state, feed, settle, t);
    if (ticks !== undefined) await ticks;
    batches.stepDone();
    const turn = settle.breathe();
    if (turn !== undefined) await turn;
  }
  batches.end();
  await Promise.all(jobs.map((j) => j.cron.dispose()));
}

/** The run loop's beat of `watch` (run-watch.ts), nothing without one. */
function beatOf(watch: RunWatch | undefined): () => void {
  return watch === undefined ? () => undefined : () => watch.step();
}

function progressReporter(state: RunState, inputs: RunInputs): (t: number) => void {
  let lastReport = Number.NEGATIVE_INFINITY;
  const every = Math.max(inputs.span.stepMs, (inputs.span.toMs - inputs.span.fromMs) / 200);
  return (t) => {
    if (inputs.onProgress === undefined || t - lastReport < every) return;
    lastReport = t;
    const { store } = state.wired;
    const orders = Object.values(store.orders.countByState()).reduce((a, b) => a + b, 0);
    inputs.onProgress({ nowMs: t, fromMs: inputs.span.fromMs, toMs: inputs.span.toMs, stepMs: inputs.span.stepMs, orders, fills: store.fills.count() });
  };
}

/**
 * Runs the backtest; `collect` reads what it needs while the engine and venue are still open
 * (after a last reconciliation at the end time, so every fill the venue made is in the store).
 */
export async function runBacktest<T>(inputs: RunInputs, collect: (state: RunState) => T): Promise<T> {
  const { span } = inputs;
  const { config, dispose } = backtestConfig(inputs.config);
  const clock = new VirtualClock(span.fromMs);
  const holder: { wired?: Wired; timerJumps: number } = { timerJumps: 0 };
  // One reading of each price file for the venue's markets and the candle feed (shared-rows.ts).
  const shared = [...inputs.prices.series].map(([m, s]) => [m, s.sharedCopy()] as const);
  const series = new Map(shared.map(([m, c]) => [m, c.series]));
  const venue = await startBacktestVenue(inputs.venue ?? 'in-process', { config, clock, series, model: inputs.model, stepMs: span.stepMs });
  const settle = settler(clock, venue, holder);
  let wired: Wired | undefined;
  let feed: BacktestCandleFeed | undefined;
  try {
    const strategiesIn = inputs.strategiesIn ?? 'worker';
    const { logger, strategies, pools, watch } = inputs;
    wired = wireEngine({ config, clock, logger, strategies, venue, pools, strategiesIn, ...(watch === undefined ? {} : { watch }) });
    holder.wired = wired;
    // The run reads no job's last run or metrics: only failures are recorded (and logged) as in the daemon.
    wired.scheduler.recordFailuresOnly();
    if (globalBoundIdle(config.jobs.maxConcurrentJobs, inputs.strategies.length)) wired.scheduler.withoutGlobalBound();
    const markets = Object.keys(config.markets).sort();
    const samples = new Samples(markets);
    const state: RunState = { wired, venue, samples, timerJumps: 0, jobsRun: 0, finerJobs: [], candleTicks: 0 };
    // The declared windows hold the input's candles up to the start (the warm-up: candle-input.ts).
    feed = new BacktestCandleFeed(wired.engine.candles, series);
    feed.advanceTo(span.fromMs);
    for (const [, c] of shared) c.rows.seal();
    let jobs: Job[] = [];
    await startUp(wired, inputs.strategies, settle, () => (jobs = jobsOf(state.wired, span.fromMs)));
    watch?.arm();
    await loop(state, inputs, clock, settle, jobs, feed);
    watch?.disarm();
    await settle.drive(wired.reconcile.run());
    state.timerJumps = holder.timerJumps;
    return collect(state);
  } finally {
    feed?.close();
    await wired?.stop().catch((err: unknown) => inputs.logger.warn({ err }, 'backtest: stop failed'));
    await venue.close();
    dispose();
  }
}
