/**
 * The backtest run loop. Time is a virtual clock that jumps from event to event: the next price
 * step (the simulator moves its CSV-driven markets and matches resting orders) or the next cron
 * fire of a job (the daemon's schedules, computed by node-cron: cron-times.ts). At each instant
 * the due jobs run one after another, each until the engine is idle again, in registration order
 * (reconcile, flex, credit, equity, strategies), so the same inputs always give the same order of
 * requests, the same venue state and byte-identical output.
 *
 * Waits on the virtual clock (a rate-limit pool out of budget) take no real time: the clock jumps
 * to the pool's refill (settler below).
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { BotConfig } from '../config/index.js';
import type { Decimal } from '../core/decimal.js';
import type { Logger } from '../observability/logger.js';
import type { LoadedStrategy } from '../strategy-api/host.js';
import { CronTimes } from './cron-times.js';
import { backtestConfig, startUp, wireEngine, type Wired } from './engine-wiring.js';
import { accountEquity } from './equity.js';
import type { FillModel } from './fill-model.js';
import type { PriceSet } from './load-prices.js';
import { startBacktestVenue, type BacktestVenue } from './sim-venue.js';
import type { RunSpan } from './span.js';
import { VirtualClock } from './virtual-clock.js';

export interface RunInputs {
  config: BotConfig;
  strategies: LoadedStrategy[];
  prices: PriceSet;
  span: RunSpan;
  model: FillModel;
  logger: Logger;
  onProgress?: (p: Progress) => void;
}

export interface Progress {
  nowMs: number;
  fromMs: number;
  toMs: number;
  orders: number;
  fills: number;
}

/** Everything sampled at each price step, at full resolution. */
export interface Samples {
  timesMs: number[];
  equity: Decimal[];
  /** Per configured market, one price per step. */
  prices: Map<string, Decimal[]>;
}

export interface RunState {
  wired: Wired;
  venue: BacktestVenue;
  samples: Samples;
  /** Times the clock jumped to a timer because the engine waited on it (rate limits, back-offs). */
  timerJumps: number;
}

/**
 * Real time the engine may stay busy with nothing moving before the clock jumps anyway (a retry
 * back-off sleeping on the virtual clock; none happens without venue faults). Generous, so a slow
 * worker thread or request on a loaded machine is never taken for a wait.
 */
const WATCHDOG_MS = 10_000;

/** True when a rate-limit pool has calls queued and no budget left: they wait for the refill. */
function waitingOnLimits(w: Wired | undefined): boolean {
  if (w === undefined) return false;
  return Object.values(w.client.rateLimitStatus()).some((p) => p.queued > 0 && (p.used >= p.limit || p.paused));
}

/**
 * Waits until the engine is idle. Work waiting on the virtual clock cannot finish by itself: when
 * a rate-limit pool is out of budget the clock jumps to its next timer (the pool's refill) at once.
 */
function settler(clock: VirtualClock, state: { wired?: Wired; timerJumps: number }): () => Promise<void> {
  return async () => {
    let since = performance.now();
    for (;;) {
      if ((state.wired?.scheduler.inFlight ?? 0) === 0) {
        // One more turn lets work queued by the last job (a fill's onFill) reach its lane.
        await nextTurn();
        if ((state.wired?.scheduler.inFlight ?? 0) === 0) return;
      }
      await nextTurn();
      const due = clock.nextDue();
      if (due === undefined) continue;
      if (waitingOnLimits(state.wired) || performance.now() - since > WATCHDOG_MS) {
        clock.advanceTo(due);
        state.timerJumps++;
        since = performance.now();
      }
    }
  };
}

interface Job {
  name: string;
  cron: CronTimes;
  next: number;
}

function jobsOf(w: Wired, fromMs: number): Job[] {
  return w.scheduler.jobNames.map((name) => {
    const cron = new CronTimes(w.scheduler.cronOf(name) as string);
    return { name, cron, next: cron.next(fromMs) };
  });
}

function sample(state: RunState, markets: string[], t: number): void {
  const { venue, samples } = state;
  venue.venue.catchUp();
  samples.timesMs.push(t);
  samples.equity.push(accountEquity(venue.venue, venue.account, state.wired.b.config.risk.equityAsset));
  for (const m of markets) samples.prices.get(m)?.push(venue.venue.requireMarket(m).price);
}

async function loop(state: RunState, inputs: RunInputs, clock: VirtualClock, settle: () => Promise<void>): Promise<void> {
  const { fromMs, toMs, stepMs } = inputs.span;
  const markets = [...state.samples.prices.keys()];
  const jobs = jobsOf(state.wired, fromMs);
  const report = progressReporter(state, inputs);
  sample(state, markets, fromMs);
  let nextStep = fromMs + stepMs;
  for (;;) {
    const t = Math.min(nextStep, ...jobs.map((j) => j.next));
    if (t > toMs) break;
    clock.advanceTo(t);
    if (t === nextStep) {
      sample(state, markets, t);
      nextStep += stepMs;
      report(t);
    }
    for (const job of jobs) {
      if (job.next !== t) continue;
      await state.wired.scheduler.trigger(job.name);
      await settle();
      job.next = job.cron.next(t);
    }
  }
  await Promise.all(jobs.map((j) => j.cron.dispose()));
}

function progressReporter(state: RunState, inputs: RunInputs): (t: number) => void {
  let lastReport = Number.NEGATIVE_INFINITY;
  const every = Math.max(inputs.span.stepMs, (inputs.span.toMs - inputs.span.fromMs) / 200);
  return (t) => {
    if (inputs.onProgress === undefined || t - lastReport < every) return;
    lastReport = t;
    const { store } = state.wired;
    const orders = Object.values(store.orders.countByState()).reduce((a, b) => a + b, 0);
    inputs.onProgress({ nowMs: t, fromMs: inputs.span.fromMs, toMs: inputs.span.toMs, orders, fills: store.fills.count() });
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
  const settle = settler(clock, holder);
  const venue = await startBacktestVenue({ config, clock, series: inputs.prices.series, model: inputs.model, stepMs: span.stepMs });
  let wired: Wired | undefined;
  try {
    wired = wireEngine(config, clock, inputs.logger, inputs.strategies, venue);
    holder.wired = wired;
    const markets = Object.keys(config.markets).sort();
    const state: RunState = { wired, venue, samples: { timesMs: [], equity: [], prices: new Map(markets.map((m) => [m, []])) }, timerJumps: 0 };
    await startUp(wired, inputs.strategies, settle);
    await loop(state, inputs, clock, settle);
    await wired.reconcile.run();
    await settle();
    state.timerJumps = holder.timerJumps;
    return collect(state);
  } finally {
    await wired?.stop().catch((err: unknown) => inputs.logger.warn({ err }, 'backtest: stop failed'));
    await venue.close();
    dispose();
  }
}
