/**
 * Runs an instance's hooks in the calling thread, its module evaluated by the sandbox's own
 * Compartment evaluation (src/strategy-api/sandbox/: `lockdown()` of this thread's intrinsics, a
 * Compartment holding only the author API, no `eval`, `Function` or memory outside the heap):
 * the strategy worker's restrictions without the worker and its message round trip per hook. For
 * a process that holds no secret (the backtest: docs/backtesting.md § Strategies in the run's
 * thread). What the worker adds and this does not: a heap bound, and a hook past its deadline
 * cannot be stopped, only ignored.
 */
import type { StrategyDefinition } from '../../strategy-api/define.js';
import { buildContext, isThenable } from '../../strategy-api/host.js';
import type { StrategyLogger } from '../../strategy-api/index.js';
import { loadDefinition, parseParams, type SandboxInit } from '../../strategy-api/sandbox/instance.js';
import { toPlain } from './codec.js';
import { callHook, type HookExecutor, type HookRequest } from './executor.js';

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
    const answer = callHook(d, ctx, r);
    return isThenable(answer) ? Promise.resolve(answer).then(toPlain) : toPlain(answer);
  }

  abandon(): void {}

  onFault(): void {}

  async close(): Promise<void> {}
}
