/**
 * Everything between a call and its signature: the pool limiters (local, or on the shared Redis
 * store), the nonce source, the strict-mode send lane and the second-signer watch. The client
 * builds one and hands its parts to the raw client.
 */
import type { Clock } from '../core/clock.js';
import { ConfigError } from '../core/errors.js';
import type { Logger } from '../observability/logger.js';
import { ENDPOINTS, type EndpointName } from './endpoints.js';
import type { NoncePersistence } from '../model/nonce.js';
import { NonceCollisionWatch } from './nonce-watch.js';
import { NonceGenerator, SharedNonce, type NonceMode, type NonceSource } from './nonce.js';
import type { PoolName, PoolStatus, RateLimitOverrides } from './rate-limits/pools.js';
import { RequestLimiters } from './rate-limits/limiters.js';
import type { PoolLimiter } from './rate-limits/pool-limiter.js';
import { RedisStore, type StoreHealth } from './rate-limits/redis-store.js';
import { PriorityLock } from './send-lock.js';

/** Something an operator must hear about; the daemon persists it with the store's alerts. */
export interface ClientAlert {
  kind: 'rate_limit_store_down' | 'rate_limit_store_up' | 'nonce_collision';
  message: string;
}

/** Health of the request queue, for `/healthz` and metrics. */
export interface RequestQueueHealth {
  /** Where the budget lives: this process, or Redis shared by every process on the key. */
  store: StoreHealth['kind'];
  storeUp: boolean;
  /** Clock time the store became unreachable, or null. */
  storeDownSinceMs: number | null;
  /** Nonce refusals suggest another process signs with the same API key. */
  nonceCollisionSuspected: boolean;
  /** Nonce refusals this process could not explain, since start. */
  nonceRefusalsUnexplained: number;
}

export interface RequestQueueOptions {
  apiKey: string | undefined;
  nonceMode: NonceMode;
  rateLimits: RateLimitOverrides | undefined;
  endpointPools: Partial<Record<EndpointName, PoolName>> | undefined;
  maxQueued: number;
  queueDeadlineMs: number;
  noncePersistence: NoncePersistence | undefined;
  nonceReserveAheadMs: number | undefined;
  clock: Clock;
  logger: Logger;
  random: () => number;
  /** Venue clock minus local clock, ms. */
  skewMs: () => number | undefined;
  onAlert: ((alert: ClientAlert) => void) | undefined;
}

function positiveInt(value: number, key: string): number {
  if (!(Number.isInteger(value) && value >= 1)) throw new ConfigError(`${key} must be an integer >= 1`, { key });
  return value;
}

export class RequestQueue {
  readonly pools: Readonly<Record<PoolName, PoolLimiter>>;
  readonly poolOf: Readonly<Record<EndpointName, PoolName>>;
  readonly nonce: NonceSource;
  readonly nonceWindow: boolean;
  /** Strict mode: one private request in flight at a time. */
  readonly sendLock: PriorityLock | undefined;
  readonly nonceWatch: NonceCollisionWatch;
  private readonly limiters: RequestLimiters;
  private readonly store: RedisStore | undefined;
  private wasDown = false;

  constructor(private readonly options: RequestQueueOptions) {
    const { nonceMode, rateLimits, clock } = options;
    this.poolOf = Object.fromEntries(
      (Object.keys(ENDPOINTS) as EndpointName[]).map((e) => [e, options.endpointPools?.[e] ?? ENDPOINTS[e].pool]),
    ) as Record<EndpointName, PoolName>;
    this.store = this.openStore();
    this.nonceWindow = nonceMode === 'window';
    this.sendLock = nonceMode === 'strict' ? new PriorityLock() : undefined;
    this.nonce = this.store === undefined ? this.localNonce() : new SharedNonce((now) => this.store!.nextNonce(now), clock);
    const bulkWeight = positiveInt(rateLimits?.bulkWeight ?? 1, 'rateLimits.bulkWeight');
    this.limiters = new RequestLimiters({
      overrides: rateLimits,
      clock,
      random: options.random,
      maxQueued: positiveInt(options.maxQueued, 'maxQueued'),
      deadlineMs: positiveInt(options.queueDeadlineMs, 'queueDeadlineMs'),
      serialPools: nonceMode === 'strict' ? this.privatePools() : new Set(),
      maxWeight: { [this.poolOf.bulkLimitOrders]: bulkWeight },
      store: this.store,
      onError: (err) => options.logger.debug({ errType: err instanceof Error ? err.name : typeof err }, 'rate-limit datastore error'),
    });
    this.pools = this.limiters.pools;
    this.nonceWatch = new NonceCollisionWatch({
      clock,
      mode: nonceMode,
      skewMs: options.skewMs,
      onSuspected: (message) => this.alert({ kind: 'nonce_collision', message }),
    });
  }

  queued(): number {
    return this.limiters.queued();
  }

  status(): Record<PoolName, PoolStatus> {
    return this.limiters.status();
  }

  health(): RequestQueueHealth {
    const store = this.store?.health() ?? { kind: 'local', up: true, downSinceMs: null };
    const nonce = this.nonceWatch.state();
    return {
      store: store.kind,
      storeUp: store.up,
      storeDownSinceMs: store.downSinceMs,
      nonceCollisionSuspected: nonce.suspected,
      nonceRefusalsUnexplained: nonce.unexplained,
    };
  }

  /** Stops the pools (queued calls fail), lets `abortInFlight` cut running requests, then closes the store. */
  async close(abortInFlight: () => void): Promise<void> {
    const stopping = this.limiters.stop();
    abortInFlight();
    await stopping;
    await this.store?.close();
  }

  /**
   * Several processes on one key cannot keep strict nonces in order (the venue checks the order
   * of arrival), so a shared budget needs window nonces.
   */
  private openStore(): RedisStore | undefined {
    const url = this.options.rateLimits?.redisUrl;
    if (url === undefined) return undefined;
    if (this.options.nonceMode !== 'window') {
      throw new ConfigError('nonceMode: strict nonces cannot be shared across processes; with rateLimits.redisUrl set, nonceMode must be window', {
        key: 'nonceMode',
      });
    }
    if (this.options.apiKey === undefined) throw new ConfigError('rateLimits.redisUrl: a shared budget needs apiKey (its keys are named by its hash)', { key: 'apiKey' });
    const store = new RedisStore(url, this.options.apiKey, this.options.clock);
    store.onChange((up) => this.storeChanged(up));
    return store;
  }

  private storeChanged(up: boolean): void {
    if (!up) this.alert({ kind: 'rate_limit_store_down', message: 'rate-limit store (Redis) unreachable: requests are refused, none is sent, until it returns' });
    else if (this.wasDown) this.alert({ kind: 'rate_limit_store_up', message: 'rate-limit store (Redis) reachable again: requests resume' });
    this.wasDown = !up;
  }

  private alert(alert: ClientAlert): void {
    const log = alert.kind === 'rate_limit_store_up' ? this.options.logger.warn.bind(this.options.logger) : this.options.logger.error.bind(this.options.logger);
    log({ alert: alert.kind }, alert.message);
    try {
      this.options.onAlert?.(alert);
    } catch (err) {
      // Alerts fire from connection events: a failing listener must not become an uncaught error.
      this.options.logger.warn({ alert: alert.kind, errType: err instanceof Error ? err.name : typeof err }, 'alert listener failed');
    }
  }

  private localNonce(): NonceGenerator {
    // Window mode needs unique ms values but no persistence (the venue checks ±5 s, not order).
    const strict = this.options.nonceMode === 'strict';
    return new NonceGenerator({
      clock: this.options.clock,
      persistence: strict ? this.options.noncePersistence : undefined,
      reserveAheadMs: this.options.nonceReserveAheadMs,
    });
  }

  /** Pools of private (signed) endpoints: the ones behind the strict send lane. */
  private privatePools(): Set<PoolName> {
    return new Set((Object.keys(ENDPOINTS) as EndpointName[]).filter((e) => ENDPOINTS[e].method === 'POST').map((e) => this.poolOf[e]));
  }
}
