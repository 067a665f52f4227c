/**
 * Composition root (design.md section 2): config → logger → clock → store → exchange → engine →
 * strategies. With its helpers paper-venue.ts and market-data.ts (and cli/), the only code that
 * wires concrete parts together.
 *
 * Start-up order is the safety argument (failure-modes 8, 15, 19):
 *  1. strategies are loaded and their params validated (a bad config stops here, no network);
 *  2. the store is opened: instance lock, migrations, persisted nonce;
 *  3. paper mode starts the embedded simulator on an ephemeral 127.0.0.1 port; both modes then
 *     talk HTTP through the same client;
 *  4. one full reconciliation must complete, or the daemon refuses to trade (throws);
 *  5. strategies' `init`, the schedules, and only then "ready".
 */
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { validate as validateCron } from 'node-cron';
import { revealed, type BotConfig } from './config/index.js';
import type { Clock } from './core/clock.js';
import { AuthError, ConfigError, StoreError, errorCode, errorMessage } from './core/errors.js';
import { CreditJob } from './engine/credit-job.js';
import { EquityWatch } from './engine/equity-watch.js';
import { FlexJob } from './engine/flex-job.js';
import { OrderManager } from './engine/order-manager.js';
import { ReadModels } from './engine/read-models.js';
import { MarketData } from './market-data.js';
import { closePaperGhosts, paperMarkets } from './paper-venue.js';
import { CLOCK_SKEW_TOLERANCE_MS, Reconciler } from './engine/reconciler.js';
import { Scheduler } from './engine/scheduler.js';
import { fillView, StrategyInputs } from './engine/strategy-inputs.js';
import { StrategyRunner } from './engine/strategy-runner.js';
import { TradingStateController } from './engine/trading-state.js';
import { createApiClient, type ApiClient } from './exchange/client.js';
import { requestQueueDegraded, startHealthServer, type HealthReport, type HealthServer } from './observability/health.js';
import type { Logger } from './observability/logger.js';
import { BotMetrics } from './observability/metrics.js';
import { startSimulator, type SimulatorHandle } from './simulator/index.js';
import { openStore, type Store } from './store/index.js';
import { loadStrategies, type LoadedStrategy, type StateBackend } from './strategy-api/index.js';

/** Where strategy modules live: `strategies/` next to `src/` (source) or inside `dist/` (build). */
export function strategyLoaderPaths(): { dirs: string[]; extensions: string[] } {
  const here = fileURLToPath(import.meta.url);
  const fromSource = here.endsWith('.ts');
  return { dirs: [path.resolve(path.dirname(here), '../strategies')], extensions: fromSource ? ['.ts', '.js'] : ['.js'] };
}

/** Loads and validates every enabled strategy instance. Throws ConfigError; makes no network call. */
export async function loadConfiguredStrategies(config: BotConfig): Promise<LoadedStrategy[]> {
  const specs = config.strategies.flatMap((s, index) => (s.enabled ? [{ index, module: s.module, id: s.id, params: s.params, schedule: s.schedule }] : []));
  return loadStrategies(specs, { ...strategyLoaderPaths(), knownMarkets: new Set(Object.keys(config.markets)), validateSchedule: validateCron });
}

/** A running daemon. */
export interface Daemon {
  /** Stops gracefully: no new intents, bounded drain, optional cancels, store closed. */
  stop(reason: string): Promise<void>;
  /** Halts trading (cancels only) after an engine fault. */
  halt(reason: string): void;
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

/** Starts everything; resolves once start-up reconciliation completed and schedules run. */
export async function startDaemon(options: StartOptions): Promise<Daemon> {
  const { config, clock, logger } = options;
  const metrics = new BotMetrics();
  metrics.startEventLoopMonitor();
  let phase: HealthReport['status'] = 'starting';
  let accepting = true;

  const store: Store = openStore({ dataDir: config.dataDir, clock, logger: logger.child({ part: 'store' }) });
  let sim: SimulatorHandle | null = null;
  let client: ApiClient | null = null;
  let health: HealthServer | null = null;
  const cleanup = async (): Promise<void> => {
    metrics.stopEventLoopMonitor();
    await health?.close().catch(() => undefined);
    await client?.close().catch(() => undefined);
    await sim?.close().catch(() => undefined);
    store.close();
  };

  try {
    let baseUrl: string;
    let apiKey: string;
    let apiSecret: string;
    if (config.mode === 'paper') {
      const balances = Object.fromEntries(Object.entries(config.paper.balances).map(([k, v]) => [k, v.toFixed()]));
      closePaperGhosts(store, clock, logger);
      sim = await startSimulator({ seed: config.paper.seed, host: '127.0.0.1', port: 0, markets: paperMarkets(config), defaultBalances: balances,
        defaultFlex: config.paper.flexInvestments.map((f) => ({ currency: f.currency, amount: f.amount.toFixed(), dailyRate: f.dailyRate.toFixed() })),
        stepMs: config.paper.priceStepMs,
      });
      ({ baseUrl } = sim);
      ({ apiKey, apiSecret } = sim.defaultAccount);
      logger.info({ baseUrl }, 'paper mode: embedded simulator started');
    } else {
      const api = config.api;
      if (api === null) throw new ConfigError('BOT_MODE: live mode needs API_BASE_URL, API_KEY and API_SECRET');
      baseUrl = api.baseUrl;
      apiKey = api.apiKey.reveal();
      apiSecret = api.apiSecret.reveal();
      logger.warn({ baseUrl }, 'LIVE mode: trading real funds');
    }
    client = createApiClient({ baseUrl, apiKey, apiSecret, clock, logger: logger.child({ part: 'client' }), noncePersistence: store.noncePersistence(),
      nonceMode: config.nonceMode, rateLimits: { redisUrl: revealed(config.rateLimitRedisUrl) },
      onAlert: (a) => store.alerts.add(a.kind, 'request-queue', a.message, clock.now()),
    });
    const gateway = client;

    const tradingState = new TradingStateController(store, clock, logger);
    metrics.setTradingState(tradingState.get());
    tradingState.onChange((c) => metrics.setTradingState(c.to));
    const orders = new OrderManager({ store, gateway, clock, logger: logger.child({ part: 'orders' }) });
    const reconciler = new Reconciler({ store, gateway, clock, logger: logger.child({ part: 'reconcile' }), orders });
    const flexJob = new FlexJob({ store, gateway, clock, logger: logger.child({ part: 'flex' }) });
    const creditJob = new CreditJob({ store, gateway, clock, logger: logger.child({ part: 'credit' }), tradingState });
    const read = new ReadModels(store);
    const market = new MarketData(gateway, clock, 1_000);
    let reconcileState: HealthReport['reconcile'] = { ok: false, lastSuccessMs: null, lastError: null };

    const halt = (reason: string): void => {
      if (tradingState.get() === 'HALTED') return;
      try {
        tradingState.set('HALTED', reason);
      } catch (err) {
        logger.error({ err }, 'could not persist HALTED; trading stops in memory only');
      }
    };
    const engineError = (err: unknown): void => {
      metrics.error(errorCode(err));
      if (err instanceof StoreError || err instanceof AuthError) halt(`${errorCode(err)}: ${errorMessage(err).slice(0, 120)}`);
    };

    const equityWatch = new EquityWatch({ store, equityAsset: config.risk.equityAsset, limits: config.risk, onBreach: halt });
    const computeEquity = async (): Promise<void> => {
      const { prices, balances } = await market.get();
      equityWatch.update(balances, prices);
    };
    const inputs = new StrategyInputs({
      store,
      read,
      clock,
      markets: config.markets,
      limits: config.risk,
      budgets: new Map(config.strategies.map((s) => [s.id, s.budgetQuote])),
      tradingState: () => tradingState.get(),
      equity: () => equityWatch.current,
      recentFillsLimit: config.plugins.recentFillsLimit,
    });

    // --- scheduler and runners -----------------------------------------------------------------
    const scheduler = new Scheduler({
      clock,
      maxConcurrent: config.jobs.maxConcurrentJobs,
      events: {
        onRun: (job, outcome, _s, endedMs, err) => {
          metrics.jobRun(job, outcome, endedMs);
          if (outcome === 'failed') {
            logger.warn({ job, err }, 'job failed');
            engineError(err);
          }
        },
        onSkip: (job) => {
          metrics.jobSkipped(job);
          logger.debug({ job }, 'tick skipped: previous run still going');
        },
      },
    });
    const runners = new Map<string, StrategyRunner>();
    for (const s of options.strategies) {
      const backend = store.strategyState(s.id) as StateBackend;
      runners.set(
        s.id,
        new StrategyRunner({
          strategy: s,
          clock,
          logger,
          orders,
          snapshot: async (id) => inputs.snapshot(id, await market.get()),
          risk: (id) => inputs.risk(id),
          onDrawdown: () => halt('drawdown kill switch (risk gate)'),
          state: backend,
          accepting: () => accepting,
          events: {
            refusal: (id, code) => metrics.refusal(id, code),
            strategyError: (_id, code) => metrics.error(code),
            engineError: (_id, err) => engineError(err),
            quarantined: (id) => metrics.setQuarantined(id, true),
            placed: (id, status) => metrics.placed(id, status),
          },
          deadlineMs: config.plugins.hookDeadlineMs,
          errorBudget: config.plugins.errorBudget,
          errorWindowMs: config.plugins.errorWindowMs,
        }),
      );
      metrics.setQuarantined(s.id, false);
    }

    reconciler.onFill(({ strategyId, fill }) => {
      metrics.fill(strategyId);
      const runner = runners.get(strategyId);
      if (runner === undefined) return;
      void scheduler.enqueue(`strategy:${strategyId}`, `fill:${strategyId}`, () => runner.fill(fillView(fill)));
    });

    // Skew: the history anchor already follows the venue clock; the operator should still know.
    let skewWarned = false;
    const watchSkew = (): void => {
      const skew = gateway.clockSkewMs();
      if (skew === undefined) return;
      metrics.setClockSkew(skew);
      const off = Math.abs(skew) > CLOCK_SKEW_TOLERANCE_MS;
      if (off && !skewWarned) logger.warn({ clockSkewMs: skew }, 'local clock differs from the venue by more than 2 s: check NTP on this host');
      if (!off && skewWarned) logger.info({ clockSkewMs: skew }, 'local clock back within 2 s of the venue');
      skewWarned = off;
    };
    const reconcileJob = async (): Promise<void> => {
      try {
        const report = await reconciler.reconcileOnce();
        watchSkew();
        reconcileState = { ok: true, lastSuccessMs: report.finishedMs, lastError: null };
        metrics.setReconcile(true, report.finishedMs);
      } catch (err) {
        reconcileState = { ...reconcileState, ok: false, lastError: errorCode(err) };
        metrics.setReconcile(false, null);
        throw err;
      }
    };

    // --- start-up reconciliation: refuse to trade if it cannot complete ------------------------
    await reconcileJob();
    logger.info({ lastReconciledMs: reconcileState.lastSuccessMs }, 'start-up reconciliation complete');
    if (options.resumeTrading === true && tradingState.get() !== 'ACTIVE') {
      logger.warn({ from: tradingState.get(), reason: tradingState.reason() }, 'operator resumes trading (--resume-trading)');
      tradingState.set('ACTIVE', 'operator: --resume-trading');
      // A drawdown halt would re-trip at once against the old peak: the operator accepted the loss.
      equityWatch.resetPeak();
    }
    for (const [name, fn] of [
      ['flex', () => flexJob.runOnce()],
      ['credit', () => creditJob.runOnce()],
      ['equity', () => computeEquity()],
    ] as const) {
      await (fn as () => Promise<unknown>)().catch((err: unknown) => logger.warn({ err, job: name }, 'start-up job failed; continuing'));
    }

    scheduler.add({ name: 'reconcile', cron: config.jobs.reconcileCron, run: reconcileJob });
    scheduler.add({ name: 'flex', cron: config.jobs.flexPullCron, run: async () => void (await flexJob.runOnce()) });
    scheduler.add({ name: 'credit', cron: config.jobs.creditCheckCron, run: async () => void (await creditJob.runOnce()) });
    scheduler.add({ name: 'equity', cron: config.jobs.equityCheckCron, run: computeEquity });
    for (const [id, runner] of runners) {
      const s = options.strategies.find((x) => x.id === id);
      scheduler.add({ name: `strategy:${id}`, cron: s?.schedule ?? '*/10 * * * * *', run: () => runner.tick() });
    }
    for (const [id, runner] of runners) {
      await scheduler.enqueue(`strategy:${id}`, `init:${id}`, () => runner.init());
    }

    metrics.setCollector(() => ({ ordersByState: store.orders.countByState(), rateLimits: gateway.rateLimitStatus(), requestQueue: gateway.requestQueueHealth() }));
    const healthReport = (): HealthReport => {
      const jobs: HealthReport['jobs'] = {};
      for (const name of scheduler.jobNames) {
        const last = scheduler.lastRun(name);
        jobs[name] = { lastRunMs: last?.endedMs ?? null, lastOutcome: last?.outcome ?? null, skipped: scheduler.skipped(name) };
      }
      const ts = tradingState.get();
      const requestQueue = gateway.requestQueueHealth();
      const status = phase !== 'ok' ? phase : ts === 'HALTED' || !reconcileState.ok || requestQueueDegraded(requestQueue) ? 'degraded' : 'ok';
      return {
        status,
        mode: config.mode,
        tradingState: ts,
        reconcile: reconcileState,
        jobs,
        unknownOrders: store.orders.countByState()['UNKNOWN'] ?? 0,
        quarantined: [...runners.values()].filter((r) => r.quarantined).map((r) => r.id),
        clockSkewMs: gateway.clockSkewMs() ?? null,
        requestQueue,
        nowMs: clock.now(),
      };
    };
    if (config.httpPort > 0) {
      health = await startHealthServer({ port: config.httpPort, health: healthReport, metrics: () => metrics.text(), metricsContentType: metrics.contentType });
      logger.info({ port: health.port }, 'health and metrics on 127.0.0.1');
    }

    scheduler.start();
    phase = 'ok';
    // First ticks right away rather than at the first cron boundary.
    for (const id of runners.keys()) void scheduler.trigger(`strategy:${id}`);
    logger.info({ mode: config.mode, strategies: [...runners.keys()], tradingState: tradingState.get() }, 'daemon ready');

    let stopping: Promise<void> | undefined;
    const stop = (reason: string): Promise<void> =>
      (stopping ??= (async () => {
        logger.info({ reason }, 'stopping: no new intents');
        phase = 'stopping';
        accepting = false;
        await scheduler.stop();
        const started = clock.now();
        const drained = await scheduler.drain(config.shutdown.drainTimeoutMs);
        if (!drained) logger.warn({ drainTimeoutMs: config.shutdown.drainTimeoutMs }, 'drain bound reached; unfinished work stays in the journal for the next start');
        for (const runner of runners.values()) {
          await runner.stop().catch((err: unknown) => logger.warn({ err, strategy: runner.id }, 'onStop failed'));
        }
        if (config.shutdown.cancelOwnOrdersOnStop) {
          const left = Math.max(0, config.shutdown.drainTimeoutMs - (clock.now() - started));
          const abort = new AbortController();
          const cancels = Promise.all([...runners.keys()].map((id) => orders.cancelAll(id).catch((err: unknown) => logger.warn({ err, strategy: id }, 'cancel on stop failed'))));
          const done = await Promise.race([cancels.then(() => true), clock.sleep(left, abort.signal).then(() => false, () => false)]);
          abort.abort();
          logger.info({ complete: done }, 'cancelled own open orders on stop');
        }
        await cleanup();
        logger.info('stopped');
      })());

    return {
      stop,
      halt,
      get healthPort() {
        return health?.port ?? null;
      },
      simulatorUrl: sim?.baseUrl ?? null,
    };
  } catch (err) {
    await cleanup().catch(() => undefined);
    throw err;
  }
}
