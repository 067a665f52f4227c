/**
 * Runs one strategy instance: builds its frozen snapshot, calls a hook through the safe-call
 * guard, validates the returned intents, rounds them to the market rules (amount truncated to
 * the step, price rounded to the tick by side), runs every order through the risk gate, and
 * hands what passes to the order manager. Refusals carry the gate's reason code and are logged
 * and reported; nothing a strategy returns reaches the venue any other way.
 *
 * The runner never throws for plugin faults (they spend the error budget). Engine faults while
 * executing an intent (store, auth, ...) are reported through `onEngineError` so the composition
 * root can halt trading; the other intents of the call are not attempted after one.
 */
import type { Clock, TimerHandle } from '../core/clock.js';
import { StrategyError, errorMessage } from '../core/errors.js';
import type { Logger } from '../observability/logger.js';
import { BufferedState, HookGuard, parseIntents, type GuardedResult, type StateBackend, type SnapshotData } from '../strategy-api/host.js';
import type { FillView, Intent, LoadedStrategy, OrderEventView, PlaceCollateralIntent, PlaceLimitsIntent } from '../strategy-api/host.js';
import { InlineExecutor, type HookExecutor, type HookName, type HookRequest } from './sandbox-worker/executor.js';
import { checkOrders, checkStanding, type GateDecision, type RiskSnapshot } from './risk-gate.js';
import { collateralOrder, normalise, rules } from './intent-specs.js';
import type { CancelOutcome, CollateralOrderSpec, FlexCloseOutcome, LimitOrderSpec, PlaceOutcome } from './order-manager.js';

export { normalise } from './intent-specs.js';

/** The order manager as the runner uses it (OrderManager implements it). */
export interface OrderPort {
  placeLimitOrders(strategyId: string, specs: readonly LimitOrderSpec[]): Promise<PlaceOutcome[]>;
  placeCollateralOrder(strategyId: string, spec: CollateralOrderSpec): Promise<PlaceOutcome>;
  cancelOrder(strategyId: string, clientOrderId: string): Promise<CancelOutcome>;
  cancelAll(strategyId: string, market?: string): Promise<CancelOutcome[]>;
  closeFlex(strategyId: string, plan: { plan: string }): Promise<FlexCloseOutcome>;
}

/** What the runner reports (metrics, notifications). */
export interface RunnerEvents {
  /** `detail` is the gate's explanation with the intent it refused (e.g. `limit buy BTC_USDT: ...`). */
  refusal(strategyId: string, code: string, detail: string): void;
  strategyError(strategyId: string, code: string): void;
  engineError(strategyId: string, err: unknown): void;
  /** `reason`: the failure that spent the budget (or the fault), for the operator's status. */
  quarantined(strategyId: string, reason: string): void;
  placed(strategyId: string, status: PlaceOutcome['status']): void;
}

export interface StrategyRunnerOptions {
  strategy: LoadedStrategy;
  clock: Clock;
  logger: Logger;
  orders: OrderPort;
  /**
   * The instance's snapshot data (store read models, cached prices and balances); at once when
   * nothing needs reading from the venue, else a promise.
   */
  snapshot: (strategyId: string) => SnapshotData | Promise<SnapshotData>;
  /** Fresh risk inputs for this instance (called before each intent). */
  risk: (strategyId: string) => RiskSnapshot;
  /** Called when the gate reports the drawdown kill switch. */
  onDrawdown: () => void;
  /** Persisted key-value state of the instance. */
  state: StateBackend;
  /**
   * Runs `fn` as one store transaction, so a hook's state and its event's delivery mark land
   * together (a crash between them would deliver the event again over the updated state).
   * Without one, `fn` runs as is.
   */
  atomically?: (fn: () => void) => void;
  /** False once shutdown began: hooks may still run, their intents are dropped. */
  accepting: () => boolean;
  events: RunnerEvents;
  deadlineMs: number;
  errorBudget: number;
  errorWindowMs: number;
  /**
   * Where the hooks run: the daemon gives each instance a `WorkerExecutor` (its own worker
   * thread); without one they run in the calling thread.
   */
  executor?: HookExecutor;
}

type Hook = Exclude<HookName, 'onStop'>;

/** A guarded call's result, at once when the hook answered at once. */
type Guarded = GuardedResult<unknown> | Promise<GuardedResult<unknown>>;

/** What a hook gets besides the snapshot (`NO_INPUT`: nothing, one object for every tick). */
interface HookInput {
  fill?: FillView;
  order?: OrderEventView;
}
const NO_INPUT: HookInput = Object.freeze({});

/**
 * A call's request: the hook's input named field by field (an object spread costs about half a
 * microsecond on Node 20, and every fill's and order's call made one). An absent field stays absent.
 */
function requestOf(hook: HookName, data: SnapshotData, state: BufferedState, input: HookInput): HookRequest {
  if (input === NO_INPUT) return { hook, data, state };
  const { fill, order } = input;
  if (order === undefined) return fill === undefined ? { hook, data, state } : { hook, data, state, fill };
  return fill === undefined ? { hook, data, state, order } : { hook, data, state, fill, order };
}

/** Longest wait for an instance's worker to start and load its module before a call goes ahead. */
const START_BOUND_MS = 30_000;

/** The answer of a call that is over when it returns: settled already, as an async function's would be (frozen: shared by every call). */
const DONE: Promise<void> = Object.freeze(Promise.resolve());

/** Where a call that must wait goes on from: the snapshot to come, the hook's answer to come, or intents to execute. */
type Pending =
  | { snapshot: Promise<SnapshotData>; input: HookInput }
  | { called: Promise<GuardedResult<unknown>>; state: BufferedState }
  | { intents: Intent[] };

/** The delivery mark of a call that delivers no event (a tick, a fill). */
const NO_EVENT = (): void => undefined;

/** Whether the instance's module defines `hook`: from the sandbox's report, or the in-process definition. */
function defines(s: LoadedStrategy, hook: 'init' | 'onFill' | 'onOrder' | 'onStop'): boolean {
  return s.hooks !== undefined ? s.hooks[hook] : s.definition?.[hook] !== undefined;
}

export class StrategyRunner {
  readonly id: string;
  readonly guard: HookGuard;
  private readonly log: Logger;
  private readonly executor: HookExecutor;
  /** Stops the call in flight (past its deadline): one function for every call. */
  private readonly abandon = (): void => this.executor.abandon();

  constructor(private readonly options: StrategyRunnerOptions) {
    this.id = options.strategy.id;
    this.log = options.logger.child({ strategy: this.id });
    this.executor = options.executor ?? new InlineExecutor(options.strategy, this.log);
    this.executor.onFault((err) => this.fault(err));
    this.guard = new HookGuard({
      clock: options.clock,
      instanceId: this.id,
      deadlineMs: options.deadlineMs,
      errorBudget: options.errorBudget,
      errorWindowMs: options.errorWindowMs,
      onQuarantine: (err) => {
        this.log.error({ err }, 'strategy quarantined: its intents are refused from now on');
        options.events.quarantined(this.id, errorMessage(err).slice(0, 300));
        // Stops the worker thread; not `close()`: an operator may lift the quarantine, and the
        // next call then starts a fresh worker.
        this.executor.abandon();
      },
    });
  }

  /** An error the strategy raised outside any hook's result (a timer): quarantined at once. */
  private fault(err: Error): void {
    const e = new StrategyError('threw', `strategy ${this.id} raised outside a hook: ${errorMessage(err).slice(0, 200)}`, { instanceId: this.id });
    this.log.error({ err: e }, 'strategy fault outside a hook');
    this.options.events.strategyError(this.id, e.code);
    this.guard.quarantine(e);
  }

  get quarantined(): boolean {
    return this.guard.quarantined;
  }

  /** Lifts the quarantine (operator); returns what had caused it, or null when there was none. */
  release(): StrategyError | null {
    const was = this.guard.release();
    if (was !== null) this.log.warn({ cause: was.code }, 'quarantine lifted by the operator');
    return was;
  }

  async init(): Promise<void> {
    if (defines(this.options.strategy, 'init')) await this.run('init');
  }

  /** The call's own promise, not one more around it. */
  tick(): Promise<void> {
    return this.run('onTick');
  }

  async fill(fill: FillView): Promise<void> {
    if (defines(this.options.strategy, 'onFill')) return this.run('onFill', { fill });
  }

  /** Whether the module defines `onOrder` (an instance without it spends its order events at once). */
  get hearsOrders(): boolean {
    return defines(this.options.strategy, 'onOrder');
  }

  /**
   * Calls `onOrder` for an order that ended. `delivered` runs once the event is spent: right after
   * the hook's state is committed (before its intents execute), or at once when the hook does not
   * run (not defined, quarantined) or fails; it is not run when the call itself faults.
   */
  async order(event: OrderEventView, delivered: () => void): Promise<void> {
    if (!defines(this.options.strategy, 'onOrder') || this.guard.quarantined) return delivered();
    await this.run('onOrder', { order: event }, delivered);
  }

  /** Calls `onStop` (guarded); anything it returns is ignored. Then stops the instance's worker. */
  async stop(): Promise<void> {
    try {
      if (!defines(this.options.strategy, 'onStop') || this.guard.quarantined) return;
      await this.prepared();
      const data = await this.options.snapshot(this.id);
      const state = new BufferedState(this.options.state);
      const r = await this.guarded('onStop', data, state);
      if (r.ok) state.commit();
    } finally {
      await this.executor.close();
    }
  }

  /**
   * The call's snapshot once the executor can take it: at once when it can and no venue read is
   * due (each await is a turn of the microtask queue), else a promise.
   */
  private snapshotNow(): SnapshotData | Promise<SnapshotData> {
    if (this.executor.isPrepared?.() === true) return this.options.snapshot(this.id);
    return this.prepared().then(() => this.options.snapshot(this.id));
  }

  /** Waits (bounded) until the executor can take a call, so a worker's start is not charged to the hook's deadline. */
  private async prepared(): Promise<void> {
    if (this.executor.isPrepared?.() === true) return;
    const { clock } = this.options;
    // A bare timer, cleared after the race: an aborted sleep would build a DOMException per call.
    let timer: TimerHandle | undefined;
    const bound = new Promise<void>((resolve) => {
      timer = clock.setTimeout(resolve, START_BOUND_MS);
    }).then(() => undefined);
    await Promise.race([this.executor.prepare(), bound]);
    if (timer !== undefined) clock.clearTimeout(timer);
  }

  /**
   * The guarded call: through `runNow` when the executor runs hooks in this thread (a hook that
   * returns at once is answered at once, no timer or promise), else through `run`.
   */
  private guarded(hook: HookName, data: SnapshotData, state: BufferedState, input: HookInput = NO_INPUT): Guarded {
    const request = requestOf(hook, data, state, input);
    const { executor } = this;
    if (executor.runNow !== undefined) return this.guard.callNow(hook, () => executor.runNow?.(request), this.abandon);
    return this.guard.call(hook, () => executor.run(request), this.abandon);
  }


  /**
   * `spent` (onOrder's delivery mark) runs once the call is over for the event: after the commit, or
   * on failure. A call that waits for nothing (the snapshot and the hook's answer at once, no intent
   * to execute: most ticks) is over when this returns and answers `DONE`, not an async function's
   * own promise made for it; a call that must wait goes on in one async function from that wait
   * (`proceed`), as the whole call did, so each wait and the settling of the promise returned fall
   * on the same turns as before. A synchronous fault rejects, as the async function's did.
   */
  private run(hook: Hook, input: HookInput = NO_INPUT, spent: () => void = NO_EVENT): Promise<void> {
    try {
      if (this.guard.quarantined) {
        spent();
        return DONE;
      }
      const snapshot = this.snapshotNow();
      if (snapshot instanceof Promise) return this.proceed(hook, spent, { snapshot, input });
      const state = new BufferedState(this.options.state);
      const called = this.guarded(hook, snapshot, state, input);
      if (called instanceof Promise) return this.proceed(hook, spent, { called, state });
      const intents = this.landed(hook, called, state, spent);
      return intents === undefined ? DONE : this.proceed(hook, spent, { intents });
    } catch (err) {
      return Promise.reject(err);
    }
  }

  /** The rest of a call from its first wait: for its snapshot, for its hook's answer, or for its first intent's execution. */
  private async proceed(hook: Hook, spent: () => void, from: Pending): Promise<void> {
    let intents: Intent[] | undefined;
    if ('intents' in from) intents = from.intents;
    else {
      let state: BufferedState;
      let called: Guarded;
      if ('snapshot' in from) {
        const data = await from.snapshot;
        state = new BufferedState(this.options.state);
        called = this.guarded(hook, data, state, from.input);
      } else ({ state, called } = from);
      intents = this.landed(hook, called instanceof Promise ? await called : called, state, spent);
    }
    if (intents === undefined) return;
    for (const intent of intents) {
      // Quarantine can begin between intents only through another call; re-checked by the gate.
      try {
        await this.execute(intent);
      } catch (err) {
        this.log.error({ err, intent: intent.type }, 'executing an intent failed');
        this.options.events.engineError(this.id, err);
        return;
      }
    }
  }

  /**
   * The call's intents once its state has landed; undefined when there is nothing to execute (the
   * call failed or returned garbage, it returned none, or intents are not accepted now).
   */
  private landed(hook: Hook, result: GuardedResult<unknown>, state: BufferedState, spent: () => void): Intent[] | undefined {
    const intents = this.intentsOf(hook, result, spent);
    if (intents === undefined) return undefined;
    this.land(state, spent);
    if (!this.options.accepting()) {
      if (intents.length > 0) this.log.info({ hook, dropped: intents.length }, 'not accepting intents (stopping, or paused by the operator): dropped');
      return undefined;
    }
    return intents.length === 0 ? undefined : intents;
  }

  /** The intents of a call; undefined when it failed or returned garbage (reported, its budget spent, its event spent). */
  private intentsOf(hook: Hook, result: GuardedResult<unknown>, spent: () => void): Intent[] | undefined {
    if (!result.ok) {
      spent();
      this.log.warn({ err: result.error, hook }, 'strategy hook failed');
      this.options.events.strategyError(this.id, result.error.code);
      return undefined;
    }
    try {
      return parseIntents(result.value, this.id);
    } catch (err) {
      const e = err instanceof StrategyError ? err : new StrategyError('bad_intent', errorMessage(err), { instanceId: this.id });
      this.log.warn({ err: e, hook }, 'strategy returned invalid intents');
      this.options.events.strategyError(this.id, e.code);
      this.guard.recordFailure(e);
      spent();
      return undefined;
    }
  }

  /** Commits the hook's state and spends its event, as one transaction when the store gives one. */
  private land(state: BufferedState, spent: () => void): void {
    // Nothing changed (keys written back as stored count for nothing) and no event to spend (a
    // tick): no transaction to open.
    const changed = spent === NO_EVENT ? state.keysChanged : -1;
    if (changed === 0) return state.commit();
    // One key and no event: one store write, atomic on its own; a transaction around it adds nothing.
    if (changed === 1) return state.commit();
    const both = (): void => {
      state.commit();
      spent();
    };
    if (this.options.atomically === undefined) both();
    else this.options.atomically(both);
  }

  private refuse(decision: Extract<GateDecision, { ok: false }>, what: string): void {
    this.log.warn({ code: decision.code, detail: decision.detail, what }, 'risk gate refused');
    this.options.events.refusal(this.id, decision.code, `${what}: ${decision.detail}`);
    if (decision.code === 'DRAWDOWN_HALT') this.options.onDrawdown();
  }

  private snap(): RiskSnapshot {
    const s = this.options.risk(this.id);
    // As given unless the guard knows of a quarantine the inputs do not (a spread with more fields is slow on Node 20).
    if (s.strategy.quarantined || !this.guard.quarantined) return s;
    return { ...s, strategy: { ...s.strategy, quarantined: true } };
  }

  /** Not itself async: the promise of the intent's step is handed on as it is (an async wrapper adds turns). */
  private execute(intent: Intent): Promise<void> {
    switch (intent.type) {
      case 'placeLimits':
        return this.placeLimits(intent);
      case 'placeCollateral':
        return this.placeCollateral(intent);
      case 'cancel':
        return this.standing('cancel', 'cancel', () => this.options.orders.cancelOrder(this.id, intent.clientOrderId));
      case 'cancelAll':
        return this.standing('cancel', 'cancelAll', () => this.options.orders.cancelAll(this.id, intent.market));
      case 'closeFlex':
        return this.standing('closeFlex', 'closeFlex', () => this.options.orders.closeFlex(this.id, { plan: intent.plan }));
    }
  }

  /** An intent that needs the instance in good standing only (`what` names it in a refusal). */
  private async standing(action: 'cancel' | 'closeFlex', what: string, act: () => Promise<unknown>): Promise<void> {
    const d = checkStanding(this.snap(), action);
    if (!d.ok) return this.refuse(d, what);
    await act();
  }

  private async placeLimits(intent: PlaceLimitsIntent): Promise<void> {
    const snap = this.snap();
    const orders = intent.orders.map((o) => normalise(o, rules(snap, o.market)));
    const decisions = checkOrders(orders, snap);
    const accepted: LimitOrderSpec[] = [];
    decisions.forEach((d, i) => {
      const o = orders[i];
      if (o === undefined) return;
      if (!d.ok) return this.refuse(d, `limit ${o.side} ${o.market}`);
      // Literals, not a spread of the first: an object spread costs about half a microsecond on Node 20.
      const spec: LimitOrderSpec =
        o.postOnly === undefined
          ? { market: o.market, side: o.side, amount: o.amount, price: o.price }
          : { market: o.market, side: o.side, amount: o.amount, price: o.price, postOnly: o.postOnly };
      accepted.push(spec);
    });
    if (accepted.length === 0) return;
    const outcomes = await this.options.orders.placeLimitOrders(this.id, accepted);
    for (const out of outcomes) this.options.events.placed(this.id, out.status);
  }

  private async placeCollateral(intent: PlaceCollateralIntent): Promise<void> {
    const snap = this.snap();
    const { gate, spec } = collateralOrder(intent, snap);
    const [d] = checkOrders([gate], snap);
    if (d !== undefined && !d.ok) return this.refuse(d, `collateral ${gate.side} ${gate.market}`);
    const out = await this.options.orders.placeCollateralOrder(this.id, spec);
    this.options.events.placed(this.id, out.status);
  }
}
