/**
 * The caller's side of one queued request: a deadline while it waits, and the claim the job
 * makes right before it signs. A call that waited too long fails with a clear error instead of
 * hanging; the job, when Bottleneck finally starts it, finds the ticket abandoned and sends
 * nothing (its tokens are spent, never over-spent).
 */
import type { Clock, TimerHandle } from '../../core/clock.js';
import { TransientError } from '../../core/errors.js';
import type { PoolName } from './pools.js';

/** Why a request was not sent. */
export type NotSentReason = 'queue_full' | 'deadline' | 'store_down' | 'closed';

/**
 * A request refused before it left: kind `rate_limited` (the engine files it as "not sent",
 * never as an unknown outcome), with the pool and the reason in the context.
 */
export function notSent(pool: PoolName, reason: NotSentReason, message: string): TransientError {
  return new TransientError('rate_limited', `${pool}: ${message} (not sent)`, { pool, reason });
}

export interface TicketDeps {
  pool: PoolName;
  clock: Clock;
  deadlineMs: number;
  /** Why the request may not leave right now (pool closed, shared store down), if it may not. */
  refuse: () => TransientError | undefined;
  /** Called once when the request is about to leave. */
  onSend: () => void;
}

/** Thrown by claim() on the fast path when the tokens are gone: nothing was sent, queue the call. */
export class TokensGone extends Error {}

export class JobTicket {
  private state: 'waiting' | 'claimed' | 'abandoned' = 'waiting';
  private timer: TimerHandle | undefined;
  private expiry: Promise<never> | undefined;
  /** Fast path: takes the tokens at the claim (false: none left). Unset once Bottleneck granted them. */
  takeAtClaim: (() => boolean) | undefined;

  constructor(private readonly deps: TicketDeps) {}

  /**
   * Starts the deadline (from now) and returns a promise that rejects when it passes before the
   * claim. Lazy: a call sent at once (the fast path) never pays for a timer or a promise.
   */
  expired(): Promise<never> {
    if (this.expiry !== undefined) return this.expiry;
    let fail: (err: Error) => void = () => undefined;
    this.expiry = new Promise<never>((_, reject) => {
      fail = reject;
    });
    // Raced by the caller; this handler only keeps an unraced rejection from being "unhandled".
    this.expiry.catch(() => undefined);
    if (this.state !== 'waiting') return this.expiry;
    this.timer = this.deps.clock.setTimeout(() => {
      if (this.state !== 'waiting') return;
      this.state = 'abandoned';
      // A closed pool or an unreachable store is the more useful reason, when there is one.
      fail(this.deps.refuse() ?? this.deadlineError());
    }, this.deps.deadlineMs);
    return this.expiry;
  }

  /** True once the job claimed the ticket (the request is leaving). */
  get claimed(): boolean {
    return this.state === 'claimed';
  }

  /**
   * The job is about to sign and send. Throws (and the job must send nothing) when the caller
   * already gave up, when the pool closed, or when the shared store went down after Bottleneck
   * granted the tokens.
   */
  claim(): void {
    if (this.state === 'abandoned') throw this.deadlineError();
    const refusal = this.deps.refuse();
    if (refusal !== undefined) throw refusal;
    if (this.takeAtClaim?.() === false) throw new TokensGone('no tokens left at the claim');
    this.state = 'claimed';
    this.dispose();
    this.deps.onSend();
  }

  dispose(): void {
    if (this.timer !== undefined) this.deps.clock.clearTimeout(this.timer);
    this.timer = undefined;
  }

  private deadlineError(): TransientError {
    return notSent(this.deps.pool, 'deadline', `still queued after ${this.deps.deadlineMs} ms`);
  }
}
