/**
 * One runner per strategy instance, on its own scheduler lane, with its hooks in its own worker
 * thread, and the paths of committed fills to the owning strategy's `onFill` and of orders'
 * final states to its `onOrder`.
 */
import { StrategyError, errorMessage } from '../core/errors.js';
import type { Scheduler } from '../engine/scheduler.js';
import type { HookExecutor } from '../engine/sandbox-worker/executor.js';
import { WorkerExecutor } from '../engine/sandbox-worker/worker-executor.js';
import { fillView } from '../engine/strategy-inputs.js';
import { clearQuarantined, recordQuarantine } from '../engine/status-records.js';
import { StrategyRunner, type RunnerEvents } from '../engine/strategy-runner.js';
import { resolveStrategyFile, type JsonValue, type LoadedStrategy, type StateBackend } from '../strategy-api/host.js';
import type { Base, Engine } from './engine.js';
import { routeOrderEvents } from './order-events.js';
import { strategyLoaderPaths } from './strategies.js';

export type Runners = ReadonlyMap<string, StrategyRunner>;

/** The scheduler lane of a strategy instance: its ticks, fills and init never overlap. */
export const laneOf = (strategyId: string): string => `strategy:${strategyId}`;

/** The instance's sandboxed worker: the module the loader found, the params as configured, no environment. */
function workerOf(b: Base, s: LoadedStrategy): WorkerExecutor {
  const file = s.file ?? resolveStrategyFile(s.module, strategyLoaderPaths());
  if (file === null) throw new Error(`strategy ${s.id}: module ${s.module} not found`);
  const store = b.store.strategyState(s.id);
  return new WorkerExecutor({
    file,
    program: s.program,
    memoryMb: b.config.sandbox.memoryMb,
    instanceId: s.id,
    params: b.config.strategies.find((c) => c.id === s.id)?.params,
    knownMarkets: Object.keys(b.config.markets),
    stateEntries: () => store.entries() as Record<string, JsonValue>,
    logger: b.logger.child({ strategy: s.id }),
  });
}

/** Where an instance's hooks run: its own worker thread in the daemon (the backtest passes its own). */
export type ExecutorFactory = (b: Base, s: LoadedStrategy) => HookExecutor;

interface RunnerSetup {
  accepting: (strategyId: string) => boolean;
  observer: Partial<RunnerEvents>;
  executorOf: ExecutorFactory;
}

function buildRunner(b: Base, engine: Engine, s: LoadedStrategy, { accepting, observer, executorOf }: RunnerSetup): StrategyRunner {
  const { metrics, config } = b;
  return new StrategyRunner({
    executor: executorOf(b, s),
    strategy: s,
    clock: b.clock,
    logger: b.logger,
    orders: engine.orders,
    // At once when the kept prices and balances are recent enough (no await: a turn of the queue).
    snapshot: (id) => {
      const kept = engine.market.current();
      const { market } = engine;
      if (kept !== undefined) return engine.inputs.snapshot(id, market.forStrategies(kept));
      return market.get().then((venue) => engine.inputs.snapshot(id, market.forStrategies(venue)));
    },
    risk: (id) => engine.inputs.risk(id),
    onDrawdown: () => engine.halt('drawdown kill switch (risk gate)'),
    state: b.store.strategyState(s.id) as StateBackend,
    atomically: (fn) => b.store.tx(fn),
    accepting: () => accepting(s.id),
    events: {
      refusal: (id, code, detail) => {
        metrics.refusal(id, code);
        observer.refusal?.(id, code, detail);
      },
      strategyError: (_id, code) => metrics.error(code),
      engineError: (_id, err) => engine.engineError(err),
      quarantined: (id, reason) => {
        metrics.setQuarantined(id, true);
        recordQuarantine(b.store.meta, { strategyId: id, reason, atMs: b.clock.now() });
        observer.quarantined?.(id, reason);
      },
      placed: (id, status) => metrics.placed(id, status),
    },
    deadlineMs: config.plugins.hookDeadlineMs,
    errorBudget: config.plugins.errorBudget,
    errorWindowMs: config.plugins.errorWindowMs,
  });
}

/** Builds the runners and routes each committed fill to its strategy's lane; `observer` also hears the runners' events (notifications). */
export function buildRunners(
  b: Base,
  engine: Engine,
  scheduler: Scheduler,
  strategies: readonly LoadedStrategy[],
  /** False once shutdown began, or while an operator paused the strategy: its intents are dropped. */
  accepting: (strategyId: string) => boolean,
  observer: Partial<RunnerEvents> = {},
  executorOf: ExecutorFactory = workerOf,
): Runners {
  const runners = new Map<string, StrategyRunner>();
  clearQuarantined(b.store.meta);
  engine.candles.register(strategies);
  for (const s of strategies) {
    const runner = buildRunner(b, engine, s, { accepting, observer, executorOf });
    runners.set(s.id, runner);
    b.metrics.setQuarantined(s.id, false);
    // Past a sandbox bound while loading: quarantined from the start, with the loader's reason.
    if (s.quarantined !== undefined) runner.guard.quarantine(new StrategyError('bound', s.quarantined, { instanceId: s.id }));
  }
  engine.reconciler.onFill(({ strategyId, fill }) => {
    b.metrics.fill(strategyId);
    const runner = runners.get(strategyId);
    if (runner === undefined) return;
    void scheduler.enqueue(laneOf(strategyId), `fill:${strategyId}`, () => runner.fill(Object.freeze(fillView(fill))));
  });
  const { store, clock, logger } = b;
  routeOrderEvents({ store, clock, logger, scheduler, runners, laneOf, onFinal: (l) => engine.journal.onFinal(l) });
  return runners;
}

/**
 * A last net: strategy code runs only in sandboxed workers (docs/sandbox.md), so an uncaught error
 * in the daemon's thread should never name a strategy file; if one does, every instance of that
 * module is quarantined instead of stopping the bot. Returns whether the error was a strategy's.
 */
export function quarantineFaulting(runners: Runners, strategies: readonly LoadedStrategy[], err: unknown): boolean {
  const stack = err instanceof Error ? (err.stack ?? '') : '';
  const hit = strategies.filter((s) => {
    const file = resolveStrategyFile(s.module, strategyLoaderPaths());
    return file !== null && stack.includes(file);
  });
  for (const s of hit) {
    const reason = new StrategyError('threw', `strategy ${s.id}: uncaught outside a hook: ${errorMessage(err)}`, { instanceId: s.id });
    runners.get(s.id)?.guard.quarantine(reason);
  }
  return hit.length > 0;
}
