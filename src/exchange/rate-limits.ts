/**
 * Rate limits as data (design.md convention 3): a declared table of pools (spec section 8 +
 * service-notes section 2), each driving one Bottleneck limiter.
 *
 * Sliding-window budget: each pool's Bottleneck reservoir starts at its budget
 * (`floor(limit × safetyMargin)`); a job takes `weight` tokens when it starts, and the tokens come
 * back exactly `windowMs` after the request was sent (a timer on the injected clock). So the
 * weight started within ANY window of `windowMs` never exceeds the budget, not only within
 * aligned windows, while bursts up to the budget still go out at once.
 *
 * Priorities are Bottleneck priorities (lower first): cancels, then protective/collateral orders,
 * then placements, then reads. The queue is bounded (highWater + OVERFLOW: a new job beyond it is
 * refused). A venue rate-limit 429 pauses the pool with exponential backoff and jitter.
 */
import Bottleneck from 'bottleneck';
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

/** Bottleneck priorities (0 = first). */
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

/** One pool: a Bottleneck limiter whose reservoir is refilled on a sliding window. */
export class RatePool {
  readonly name: PoolName;
  readonly budget: number;
  private readonly limiter: Bottleneck;
  private readonly sent: { at: number; weight: number }[] = [];
  private readonly timers = new Set<TimerHandle>();
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
    this.limiter = new Bottleneck({
      maxConcurrent: null,
      reservoir: this.budget,
      highWater: options.maxQueued,
      strategy: Bottleneck.strategy.OVERFLOW,
      rejectOnDrop: true,
    });
  }

  /**
   * Runs `job` when the pool has `weight` tokens, in priority order. `job` receives `markSent`,
   * which it calls right before the request leaves (after signing and any send-lane wait): the
   * tokens come back one window after that moment, so the budget holds for actual send times.
   */
  async schedule<T>(priority: number, weight: number, job: (markSent: () => void) => Promise<T>): Promise<T> {
    if (this.closed) throw new TransientError('rate_limited', `rate-limit pool ${this.name} is closed`, { pool: this.name });
    if (!(weight >= 1) || weight > this.budget) throw new RangeError(`weight ${weight} outside 1..${this.budget} for pool ${this.name}`);
    try {
      return await this.limiter.schedule({ priority, weight }, async () => {
        await this.waitWhilePaused();
        let marked = false;
        const markSent = (): void => {
          if (marked) return;
          marked = true;
          this.recordSend(weight);
        };
        try {
          return await job(markSent);
        } finally {
          // A job that failed before sending still returns its tokens one window later.
          markSent();
        }
      });
    } catch (err) {
      if (err instanceof Bottleneck.BottleneckError) {
        if (this.closed) throw new TransientError('rate_limited', `rate-limit pool ${this.name} is closed`, { pool: this.name });
        throw new TransientError('rate_limited', `local queue of pool ${this.name} is full (${this.options.maxQueued} waiting)`, {
          pool: this.name,
        });
      }
      throw err;
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
    return ms;
  }

  /** A request of this pool succeeded: the backoff starts over. */
  noteSuccess(): void {
    this.consecutive429 = 0;
  }

  status(): PoolStatus {
    const now = this.options.clock.now();
    const from = now - this.options.spec.windowMs;
    while (this.sent.length > 0 && this.sent[0]!.at <= from) this.sent.shift();
    const used = this.sent.reduce((a, s) => a + s.weight, 0);
    return { limit: this.budget, used, queued: this.limiter.queued(), paused: this.pausedUntil > now };
  }

  async stop(): Promise<void> {
    this.closed = true;
    for (const t of this.timers) this.options.clock.clearTimeout(t);
    this.timers.clear();
    await this.limiter.stop({ dropWaitingJobs: true }).catch(() => undefined);
  }

  private async waitWhilePaused(): Promise<void> {
    for (;;) {
      const wait = this.pausedUntil - this.options.clock.now();
      if (wait <= 0) return;
      await this.options.clock.sleep(wait);
    }
  }

  private recordSend(weight: number): void {
    const now = this.options.clock.now();
    this.sent.push({ at: now, weight });
    if (this.sent.length > 4 * this.budget) this.sent.splice(0, this.sent.length - 2 * this.budget);
    const handle = this.options.clock.setTimeout(() => {
      this.timers.delete(handle);
      if (!this.closed) void this.limiter.incrementReservoir(weight);
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
