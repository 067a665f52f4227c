/**
 * The shared budget's store (`RATE_LIMIT_REDIS_URL`): one ioredis client (plus Bottleneck's
 * pub/sub duplicate) that every pool limiter of this process shares, keyed by a hash of the API
 * key and the pool so that every process on one key and IP draws from one budget.
 *
 * Fail closed. ioredis is told never to queue or resend a command while disconnected, so a
 * limiter cannot be granted tokens without a live Redis; on top of that the store tracks its own
 * reachability (connection events and a ping on the injected clock) and the pools refuse new
 * calls, and refuse to send granted ones, while it is down. Listeners hear every change (alerts,
 * health, recovery of the limiters).
 *
 * Nothing secret reaches Redis or a log: keys hold a SHA-256 prefix of the API key, and the URL
 * (which may carry a password) is never logged.
 */
import { createHash } from 'node:crypto';
import type Bottleneck from 'bottleneck';
import * as IORedis from 'ioredis';
import type { Clock, TimerHandle } from '../../core/clock.js';
import { ConfigError, type TransientError } from '../../core/errors.js';
import type { PoolName } from './pools.js';
import { sharedConnection } from './redis-connection.js';
import { notSent } from './ticket.js';

/** Reachability of the rate-limit store, for health and metrics. */
export interface StoreHealth {
  kind: 'local' | 'redis';
  up: boolean;
  /** Clock time the store became unreachable, or null while it is up. */
  downSinceMs: number | null;
}

/** Bottleneck keys expire after this long without a job (Bottleneck's `timeout`), ms. */
const KEY_TTL_MS = 3_600_000;
/** The shared nonce mark expires after this long without a request, ms. */
const NONCE_TTL_MS = 60_000;
const PROBE_MS = 1_000;

/**
 * Shared window-mode nonce: strictly above the last one any process took, and the caller's clock
 * otherwise, so nonces stay unique across processes and within the venue's ±5 s window.
 */
const NONCE_LUA = `
local last = tonumber(redis.call('get', KEYS[1]) or '0')
local n = math.max(tonumber(ARGV[1]), last + 1)
redis.call('set', KEYS[1], string.format('%.0f', n), 'PX', ARGV[2])
return n`;

const CLIENT_OPTIONS: IORedis.RedisOptions = {
  // Never queue or resend a command while disconnected: a grant needs a live Redis.
  enableOfflineQueue: false,
  maxRetriesPerRequest: 0,
  autoResendUnfulfilledCommands: false,
  connectTimeout: 2_000,
  commandTimeout: 2_000,
  // ioredis keeps its own reconnect timer (library-owned, like Bottleneck's heartbeats).
  retryStrategy: (times: number) => Math.min(100 * times, 2_000),
};

/** SHA-256 prefix of the API key: the shared keys name the key without revealing it. */
export function keyHash(apiKey: string): string {
  return createHash('sha256').update(apiKey, 'utf8').digest('hex').slice(0, 16);
}

function checkUrl(url: string): void {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ConfigError('rateLimits.redisUrl: expected a redis:// or rediss:// URL', { key: 'rateLimits.redisUrl' });
  }
  if (parsed.protocol !== 'redis:' && parsed.protocol !== 'rediss:') {
    throw new ConfigError('rateLimits.redisUrl: expected a redis:// or rediss:// URL', { key: 'rateLimits.redisUrl' });
  }
}

export class RedisStore {
  private readonly client: IORedis.Redis;
  private readonly subscriber: IORedis.Redis;
  private readonly connection: Bottleneck.IORedisConnection;
  private readonly prefix: string;
  private readonly listeners: ((up: boolean) => void)[] = [];
  private up = false;
  private everUp = false;
  private probeOk = true;
  private downSinceMs: number | null = null;
  private probeTimer: TimerHandle | undefined;
  private closed = false;

  constructor(
    url: string,
    apiKey: string,
    private readonly clock: Clock,
  ) {
    checkUrl(url);
    this.prefix = `v4bot:${keyHash(apiKey)}`;
    this.client = new IORedis.Redis(url, CLIENT_OPTIONS);
    ({ connection: this.connection, subscriber: this.subscriber } = sharedConnection(this.client, IORedis));
    for (const c of [this.client, this.subscriber]) {
      c.on('ready', () => void this.probe());
      for (const ev of ['close', 'end', 'error']) c.on(ev, () => this.evaluate());
    }
    // Bottleneck re-emits connection errors here; a listener keeps them from going unhandled.
    this.connection.on('error', () => this.evaluate());
    this.armProbe();
  }

  /** Called with the new state on every change of reachability. */
  onChange(listener: (up: boolean) => void): void {
    this.listeners.push(listener);
  }

  /** Options that put a pool's Bottleneck limiter on the shared datastore. */
  limiterOptions(pool: PoolName): Bottleneck.ConstructorOptions {
    return { datastore: 'ioredis', connection: this.connection, id: `${this.prefix}:${pool}`, clearDatastore: false, timeout: KEY_TTL_MS };
  }

  /**
   * New calls are refused while a store that was reachable is down. Before the first connection
   * they queue (bounded by their deadline), so a daemon starting next to Redis is not refused.
   */
  refuseNew(pool: PoolName): TransientError | undefined {
    return this.everUp && !this.up ? this.downError(pool) : undefined;
  }

  /** A granted call is only sent while the store is up. */
  refuseSend(pool: PoolName): TransientError | undefined {
    return this.up ? undefined : this.downError(pool);
  }

  health(): StoreHealth {
    return { kind: 'redis', up: this.up, downSinceMs: this.downSinceMs };
  }

  /** Next window-mode nonce, unique across the processes sharing the key. */
  async nextNonce(nowMs: number): Promise<number> {
    const n = await this.client.eval(NONCE_LUA, 1, `${this.prefix}:nonce`, String(nowMs), String(NONCE_TTL_MS));
    if (typeof n !== 'number' || !Number.isSafeInteger(n)) throw new RangeError('shared nonce: not a safe integer');
    return n;
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.probeTimer !== undefined) this.clock.clearTimeout(this.probeTimer);
    // No flush: QUIT on a dead connection would only wait; state in Redis needs no goodbye.
    await this.connection.disconnect(false);
  }

  private downError(pool: PoolName): TransientError {
    return notSent(pool, 'store_down', 'the shared rate-limit store (Redis) is unreachable');
  }

  private armProbe(): void {
    if (this.closed) return;
    this.probeTimer = this.clock.setTimeout(() => {
      void this.probe().finally(() => this.armProbe());
    }, PROBE_MS);
  }

  /** A ping catches a Redis that hangs without closing the connection (commandTimeout). */
  private async probe(): Promise<void> {
    try {
      await this.client.ping();
      this.probeOk = true;
    } catch {
      this.probeOk = false;
    }
    this.evaluate();
  }

  private evaluate(): void {
    if (this.closed) return;
    const up = this.client.status === 'ready' && this.subscriber.status === 'ready' && this.probeOk;
    if (up === this.up) return;
    this.up = up;
    this.downSinceMs = up ? null : this.clock.now();
    if (up) this.everUp = true;
    for (const l of this.listeners) l(up);
  }
}
