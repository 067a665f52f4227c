/**
 * Rate limits as data (design.md convention 3): a declared table of pools (spec section 8 +
 * service-notes section 2), each driving one limiter.
 *
 * Sliding-window budget: each pool starts with `floor(limit × safetyMargin)` tokens; a job takes
 * `weight` tokens when it starts, and they come back exactly `windowMs` after its reply arrived
 * (a timer on the injected clock). The venue received a request before its reply left, so the
 * weight the venue receives within ANY window of `windowMs` never exceeds the budget, not only
 * within aligned windows and whatever the network jitter, while bursts up to the budget still go
 * out at once.
 *
 * Priorities (lower first): cancels, then protective/collateral orders, then placements, then
 * reads. The queue is bounded: a job beyond `maxQueued` is refused at once. A venue rate-limit
 * 429 pauses the pool with exponential backoff and jitter.
 *
 * Why not Bottleneck (which the design named): its local datastore yields to the event loop with
 * several `setTimeout(0)` per job, a measured ~5 ms floor on every sequential request (an order
 * or a cancel included); this limiter starts a job synchronously when it has tokens, and runs
 * entirely on the injected clock, so tests drive it with a ManualClock.
 */
import type { Clock, TimerHandle } from '../core/clock.js';
import { TransientError } from '../core/errors.js';

export type PoolName =
  | 'public'
  | 'orders'
  | 'executedHistory'
  | 'conditional'
  | 'mainBalance'
  | 'flexHistory'
  | 'flexClose'
  | 'creditLine';

export interface PoolSpec {
  /** Venue limit, requests per window. */
  limit: number;
  /** Window length, ms. */
  windowMs: number;
  /** Fraction of the limit this client uses (0 < m ≤ 1). Default 0.8. */
  safetyMargin: number;
}

/** The declared table: per IP, per 10 s (service-notes 2). Conditional uses the safe 1 000. */
export const DEFAULT_POOLS: Readonly<Record<PoolName, PoolSpec>> = {
  public: { limit: 2000, windowMs: 10_000, safetyMargin: 0.8 },
  orders: { limit: 10_000, windowMs: 10_000, safetyMargin: 0.8 },
  executedHistory: { limit: 12_000, windowMs: 10_000, safetyMargin: 0.8 },
  conditional: { limit: 1000, windowMs: 10_000, safetyMargin: 0.8 },
  mainBalance: { limit: 1000, windowMs: 10_000, safetyMargin: 0.8 },
  flexHistory: { limit: 1000, windowMs: 10_000, safetyMargin: 0.8 },
  flexClose: { limit: 1000, windowMs: 10_000, safetyMargin: 0.8 },
  creditLine: { limit: 1000, windowMs: 10_000, safetyMargin: 0.8 },
};

export const POOL_NAMES = Object.keys(DEFAULT_POOLS) as PoolName[];

/** Queue priorities (0 = first): cancels, protective orders, placements, reads. */
export const PRIORITY = { cancel: 0, protective: 2, placement: 4, read: 6 } as const;
export type PriorityClass = keyof typeof PRIORITY;

export interface PauseSettings {
  /** First pause after a venue 429, ms. Default 1 000. */
  baseMs: number;
  /** Longest pause, ms. Default 30 000. */
  maxMs: number;
}

export interface PoolStatus {
  /** The budget this client allows itself per window (limit × margin). */
  limit: number;
  /** Weight sent within the last window. */
  used: number;
  /** Jobs waiting in the local queue. */
  queued: number;
  /** True while paused by a venue 429. */
  paused: boolean;
}

export interface PoolOptions {
  name: PoolName;
  spec: PoolSpec;
  clock: Clock;
  /** Queued jobs allowed before new ones are refused. */
  maxQueued: number;
  pause: PauseSettings;
  /** Returns a value in [0, 1); injectable so tests are deterministic. */
  random: () => number;
}

interface Waiter {
  priority: number;
  weight: number;
  start: () => void;
  fail: (err: Error) => void;
}

/**
 * One pool: a priority queue in front of a sliding-window token budget. No timers on the fast
 * path (a job with tokens available starts synchronously); timers only return tokens and end
 * pauses, both on the injected clock.
 */
export class RatePool {
  readonly name: PoolName;
  readonly budget: number;
  private available: number;
  /** One FIFO per priority (index = priority), served lowest index first. */
  private readonly queues: Waiter[][] = Array.from({ length: 10 }, () => []);
  private queuedCount = 0;
  private readonly sent: { at: number; weight: number }[] = [];
  private readonly timers = new Set<TimerHandle>();
  private pauseTimer: TimerHandle | undefined;
  private pausedUntil = 0;
  private consecutive429 = 0;
  private closed = false;

  constructor(private readonly options: PoolOptions) {
    this.name = options.name;
    const { limit, windowMs, safetyMargin } = options.spec;
    if (!(limit >= 1) || !(windowMs >= 1) || !(safetyMargin > 0 && safetyMargin <= 1)) {
      throw new RangeError(`rate-limit pool ${options.name}: bad limit/window/margin`);
    }
    this.budget = Math.max(1, Math.floor(limit * safetyMargin));
    this.available = this.budget;
  }

  /**
   * Runs `job` when the pool has `weight` tokens, in priority order (lower first, FIFO within a
   * priority). `job` receives `markSent`, which it calls right before the request leaves (for
   * the `used` figure); the tokens come back one window after the job finished.
   */
  async schedule<T>(priority: number, weight: number, job: (markSent: () => void) => Promise<T>): Promise<T> {
    if (this.closed) throw this.closedError();
    if (!(Number.isInteger(weight) && weight >= 1) || weight > this.budget) {
      throw new RangeError(`weight ${weight} outside 1..${this.budget} for pool ${this.name}`);
    }
    if (!(Number.isInteger(priority) && priority >= 0 && priority <= 9)) throw new RangeError('priority must be 0..9');
    await this.acquire(priority, weight);
    let marked = false;
    const markSent = (): void => {
      if (marked) return;
      marked = true;
      this.recordSend(weight);
    };
    try {
      return await job(markSent);
    } finally {
      markSent();
      // Tokens come back one window after the reply (or failure), not after sending: the venue
      // received the request before the reply left, so two requests sharing a token arrive at
      // least a window apart whatever the network jitter.
      this.returnLater(weight);
    }
  }

  /** A venue 429 (non-JSON): pause the pool with exponential backoff and jitter. Returns the pause, ms. */
  pauseFor429(retryAfterMs?: number): number {
    this.consecutive429 += 1;
    const { baseMs, maxMs } = this.options.pause;
    const exp = Math.min(maxMs, baseMs * 2 ** (this.consecutive429 - 1));
    const jittered = Math.round(exp * (0.5 + 0.5 * this.options.random()));
    const ms = Math.max(jittered, retryAfterMs ?? 0);
    this.pausedUntil = Math.max(this.pausedUntil, this.options.clock.now() + ms);
    this.armPauseTimer();
    return ms;
  }

  /** A request of this pool succeeded: the backoff starts over. */
  noteSuccess(): void {
    this.consecutive429 = 0;
  }

  status(): PoolStatus {
    const now = this.options.clock.now();
    this.forgetOldSends(now);
    const used = this.sent.reduce((a, s) => a + s.weight, 0);
    return { limit: this.budget, used, queued: this.queuedCount, paused: this.pausedUntil > now };
  }

  /** Refuses queued and future jobs and cancels the pool's timers. */
  async stop(): Promise<void> {
    this.closed = true;
    for (const t of this.timers) this.options.clock.clearTimeout(t);
    this.timers.clear();
    if (this.pauseTimer !== undefined) this.options.clock.clearTimeout(this.pauseTimer);
    const err = this.closedError();
    for (const q of this.queues) for (const w of q.splice(0)) w.fail(err);
    this.queuedCount = 0;
  }

  private closedError(): TransientError {
    return new TransientError('rate_limited', `rate-limit pool ${this.name} is closed`, { pool: this.name });
  }

  private paused(): boolean {
    return this.pausedUntil > this.options.clock.now();
  }

  private acquire(priority: number, weight: number): Promise<void> {
    if (this.queuedCount === 0 && !this.paused() && this.available >= weight) {
      this.available -= weight;
      return Promise.resolve();
    }
    if (this.queuedCount >= this.options.maxQueued) {
      return Promise.reject(
        new TransientError('rate_limited', `local queue of pool ${this.name} is full (${this.options.maxQueued} waiting)`, { pool: this.name }),
      );
    }
    return new Promise<void>((resolve, reject) => {
      this.queues[priority]!.push({ priority, weight, start: resolve, fail: reject });
      this.queuedCount += 1;
      this.drain();
    });
  }

  /** Starts queued jobs in priority order while tokens last and the pool is not paused. */
  private drain(): void {
    if (this.closed) return;
    if (this.paused()) {
      this.armPauseTimer();
      return;
    }
    for (;;) {
      const q = this.queues.find((x) => x.length > 0);
      const head = q?.[0];
      if (q === undefined || head === undefined || head.weight > this.available) return;
      q.shift();
      this.queuedCount -= 1;
      this.available -= head.weight;
      head.start();
    }
  }

  private armPauseTimer(): void {
    if (this.pauseTimer !== undefined) this.options.clock.clearTimeout(this.pauseTimer);
    this.pauseTimer = this.options.clock.setTimeout(() => {
      this.pauseTimer = undefined;
      this.drain();
    }, Math.max(0, this.pausedUntil - this.options.clock.now()));
  }

  /**
   * Sends older than one window no longer count. Pruned on every send, not only when someone asks
   * for the status: a daemon whose metrics are never scraped kept every send (the soak bench
   * found the heap growing by each request's record).
   */
  private recordSend(weight: number): void {
    const now = this.options.clock.now();
    this.sent.push({ at: now, weight });
    this.forgetOldSends(now);
  }

  private forgetOldSends(now: number): void {
    const from = now - this.options.spec.windowMs;
    let drop = 0;
    while (drop < this.sent.length && this.sent[drop]!.at <= from) drop++;
    if (drop > 0) this.sent.splice(0, drop);
  }

  /** Number of sends remembered (all within the last window); for tests of the bound. */
  get remembered(): number {
    return this.sent.length;
  }

  private returnLater(weight: number): void {
    const handle = this.options.clock.setTimeout(() => {
      this.timers.delete(handle);
      this.available += weight;
      this.drain();
    }, this.options.spec.windowMs);
    this.timers.add(handle);
  }
}

export interface RateLimitOverrides {
  /** Per-pool overrides of limit, windowMs, safetyMargin. */
  pools?: Partial<Record<PoolName, Partial<PoolSpec>>>;
  /** Weight of one bulk request in the orders pool (service-notes 2: undocumented). Default 1. */
  bulkWeight?: number;
  /** Backoff of a venue 429 pause. */
  pause?: Partial<PauseSettings>;
}

export function resolvePools(overrides: RateLimitOverrides | undefined): Record<PoolName, PoolSpec> {
  const out = {} as Record<PoolName, PoolSpec>;
  for (const name of POOL_NAMES) out[name] = { ...DEFAULT_POOLS[name], ...(overrides?.pools?.[name] ?? {}) };
  return out;
}
