/**
 * The daemon's start-up, as a list of steps. The order is the safety argument (docs/failure-modes.md #8,
 * 15, 19):
 *  1. strategies were loaded and validated by the caller (a bad config stopped there, no network);
 *  2. the store opens: instance lock, migrations, persisted nonce;
 *  3. the venue opens (paper: the embedded simulator; live: the configured one), one client;
 *  4. the engine is built, then the scheduler and one runner per strategy instance;
 *  5. one full reconciliation must complete, or the daemon refuses to trade (throws);
 *  6. the side jobs run once, then the balance audit (docs/balance-audit.md), the schedules are
 *     registered, strategies' `init` runs;
 *  7. health, metrics and the operator console (dashboard, control API) are served, the schedules
 *     start, and only then "ready".
 */
import type { BotConfig } from '../config/index.js';
import { PauseRegistry, type Console } from '../console/index.js';
import type { Clock } from '../core/clock.js';
import type { Scheduler } from '../engine/scheduler.js';
import type { HealthServer } from '../observability/health.js';
import type { Logger } from '../observability/logger.js';
import { BotMetrics } from '../observability/metrics.js';
import { openStore } from '../store/index.js';
import type { LoadedStrategy } from '../strategy-api/host.js';
import { simulatorHoldRules } from './hold-rules.js';
import { buildEngine, type Base, type Engine } from './engine.js';
import { buildConsole } from './console.js';
import { buildScheduler, ReconcileJob, registerAudit, registerJobs, registerPricePoll, runStartupAudit, runStartupJobs } from './jobs.js';
import { startObservability, type Phase } from './observability.js';
import { wireNotifications, type Notifications } from './notifications.js';
import { LiveCandleFeed } from './candle-feed.js';
import { buildRunners, laneOf, quarantineFaulting, type Runners } from './runners.js';
import { stopper } from './shutdown.js';
import { openVenue, type OpenedVenue } from './venue.js';

/** A running daemon. */
export interface Daemon {
  /** Stops gracefully: no new intents, bounded drain, optional cancels, store closed. */
  stop(reason: string): Promise<void>;
  /** Halts trading (cancels only) after an engine fault. */
  halt(reason: string): void;
  /** An uncaught error raised by a strategy module's own code quarantines that strategy; false when it is not a strategy's. */
  strategyFault(err: unknown): boolean;
  readonly healthPort: number | null;
  readonly simulatorUrl: string | null;
}

export interface StartOptions {
  config: BotConfig;
  clock: Clock;
  logger: Logger;
  strategies: LoadedStrategy[];
  /**
   * Operator override (`--resume-trading`): after start-up reconciliation, set the persisted
   * trading state back to ACTIVE. HALTED / REDUCE_ONLY otherwise survive restarts on purpose.
   */
  resumeTrading?: boolean;
}

/** Step 5: refuse to trade unless one whole reconciliation completes; then the operator's override. */
async function reconcileBeforeTrading(b: Base, engine: Engine, reconcile: ReconcileJob, resumeTrading: boolean): Promise<void> {
  await reconcile.run();
  b.logger.info({ lastReconciledMs: reconcile.state.lastSuccessMs }, 'start-up reconciliation complete');
  const ts = engine.tradingState;
  if (!resumeTrading || ts.get() === 'ACTIVE') return;
  b.logger.warn({ from: ts.get(), reason: ts.reason() }, 'operator resumes trading (--resume-trading)');
  ts.set('ACTIVE', 'operator: --resume-trading');
  // A drawdown halt would re-trip at once against the old peak: the operator accepted the loss.
  engine.equityWatch.resetPeak();
}

async function initStrategies(scheduler: Scheduler, runners: Runners): Promise<void> {
  for (const [id, runner] of runners) await scheduler.enqueue(laneOf(id), `init:${id}`, () => runner.init());
}

/** Starts everything; resolves once start-up reconciliation completed and schedules run. */
export async function startDaemon(options: StartOptions): Promise<Daemon> {
  const { config, clock, logger } = options;
  const metrics = new BotMetrics();
  metrics.startEventLoopMonitor();
  const store = openStore({ dataDir: config.dataDir, clock, logger: logger.child({ part: 'store' }) });
  const b: Base = { config, clock, logger, store, metrics };
  let venue: OpenedVenue | null = null;
  let health: HealthServer | null = null;
  let consoleHandle: Console | null = null;
  let phase: Phase = 'starting';
  let notifications: Notifications | null = null;
  const close = async (): Promise<void> => {
    metrics.stopEventLoopMonitor();
    consoleHandle?.close();
    await notifications?.close();
    await health?.close().catch(() => undefined);
    await venue?.close();
    store.close();
  };
  try {
    venue = await openVenue(config, store, clock, logger);
    const engine = buildEngine(b, venue.gateway, venue.sim === null ? undefined : simulatorHoldRules(venue.sim.markets));
    const scheduler = buildScheduler(b, engine);
    notifications = wireNotifications(b, engine, scheduler);
    const pauses = new PauseRegistry(store.console);
    const runners = buildRunners(b, engine, scheduler, options.strategies, (id) => phase !== 'stopping' && !pauses.isPaused(id), notifications.runnerEvents);
    const reconcile = new ReconcileJob(b, engine, () => venue?.client.clockSkewRejected() ?? 0);
    await reconcileBeforeTrading(b, engine, reconcile, options.resumeTrading === true);
    await runStartupJobs(b, engine);
    await runStartupAudit(b, engine);
    registerJobs(b, engine, scheduler, reconcile, runners, options.strategies, (id) => pauses.admitTick(id));
    registerAudit(b, engine, scheduler);
    // Before init: the strategies' candle windows are loaded (warm-up) before their first hook.
    const candleFeed = new LiveCandleFeed(store, engine.candles, clock, logger.child({ part: 'candles' }));
    candleFeed.seed();
    registerPricePoll(b, engine, scheduler, candleFeed);
    await initStrategies(scheduler, runners);
    consoleHandle = buildConsole(b, { engine, scheduler, runners, reconcile, client: venue.client, strategies: options.strategies, pauses });
    health = await startObservability(b, { client: venue.client, engine, scheduler, reconcile, runners, phase: () => phase, console: consoleHandle });
    scheduler.start();
    phase = 'ok';
    // First ticks right away rather than at the first cron boundary (a candle schedule waits for its candle).
    for (const id of runners.keys()) if (!engine.candles.candleScheduled(id)) void scheduler.trigger(laneOf(id));
    logger.info({ mode: config.mode, strategies: [...runners.keys()], tradingState: engine.tradingState.get() }, 'daemon ready');
    const stop = stopper(b, { engine, scheduler, runners, close, beginStop: () => (phase = 'stopping') });
    const server = health;
    const strategyFault = (err: unknown): boolean => quarantineFaulting(runners, options.strategies, err);
    return { stop, halt: engine.halt, strategyFault, healthPort: server?.port ?? null, simulatorUrl: venue.sim?.baseUrl ?? null };
  } catch (err) {
    await close().catch(() => undefined);
    throw err;
  }
}
