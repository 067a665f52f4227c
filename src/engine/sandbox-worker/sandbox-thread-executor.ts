/**
 * Runs an instance's hooks in the calling thread, its module evaluated by the sandbox's own
 * Compartment evaluation (src/strategy-api/sandbox/: `lockdown()` of this thread's intrinsics, a
 * Compartment holding only the author API, no `eval`, `Function` or memory outside the heap):
 * the strategy worker's restrictions without the worker and its message round trip per hook. For
 * a process that holds no secret (the backtest: docs/backtesting.md § Strategies in the run's
 * thread). Nothing in this thread can stop a hook that runs on: the bounds of time and heap are
 * kept from outside it (the backtest runs in a worker its supervisor watches and bounds:
 * src/backtest/run-supervisor.ts), told here when each call begins and ends (`HookWatch`).
 */
import type { StrategyDefinition } from '../../strategy-api/define.js';
import { buildContext, isThenable } from '../../strategy-api/host.js';
import type { StrategyLogger } from '../../strategy-api/index.js';
import { loadDefinition, parseParams, type SandboxInit } from '../../strategy-api/sandbox/instance.js';
import { toPlain } from './codec.js';
import { callHook, type HookExecutor, type HookName, type HookRequest } from './executor.js';

/**
 * Told when a hook call in this thread begins and ends, so that a watchdog outside the thread can
 * name a call that runs past its deadline (src/backtest/run-watch.ts). Cheap: a few shared-memory
 * stores per call.
 */
export interface HookWatch {
  enter(instanceId: string, hook: HookName): void;
  leave(): void;
}

interface Loaded {
  definition: StrategyDefinition<unknown>;
  params: unknown;
}

export class SandboxThreadExecutor implements HookExecutor {
  private loaded: Loaded | undefined;

  constructor(
    private readonly init: SandboxInit,
    private readonly log: StrategyLogger,
    /** Runs after each evaluation (the first one locked this thread down): what the host must put back. */
    private readonly afterEvaluate: () => void = () => undefined,
    private readonly watch?: HookWatch,
  ) {}

  /** Evaluates the module and parses the params once; a failure is the failure of every call, as in the worker. */
  private load(): Loaded {
    if (this.loaded !== undefined) return this.loaded;
    let definition: StrategyDefinition<unknown>;
    try {
      definition = loadDefinition(this.init);
    } finally {
      this.afterEvaluate();
    }
    const parsed = parseParams(definition, this.init);
    if (!parsed.success) throw new Error(`${this.init.file}: params refused by the module's schema: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
    this.loaded = { definition, params: parsed.data };
    return this.loaded;
  }

  async prepare(): Promise<void> {
    try {
      this.load();
    } catch {
      // Reported by each call, as the worker does.
    }
  }

  /** Loaded: a call starts at once (a failed load is tried again by the next `prepare()`, as before). */
  isPrepared(): boolean {
    return this.loaded !== undefined;
  }

  async run(r: HookRequest): Promise<unknown> {
    return this.runNow(r);
  }

  /**
   * The hook's answer crosses as the worker's does (codec.ts `toPlain`): plain data, Decimals as
   * decimal strings. Nothing the strategy made (its objects, its getters, a Decimal whose digits it
   * could still change) reaches the engine, which parses the answer as it parses a worker's. An
   * async hook's answer is awaited first, as a worker awaits it.
   */
  runNow(r: HookRequest): unknown {
    const { definition: d, params } = this.load();
    const ctx = buildContext(this.init.instanceId, params, r.data, r.state, this.log);
    // Reading the answer may run the strategy's code too (a getter): inside the watched call.
    this.watch?.enter(this.init.instanceId, r.hook);
    try {
      const answer = callHook(d, ctx, r);
      return isThenable(answer) ? Promise.resolve(answer).then(toPlain) : toPlain(answer);
    } finally {
      this.watch?.leave();
    }
  }

  abandon(): void {}

  onFault(): void {}

  async close(): Promise<void> {}
}
