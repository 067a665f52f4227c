/**
 * Rate limits as data (docs/architecture.md §8.3): the declared table of pools (docs/api-v4.md §8 +
 * docs/live-service.md §2). Each pool becomes one Bottleneck limiter (this folder: the token
 * bucket in bucket.ts, the limiter in pool-limiter.ts, the shared Redis store in redis-store.ts).
 *
 * Priorities (lower first): cancels, then protective/collateral orders, then placements, then
 * reads. The queue is bounded; a venue rate-limit 429 pauses the pool with backoff.
 */

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

/** The declared table: per IP, per 10 s (docs/live-service.md §2). Conditional uses the safe 1 000. */
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

/** Queue priorities (Bottleneck's 0-9, 0 = first): cancels, protective orders, placements, reads. */
export const PRIORITY = { cancel: 0, protective: 2, placement: 4, read: 6 } as const;
export type PriorityClass = keyof typeof PRIORITY;

export interface PauseSettings {
  /** First pause after a venue 429, ms. Default 1 000. */
  baseMs: number;
  /** Longest backoff pause, ms. Default 30 000. */
  maxMs: number;
  /** Longest pause a `Retry-After` header can ask for, ms. Default 60 000. */
  maxRetryAfterMs: number;
}

export const DEFAULT_PAUSE: PauseSettings = { baseMs: 1000, maxMs: 30_000, maxRetryAfterMs: 60_000 };

export interface PoolStatus {
  /** The budget this client allows itself per window (limit × margin). */
  limit: number;
  /** Weight this process sent within the last window. */
  used: number;
  /** Jobs waiting in this process's queue. */
  queued: number;
  /** True while the pool is paused after a venue 429 (or its shared bucket is below zero). */
  paused: boolean;
  /** Jobs refused by the bounded queue since start. */
  refused: number;
}

export interface RateLimitOverrides {
  /** Per-pool overrides of limit, windowMs, safetyMargin. */
  pools?: Partial<Record<PoolName, Partial<PoolSpec>>>;
  /** Weight of one bulk request in the orders pool (docs/live-service.md §2: undocumented). Default 1. */
  bulkWeight?: number;
  /** Backoff of a venue 429 pause and the cap on `Retry-After`. */
  pause?: Partial<PauseSettings>;
  /**
   * `redis://` or `rediss://` URL: every pool's bucket lives in Redis, shared by all processes
   * using the same API key (needs window nonces). Unset: buckets are local to this process.
   */
  redisUrl?: string | undefined;
}

export function resolvePools(overrides: RateLimitOverrides | undefined): Record<PoolName, PoolSpec> {
  const out = {} as Record<PoolName, PoolSpec>;
  for (const name of POOL_NAMES) out[name] = { ...DEFAULT_POOLS[name], ...(overrides?.pools?.[name] ?? {}) };
  return out;
}
