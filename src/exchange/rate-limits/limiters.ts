/**
 * The request queue of one client: one PoolLimiter per declared pool, built from the table,
 * local or on the shared Redis store.
 */
import type { Clock } from '../../core/clock.js';
import { ConfigError, errorMessage } from '../../core/errors.js';
import { DEFAULT_PAUSE, POOL_NAMES, resolvePools, type PoolName, type PoolStatus, type RateLimitOverrides } from './pools.js';
import { planBucket } from './bucket.js';
import { PoolLimiter } from './pool-limiter.js';
import type { RedisStore } from './redis-store.js';

export interface RequestLimitersOptions {
  overrides: RateLimitOverrides | undefined;
  clock: Clock;
  random: () => number;
  maxQueued: number;
  deadlineMs: number;
  /** Pools that run one job at a time (strict nonces: the pools of private endpoints). */
  serialPools: ReadonlySet<PoolName>;
  /** Heaviest job per pool (bulk weight); 1 where absent. */
  maxWeight: Partial<Record<PoolName, number>>;
  store?: RedisStore | undefined;
  onError?: ((err: unknown) => void) | undefined;
}

export class RequestLimiters {
  readonly pools: Readonly<Record<PoolName, PoolLimiter>>;

  constructor(options: RequestLimitersOptions) {
    const specs = resolvePools(options.overrides);
    const pause = { ...DEFAULT_PAUSE, ...options.overrides?.pause };
    const pools = {} as Record<PoolName, PoolLimiter>;
    for (const name of POOL_NAMES) {
      const maxWeight = options.maxWeight[name] ?? 1;
      // A serial pool's granted jobs may wait for the strict lane before they send: at most one
      // job's weight at a time (maxConcurrent), and the bucket keeps that much out of its bound.
      // (The fast path takes its tokens at the send: fast-path.ts.)
      const lagging = options.serialPools.has(name) ? maxWeight : undefined;
      let plan;
      try {
        plan = planBucket(specs[name], { slack: lagging ?? 0, minCapacity: maxWeight });
      } catch (err) {
        throw new ConfigError(`rateLimits.pools.${name}: ${errorMessage(err)}`, { key: `rateLimits.pools.${name}` });
      }
      pools[name] = new PoolLimiter({
        name,
        spec: specs[name],
        plan,
        clock: options.clock,
        maxQueued: options.maxQueued,
        deadlineMs: options.deadlineMs,
        pause,
        random: options.random,
        maxGrantedWeight: lagging,
        shared: options.store,
        onError: options.onError,
      });
    }
    this.pools = pools;
    options.store?.onChange((up) => {
      if (up) for (const name of POOL_NAMES) pools[name].storeUp();
    });
  }

  /** Calls waiting in all pools together (see PoolLimiter.queued). */
  queued(): number {
    let n = 0;
    for (const name of POOL_NAMES) n += this.pools[name].queued();
    return n;
  }

  status(): Record<PoolName, PoolStatus> {
    const out = {} as Record<PoolName, PoolStatus>;
    for (const name of POOL_NAMES) out[name] = this.pools[name].status();
    return out;
  }

  /** Stops every pool (queued calls fail); resolves when their running jobs are done. */
  async stop(): Promise<void> {
    await Promise.all(POOL_NAMES.map((n) => this.pools[n].stop()));
  }
}
