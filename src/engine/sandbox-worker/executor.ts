/**
 * Where a strategy's hooks run. `InlineExecutor` calls them in the engine's own thread (tests of
 * engine logic with closures); `WorkerExecutor` (worker-executor.ts) runs each instance in its
 * own worker thread, where a runaway hook can be stopped.
 */
import type { BufferedState, FillView, LoadedStrategy, OrderEventView, SnapshotData, StrategyDefinition, StrategyLogger } from '../../strategy-api/host.js';
import { buildContext } from '../../strategy-api/host.js';
import type { HookName } from './protocol.js';

export type { HookName } from './protocol.js';

export interface HookRequest {
  hook: HookName;
  data: SnapshotData;
  /** The call's buffered state: the hook's writes land here (the runner commits them). */
  state: BufferedState;
  fill?: FillView;
  order?: OrderEventView;
}

export interface HookExecutor {
  /** Resolves once a call can start (a worker started and loaded its module); not bounded here. */
  prepare(): Promise<void>;
  /**
   * Whether a call can start now without waiting (what `prepare()` would resolve to at once): the
   * runner then skips the bounded wait. Optional: without it, every call waits for `prepare()`.
   */
  isPrepared?(): boolean;
  /** Runs a hook and resolves with its raw return value; rejects when the hook throws. */
  run(request: HookRequest): Promise<unknown>;
  /**
   * Calls a hook in this thread and returns its raw return value at once (a promise when the hook
   * is async); throws when the hook throws. Optional: only executors whose hooks run in the
   * caller's thread have it (a worker's answer always comes later).
   */
  runNow?(request: HookRequest): unknown;
  /** The call in flight passed its deadline: stop it (the next call starts afresh). */
  abandon(): void;
  /** `listener` hears of a fault raised outside any hook's result (an uncaught error in a timer). */
  onFault(listener: (err: Error) => void): void;
  /** Stops for good. */
  close(): Promise<void>;
}

/**
 * Calls the hook `r` names on a definition evaluated in this thread (the inline executor's and the
 * in-thread sandbox's, one dispatch so that neither can miss a hook); `onFill` and `onOrder` run
 * only with their event, frozen as the context is. The switch is exhaustive: a new hook name does not compile until it is here.
 */
export function callHook(d: StrategyDefinition<unknown>, ctx: Parameters<StrategyDefinition<unknown>['onTick']>[0], r: HookRequest): unknown {
  switch (r.hook) {
    case 'init':
      return d.init?.(ctx);
    case 'onTick':
      return d.onTick(ctx);
    case 'onFill':
      return r.fill === undefined ? undefined : d.onFill?.(ctx, frozen(r.fill));
    case 'onOrder':
      return r.order === undefined ? undefined : d.onOrder?.(ctx, frozen(r.order));
    case 'onStop':
      return d.onStop?.(ctx);
    default:
      return unknownHook(r.hook);
  }
}

/** An event as the hook is handed it: frozen (a frozen copy when it is not), as the context's views. */
function frozen<T extends object>(event: T): T {
  return Object.isFrozen(event) ? event : Object.freeze({ ...event });
}

function unknownHook(hook: never): never {
  throw new Error(`unknown hook ${String(hook)}`);
}

/** Runs hooks in the calling thread. A hook past its deadline cannot be stopped, only ignored. */
export class InlineExecutor implements HookExecutor {
  constructor(
    private readonly strategy: LoadedStrategy,
    private readonly log: StrategyLogger,
  ) {}

  async run(r: HookRequest): Promise<unknown> {
    return this.runNow(r);
  }

  runNow(r: HookRequest): unknown {
    const d = this.strategy.definition;
    if (d === undefined) throw new Error(`strategy ${this.strategy.id}: no in-process definition (its hooks run in the sandbox)`);
    const ctx = buildContext(this.strategy.id, this.strategy.params, r.data, r.state, this.log);
    return callHook(d, ctx, r);
  }

  async prepare(): Promise<void> {}

  isPrepared(): boolean {
    return true;
  }

  abandon(): void {}

  onFault(): void {}

  async close(): Promise<void> {}
}
