/**
 * One sink's delivery: a bounded in-memory queue drained one event at a time, each attempt under
 * a timeout on the injected Clock, failures retried with exponential backoff and jitter (or after
 * the receiver's `retry_after`), up to `maxAttempts`. `push` never waits and never throws, so the
 * engine calling it cannot be delayed by a slow or unreachable receiver. The queue is memory
 * only: what is still queued when the daemon stops is lost (counted, logged).
 */
import type { Clock } from '../core/clock.js';
import type { Logger } from '../observability/logger.js';
import type { NotifyMetrics } from '../observability/notify-metrics.js';
import { backoffMs, type BackoffPolicy, type Random } from './backoff.js';
import { priorityOf, type NotifyEvent } from './events.js';
import { BoundedQueue } from './queue.js';
import { safeErrorText, type SendResult, type Sink } from './sink.js';

export interface DeliveryPolicy extends BackoffPolicy {
  /** Most events waiting per sink. */
  capacity: number;
  /** Attempts per event, the first included. */
  maxAttempts: number;
  /** One attempt's deadline, ms. */
  timeoutMs: number;
  /** Longest wait a receiver's `retry_after` may impose, ms. */
  maxRetryAfterMs: number;
}

export const DEFAULT_DELIVERY: DeliveryPolicy = {
  capacity: 500,
  maxAttempts: 6,
  timeoutMs: 10_000,
  baseMs: 1_000,
  maxMs: 60_000,
  maxRetryAfterMs: 300_000,
};

interface Queued {
  readonly priority: number;
  readonly event: NotifyEvent;
}

export interface ChannelDeps {
  sink: Sink;
  clock: Clock;
  logger: Logger;
  metrics: NotifyMetrics;
  random: Random;
  policy?: Partial<DeliveryPolicy>;
}

class AttemptTimeout extends Error {
  override readonly name = 'TimeoutError';
}

/** Why an attempt was cut short: our own deadline (said with its length), or the stop. */
function abortText(reason: unknown): string {
  return reason instanceof AttemptTimeout ? `timeout (${reason.message})` : safeErrorText(reason);
}

export class Channel {
  private readonly queue: BoundedQueue<Queued>;
  private readonly policy: DeliveryPolicy;
  private readonly stopping = new AbortController();
  /** True from the push that starts delivery until the queue is empty (cleared in the same step as the last shift). */
  private running = false;
  private pumping: Promise<void> = Promise.resolve();
  private overflowing = false;

  constructor(private readonly deps: ChannelDeps) {
    this.policy = { ...DEFAULT_DELIVERY, ...deps.policy };
    this.queue = new BoundedQueue(this.policy.capacity);
  }

  get name(): string {
    return this.deps.sink.name;
  }

  /** Events waiting (the one being delivered not included). */
  get queued(): number {
    return this.queue.size;
  }

  /** Queues `e` and starts delivery if idle. Never waits, never throws. */
  push(e: NotifyEvent): void {
    if (this.stopping.signal.aborted) return;
    const dropped = this.queue.push({ priority: priorityOf(e), event: e });
    if (dropped !== null) this.overflow(dropped.event);
    this.deps.metrics.setQueued(this.name, this.queue.size);
    if (this.running) return;
    this.running = true;
    this.pumping = this.pump();
  }

  /** One log line per overflow episode (the metric counts every drop); the episode ends when the queue empties. */
  private overflow(dropped: NotifyEvent): void {
    this.deps.metrics.drop(this.name, 'queue_full');
    if (this.overflowing) return;
    this.overflowing = true;
    this.deps.logger.warn({ sink: this.name, capacity: this.policy.capacity, dropped: dropped.type }, 'notification queue full: dropping the oldest of the lowest priority (counted in bot_notifications_dropped_total)');
  }

  private async pump(): Promise<void> {
    try {
      for (let item = this.queue.shift(); item !== undefined; item = this.queue.shift()) {
        this.deps.metrics.setQueued(this.name, this.queue.size);
        await this.deliver(item.event);
        if (this.stopping.signal.aborted) return;
      }
      this.overflowing = false;
    } finally {
      // Synchronously with the empty shift: a push after this starts a new pump, never finds a stale one.
      this.running = false;
    }
  }

  private async attempt(e: NotifyEvent): Promise<SendResult> {
    const ac = new AbortController();
    const timer = this.deps.clock.setTimeout(() => ac.abort(new AttemptTimeout(`no answer within ${this.policy.timeoutMs} ms`)), this.policy.timeoutMs);
    const stop = (): void => ac.abort(this.stopping.signal.reason);
    this.stopping.signal.addEventListener('abort', stop, { once: true });
    // A sink that ignores the signal still cannot hold the queue past the deadline.
    const aborted = new Promise<SendResult>((resolve) => {
      ac.signal.addEventListener('abort', () => resolve({ ok: false, retry: true, error: abortText(ac.signal.reason) }), { once: true });
    });
    try {
      const sent = this.deps.sink.send(e, ac.signal).catch((err: unknown): SendResult => ({ ok: false, retry: true, error: safeErrorText(err) }));
      return await Promise.race([sent, aborted]);
    } finally {
      this.deps.clock.clearTimeout(timer);
      this.stopping.signal.removeEventListener('abort', stop);
    }
  }

  private async deliver(e: NotifyEvent): Promise<void> {
    const { maxAttempts } = this.policy;
    for (let n = 1; n <= maxAttempts; n++) {
      const r = await this.attempt(e);
      if (r.ok) return void this.deps.metrics.delivered(this.name);
      if (this.stopping.signal.aborted) return;
      if (!r.retry || n === maxAttempts) {
        this.deps.metrics.drop(this.name, 'failed');
        this.deps.logger.warn({ sink: this.name, event: e.type, attempts: n, error: r.error }, `notification not delivered (${r.error})`);
        return;
      }
      const wait = Math.max(backoffMs(n, this.policy, this.deps.random), Math.min(r.retryAfterMs ?? 0, this.policy.maxRetryAfterMs));
      // The first failure of an event says why at once (ECONNREFUSED, HTTP 503, timeout): the
      // last attempt may be minutes away. Later retries of the same event are debug detail.
      const level = n === 1 ? 'warn' : 'debug';
      this.deps.logger[level]({ sink: this.name, event: e.type, attempt: n, error: r.error, retryInMs: wait }, `notification failed (${r.error}); retrying`);
      this.deps.metrics.retried(this.name);
      try {
        await this.deps.clock.sleep(wait, this.stopping.signal);
      } catch {
        return;
      }
    }
  }

  /**
   * Waits up to `flushMs` (clock time) for the queue to drain, then stops: the attempt in flight
   * is aborted and what is left is dropped (counted as `shutdown`). Returns how many were lost.
   */
  async close(flushMs: number): Promise<number> {
    if (this.running && flushMs > 0) {
      const deadline = new AbortController();
      await Promise.race([this.pumping, this.deps.clock.sleep(flushMs, deadline.signal).catch(() => undefined)]);
      deadline.abort();
    }
    const inFlight = this.running ? 1 : 0;
    this.stopping.abort(new Error('notifier stopped'));
    const lost = this.queue.clear().length + inFlight;
    this.deps.metrics.drop(this.name, 'shutdown', lost);
    this.deps.metrics.setQueued(this.name, 0);
    return lost;
  }
}
