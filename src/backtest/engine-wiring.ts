/**
 * The live engine for a backtest, built from the daemon's own start steps (src/daemon/start.ts):
 * store (in memory), the link to the simulator (in process, or the client over HTTP), engine, scheduler, one worker-thread runner per
 * strategy, the reconcile job, start-up reconciliation, the side jobs, the registered schedules
 * and the strategies' `init`. What differs is only time (the virtual clock) and who fires the
 * schedules (run.ts, at virtual times, instead of node-cron's real-time timers).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import os from 'node:os';
import path from 'node:path';
import type { BotConfig } from '../config/index.js';
import { simulatorHoldRules } from '../daemon/hold-rules.js';
import { buildEngine, type Base, type Engine } from '../daemon/engine.js';
import { buildScheduler, ReconcileJob, registerJobs, runStartupJobs } from '../daemon/jobs.js';
import { buildRunners, laneOf, type ExecutorFactory, type Runners } from '../daemon/runners.js';
import { strategyLoaderPaths } from '../daemon/strategies.js';
import { SandboxThreadExecutor, type HookWatch } from '../engine/sandbox-worker/sandbox-thread-executor.js';
import { logObject, toPlain } from '../engine/sandbox-worker/codec.js';
import { resolveStrategyFile } from '../strategy-api/host.js';
import { stopper } from '../daemon/shutdown.js';
import type { Scheduler } from '../engine/scheduler.js';
import type { RateLimitOverrides } from '../exchange/rate-limits/pools.js';
import type { Logger } from '../observability/logger.js';
import { BotMetrics } from '../observability/metrics.js';
import { flushingBatch } from '../engine/reconcile-checkpoints.js';
import { openScratchStore, type Store, type StoreBatch } from '../store/index.js';
import type { LoadedStrategy } from '../strategy-api/host.js';
import type { Settle } from './run.js';
import type { BacktestVenue, VenueLink } from './sim-venue.js';
import type { VirtualClock } from './virtual-clock.js';

export interface Wired {
  b: Base;
  engine: Engine;
  scheduler: Scheduler;
  runners: Runners;
  reconcile: ReconcileJob;
  link: VenueLink;
  store: Store;
  /** The store's batch (one commit per price step: candle-batch.ts). */
  batch: StoreBatch;
  stop(): Promise<void>;
}

/** A private data dir per run: the backtest never touches the daemon's store. */
export function backtestConfig(config: BotConfig): { config: BotConfig; dispose: () => void } {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'v4-bot-backtest-'));
  return {
    config: { ...config, mode: 'paper', dataDir, shutdown: { ...config.shutdown, cancelOwnOrdersOnStop: false } },
    dispose: () => rmSync(dataDir, { recursive: true, force: true }),
  };
}

/**
 * Where the strategies' hooks run: `thread` (default), in the run's own thread under the sandbox's
 * restrictions (SandboxThreadExecutor); `worker`, one sandboxed worker per instance as in the daemon.
 */
export type StrategiesIn = 'thread' | 'worker';

/**
 * The host's `Function`, taken before any lockdown. The sandbox's lockdown also removes the
 * global `Function` from the thread (src/strategy-api/sandbox/evaluate.ts), which the engine's own
 * libraries need in this thread: better-sqlite3 (`db.transaction` reads `Function.prototype`) and
 * node-cron (`createTask` tests `instanceof Function`). It is put back on the host's global only;
 * a strategy's compartment still has neither `Function` nor `eval`, and lockdown keeps
 * `Function.prototype.constructor` tamed (docs/backtesting.md § Strategies in the run's thread).
 */
const HOST_FUNCTION = Function;
const restoreHostFunction = (): void => {
  (globalThis as { Function?: unknown }).Function = HOST_FUNCTION;
};

/**
 * The instance's module in the sandbox, evaluated in this thread: the worker's init data, no
 * worker. `watch` hears each hook call begin and end (run-watch.ts).
 */
const inThread = (watch: HookWatch | undefined): ExecutorFactory => (b, s) => {
  const file = s.file ?? resolveStrategyFile(s.module, strategyLoaderPaths());
  if (file === null || s.program === undefined) throw new Error(`strategy ${s.id}: module ${s.module} not compiled for the sandbox`);
  const logger = b.logger.child({ strategy: s.id });
  const init = {
    file,
    fileUrl: pathToFileURL(file).href,
    program: s.program,
    instanceId: s.id,
    params: b.config.strategies.find((c) => c.id === s.id)?.params,
    knownMarkets: Object.keys(b.config.markets),
  };
  // A log object crosses as from a worker: its plain form, so the engine's logger runs none of the strategy's code.
  const plain = (o: object): object => logObject(toPlain(o));
  const log = {
    debug: (o: object, m?: string) => logger.debug(plain(o), m),
    info: (o: object, m?: string) => logger.info(plain(o), m),
    warn: (o: object, m?: string) => logger.warn(plain(o), m),
    error: (o: object, m?: string) => logger.error(plain(o), m),
  };
  return new SandboxThreadExecutor(init, log, restoreHostFunction, watch);
};

export interface WireInputs {
  config: BotConfig;
  clock: VirtualClock;
  logger: Logger;
  strategies: LoadedStrategy[];
  venue: BacktestVenue;
  pools: RateLimitOverrides['pools'];
  strategiesIn: StrategiesIn;
  /** Hears each in-thread hook call begin and end (a supervisor outside the thread bounds them). */
  watch?: HookWatch;
}

export function wireEngine({ config, clock, logger, strategies, venue, pools, strategiesIn, watch }: WireInputs): Wired {
  // The store is thrown away with the run: a private temp file (same schema and migrations as the
  // daemon's) whose pages live in the OS page cache, so the process does not grow with the run.
  const store = openScratchStore({ clock, logger: logger.child({ part: 'store' }) });
  const link = venue.connect({
    clock,
    logger: logger.child({ part: 'client' }),
    noncePersistence: store.noncePersistence(),
    nonceMode: config.nonceMode,
    pools,
    onAlert: (a) => store.alerts.add(a.kind, 'request-queue', a.message, clock.now()),
  });
  const b: Base = { config, clock, logger, store, metrics: new BotMetrics() };
  // The run's store is its own and thrown away at its end (EngineOptions).
  const engine = buildEngine(b, link.gateway, simulatorHoldRules(venue.venue.markets), { throwawayStore: true });
  const scheduler = buildScheduler(b, engine);
  let accepting = true;
  const runners = buildRunners(b, engine, scheduler, strategies, () => accepting, {}, strategiesIn === 'thread' ? inThread(watch) : undefined);
  const reconcile = new ReconcileJob(b, engine, () => link.clockSkewRejected());
  const close = async (): Promise<void> => {
    await link.close().catch(() => undefined);
    store.close();
  };
  const stop = stopper(b, { engine, scheduler, runners, close, beginStop: () => (accepting = false) });
  // Passes skipped over an unchanged venue hold their checkpoints (src/engine/reconcile-checkpoints.ts):
  // each commit makes durable what they would have written.
  const batch = flushingBatch(store.batch, () => engine.reconciler.flushCheckpoints());
  return { b, engine, scheduler, runners, reconcile, link, store, batch, stop: () => stop('backtest finished') };
}

/**
 * Start-up as the daemon does it (start.ts steps 5 and 6), each step driven to its end by
 * `settle`; `registered` runs once the schedules are registered, before any strategy's `init`.
 */
export async function startUp(w: Wired, strategies: LoadedStrategy[], settle: Settle, registered: () => void): Promise<void> {
  await settle.drive(w.reconcile.run());
  await settle.drive(runStartupJobs(w.b, w.engine));
  registerJobs(w.b, w.engine, w.scheduler, w.reconcile, w.runners, strategies);
  // Before the first strategy module is evaluated: in-thread sandboxing locks this thread down
  // and removes `Function`, which node-cron's createTask needs (docs/backtesting.md).
  registered();
  for (const [id, runner] of w.runners) await settle.drive(w.scheduler.enqueue(laneOf(id), `init:${id}`, () => runner.init()));
  // The daemon ticks every strategy once right away rather than at the first cron boundary; a
  // candle schedule waits for its candle.
  for (const id of w.runners.keys()) if (!w.engine.candles.candleScheduled(id)) await settle.drive(w.scheduler.trigger(laneOf(id)));
}
