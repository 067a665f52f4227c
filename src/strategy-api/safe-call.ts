/**
 * Safe hook calls (docs/failure-modes.md #14): every call has a deadline on the injected clock, and
 * every failure (throw, deadline, garbage intents) spends the instance's error budget. When the
 * budget within the window is spent, the instance is quarantined until an operator lifts it
 * (`release`, the console's `unquarantine`) or the process restarts: its hooks are no longer called
 * and its intents refused; its orders stay under the risk rules.
 */
import type { Clock, TimerHandle } from '../core/clock.js';
import { StrategyError, errorMessage } from '../core/errors.js';

export interface HookGuardOptions {
  clock: Clock;
  instanceId: string;
  /** Deadline of one hook call, ms. */
  deadlineMs: number;
  /** Failures within `errorWindowMs` that quarantine the instance. */
  errorBudget: number;
  /** Sliding window of the budget, ms. */
  errorWindowMs: number;
  /** Called once, when the instance becomes quarantined. */
  onQuarantine?: (reason: StrategyError) => void;
}

type Outcome<T> = { kind: 'ok'; value: T } | { kind: 'threw'; err: unknown } | { kind: 'deadline' };
const DEADLINE = { kind: 'deadline' } as const;

/** What a promise's resolution would treat as a thenable: an object or function with a callable `then`. */
export function isThenable(v: unknown): v is PromiseLike<unknown> {
  return (typeof v === 'object' || typeof v === 'function') && v !== null && typeof (v as { then?: unknown }).then === 'function';
}

export type GuardedResult<T> = { ok: true; value: T } | { ok: false; error: StrategyError };

export class HookGuard {
  private failures: number[] = [];
  private quarantinedBy: StrategyError | null = null;

  constructor(private readonly options: HookGuardOptions) {}

  get quarantined(): boolean {
    return this.quarantinedBy !== null;
  }

  /** Failures counted in the current window. */
  get recentFailures(): number {
    this.prune();
    return this.failures.length;
  }

  /**
   * Runs `fn` with the deadline. Never throws: a failure is returned (and counted). At the
   * deadline `onDeadline` is called (a worker-hosted hook is terminated there); without it a hook
   * that hangs is abandoned, not cancelled, and its result ignored.
   */
  async call<T>(hook: string, fn: () => T | Promise<T>, onDeadline?: () => void): Promise<GuardedResult<T>> {
    if (this.quarantinedBy !== null) return this.refusedQuarantined(hook);
    return this.timed(hook, fn, onDeadline, this.options.clock.now());
  }

  /**
   * As `call`, for a hook that runs in this thread: `fn` is called at once, and a result that is
   * not a promise (nor any thenable) is the outcome without a timer or a promise (nothing can
   * interrupt a synchronous call, so `call` gives it the same outcome: its deadline timer cannot
   * fire before the call's continuation). A thenable is awaited against the deadline, counted from
   * the call's start, as `call` does.
   */
  callNow<T>(hook: string, fn: () => T | PromiseLike<T>, onDeadline?: () => void): GuardedResult<T> | Promise<GuardedResult<T>> {
    if (this.quarantinedBy !== null) return this.refusedQuarantined(hook);
    const startMs = this.options.clock.now();
    let value: T | PromiseLike<T>;
    try {
      value = fn();
      if (!isThenable(value)) return { ok: true, value };
    } catch (err) {
      return this.failed(hook, { kind: 'threw', err });
    }
    const pending = value;
    return this.timed(hook, () => pending, onDeadline, startMs);
  }

  private refusedQuarantined(hook: string): GuardedResult<never> {
    const { instanceId } = this.options;
    return { ok: false, error: new StrategyError('quarantined', `strategy ${instanceId} is quarantined`, { instanceId, hook }) };
  }

  /** Runs `fn` against the deadline, due `deadlineMs` after `startMs`. */
  private async timed<T>(hook: string, fn: () => T | PromiseLike<T>, onDeadline: (() => void) | undefined, startMs: number): Promise<GuardedResult<T>> {
    const { clock } = this.options;
    // A bare timer, cleared once the call is over: an aborted sleep would build a DOMException per
    // call. The first of the call and the deadline settles the outcome; the later one is ignored.
    let timer: TimerHandle | undefined;
    const outcome = await new Promise<Outcome<T>>((settle) => {
      timer = clock.setTimeout(() => settle(DEADLINE), Math.max(0, startMs + this.options.deadlineMs - clock.now()));
      Promise.resolve()
        .then(fn)
        .then(
          (value) => settle({ kind: 'ok', value }),
          (err: unknown) => settle({ kind: 'threw', err }),
        );
    });
    if (timer !== undefined) clock.clearTimeout(timer);
    if (outcome.kind === 'deadline') onDeadline?.();
    if (outcome.kind === 'ok') return { ok: true, value: outcome.value };
    return this.failed(hook, outcome);
  }

  /** The failure of a call that threw or passed its deadline, counted against the budget. */
  private failed(hook: string, outcome: Exclude<Outcome<unknown>, { kind: 'ok' }>): GuardedResult<never> {
    const { instanceId } = this.options;
    const error =
      outcome.kind === 'threw'
        ? new StrategyError('threw', `strategy ${instanceId} ${hook} threw: ${errorMessage(outcome.err).slice(0, 200)}`, { instanceId, hook })
        : new StrategyError('deadline', `strategy ${instanceId} ${hook} exceeded ${this.options.deadlineMs} ms`, { instanceId, hook });
    this.recordFailure(error);
    return { ok: false, error };
  }

  /** Counts a failure found after the call (e.g. invalid intents). */
  recordFailure(error: StrategyError): void {
    if (this.quarantinedBy !== null) return;
    this.prune();
    this.failures.push(this.options.clock.now());
    if (this.failures.length >= this.options.errorBudget) {
      this.quarantinedBy = error;
      this.options.onQuarantine?.(error);
    }
  }

  /** Quarantines at once, whatever the budget (a fault raised outside any hook call). */
  quarantine(error: StrategyError): void {
    if (this.quarantinedBy !== null) return;
    this.quarantinedBy = error;
    this.options.onQuarantine?.(error);
  }

  /**
   * Lifts a quarantine (an operator's decision, after fixing the cause): the error budget starts
   * afresh. Returns the error that had quarantined the instance, or null when it was not.
   */
  release(): StrategyError | null {
    const was = this.quarantinedBy;
    this.quarantinedBy = null;
    this.failures = [];
    return was;
  }

  private prune(): void {
    const since = this.options.clock.now() - this.options.errorWindowMs;
    this.failures = this.failures.filter((t) => t > since);
  }
}
