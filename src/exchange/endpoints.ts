/**
 * The endpoint table and the raw client (docs/architecture.md §8.1): one entry per spec endpoint,
 * and one path for every call: the pool's Bottleneck limiter (or its fast path while the bucket
 * has tokens: rate-limits/fast-path.ts) → (strict nonces) the send lane →
 * (private) sign with a fresh nonce inside the limiter job → HTTP. The raw client returns the
 * HTTP reply unclassified; client.ts classifies, retries reads and parses.
 */
import type { Clock } from '../core/clock.js';
import { BotError, ConfigError } from '../core/errors.js';
import type { Logger } from '../observability/logger.js';
import { isNonceRefusal } from './errors.js';
import type { NonceSource } from './nonce.js';
import type { NonceCollisionWatch, NonceOutcome } from './nonce-watch.js';
import { PRIORITY, type PoolName, type PriorityClass } from './rate-limits/pools.js';
import type { PoolLimiter } from './rate-limits/pool-limiter.js';
import { notSent, type JobTicket } from './rate-limits/ticket.js';
import type { PriorityLock } from './send-lock.js';
import { sign } from './signing.js';
import type { HttpResponse, Transport } from './transport.js';

export type EndpointName =
  | 'ping'
  | 'futures'
  | 'bulkLimitOrders'
  | 'collateralLimitOrder'
  | 'cancelOrder'
  | 'conditionalOrders'
  | 'executedHistory'
  | 'mainBalance'
  | 'flexHistory'
  | 'closeFlex'
  | 'creditLine';

export interface EndpointSpec {
  method: 'GET' | 'POST';
  /** Path with the `/api/v4` prefix (also the signed `request` field). */
  path: string;
  /** Alternative path tried on a 404 (docs/live-service.md §5). */
  fallbackPath?: string;
  pool: PoolName;
  priority: PriorityClass;
  /** Reads retry transient failures; writes are sent exactly once. */
  kind: 'read' | 'write';
  /** Order endpoints map venue codes to `InvalidOrderError` kinds. */
  orderEndpoint: boolean;
}

export const ENDPOINTS: Readonly<Record<EndpointName, EndpointSpec>> = {
  ping: { method: 'GET', path: '/api/v4/public/ping', pool: 'public', priority: 'read', kind: 'read', orderEndpoint: false },
  futures: { method: 'GET', path: '/api/v4/public/futures', pool: 'public', priority: 'read', kind: 'read', orderEndpoint: false },
  bulkLimitOrders: { method: 'POST', path: '/api/v4/order/bulk', pool: 'orders', priority: 'placement', kind: 'write', orderEndpoint: true },
  collateralLimitOrder: {
    method: 'POST',
    path: '/api/v4/order/collateral/limit',
    pool: 'orders',
    priority: 'protective',
    kind: 'write',
    orderEndpoint: true,
  },
  cancelOrder: { method: 'POST', path: '/api/v4/order/cancel', pool: 'orders', priority: 'cancel', kind: 'write', orderEndpoint: true },
  conditionalOrders: {
    method: 'POST',
    path: '/api/v4/orders/conditional',
    fallbackPath: '/api/v4/conditional-orders',
    pool: 'conditional',
    priority: 'read',
    kind: 'read',
    orderEndpoint: false,
  },
  executedHistory: {
    method: 'POST',
    path: '/api/v4/trade-account/executed-history',
    pool: 'executedHistory',
    priority: 'read',
    kind: 'read',
    orderEndpoint: false,
  },
  mainBalance: { method: 'POST', path: '/api/v4/main-account/balance', pool: 'mainBalance', priority: 'read', kind: 'read', orderEndpoint: false },
  flexHistory: {
    method: 'POST',
    path: '/api/v4/main-account/smart-flex/investments/history',
    pool: 'flexHistory',
    priority: 'read',
    kind: 'read',
    orderEndpoint: false,
  },
  closeFlex: {
    method: 'POST',
    path: '/api/v4/main-account/smart-flex/investments/close',
    pool: 'flexClose',
    priority: 'placement',
    kind: 'write',
    orderEndpoint: false,
  },
  creditLine: { method: 'POST', path: '/api/v4/credit-line/loans/info', pool: 'creditLine', priority: 'read', kind: 'read', orderEndpoint: false },
};

export interface Credentials {
  apiKey: string;
  apiSecret: string;
}

export interface RawClientDeps {
  transport: Transport;
  pools: Readonly<Record<PoolName, PoolLimiter>>;
  /** Pool of each endpoint (defaults from ENDPOINTS; overridable). */
  poolOf: Readonly<Record<EndpointName, PoolName>>;
  nonce: NonceSource;
  nonceWindow: boolean;
  /** Returns the credentials, or undefined for a public-only client. Kept in a closure, not a field. */
  credentials: () => Credentials | undefined;
  clock: Clock;
  logger: Logger;
  /** Strict mode: the lane that keeps one private request in flight (see send-lock.ts). */
  sendLock?: PriorityLock | undefined;
  /** Called with each reply's server time (ms) and the local time it arrived. */
  onServerTime?: (serverMs: number, localMs: number) => void;
  /** Hears the venue's verdict on each nonce (second-signer detection). */
  nonceWatch?: NonceCollisionWatch | undefined;
}

/** A reply, and the nonce its request was signed with (private endpoints). */
interface Sent {
  res: HttpResponse;
  nonce: number | undefined;
}

function nonceOutcome(res: HttpResponse): NonceOutcome {
  if (res.status >= 200 && res.status < 300) return 'accepted';
  return res.status === 429 && isNonceRefusal(res.body) ? 'refused' : 'unknown';
}

export interface RawCall {
  endpoint: EndpointName;
  /** Endpoint fields (wire form). GET endpoints take none. */
  fields?: Readonly<Record<string, unknown>>;
  /** Overrides the table's path (conditional fallback). */
  path?: string;
  /** Tokens taken from the pool (bulk weight). Default 1. */
  weight?: number;
  attempt: number;
}

/** One request inside its limiter job. */
interface SendJob {
  call: RawCall;
  method: 'GET' | 'POST';
  path: string;
  creds: Credentials | undefined;
  priority: number;
  ticket: JobTicket;
  pool: PoolName;
}

/** Raw client: sends one request through its pool and returns the unclassified reply. */
export class RawClient {
  constructor(private readonly deps: RawClientDeps) {}

  pool(endpoint: EndpointName): PoolLimiter {
    return this.deps.pools[this.deps.poolOf[endpoint]];
  }

  async call(call: RawCall): Promise<HttpResponse> {
    const spec = ENDPOINTS[call.endpoint];
    const path = call.path ?? spec.path;
    const isPrivate = spec.method === 'POST';
    const creds = isPrivate ? this.deps.credentials() : undefined;
    if (isPrivate && creds === undefined) {
      throw new ConfigError(`${call.endpoint} is a private endpoint: apiKey and apiSecret are required`, { endpoint: call.endpoint });
    }
    const pool = this.pool(call.endpoint);
    const priority = PRIORITY[spec.priority];
    const { res, nonce } = await pool.schedule(priority, call.weight ?? 1, (ticket) =>
      this.sendInLane({ call, method: spec.method, path, creds, priority, ticket, pool: pool.name }),
    );
    if (nonce !== undefined) this.deps.nonceWatch?.observe(nonce, nonceOutcome(res));
    if (res.status >= 200 && res.status < 300) pool.noteSuccess();
    // A gateway 429 (non-JSON) pauses the whole pool; the JSON one is a nonce refusal.
    if (res.status === 429 && !isNonceRefusal(res.body)) pool.pauseFor429(res.retryAfterMs);
    return res;
  }

  /** Inside the limiter job: (strict) wait for the lane, claim the ticket, sign and send. */
  private async sendInLane(job: SendJob): Promise<Sent> {
    // Strict nonces must arrive in order: one private request in flight at a time.
    const lock = job.creds !== undefined ? this.deps.sendLock : undefined;
    const release = lock === undefined ? undefined : (lock.tryAcquire() ?? (await lock.acquire(job.priority)));
    try {
      // The deadline covers the wait for the lane too; after the claim the request leaves.
      job.ticket.claim();
      return await this.send(job);
    } finally {
      release?.();
    }
  }

  private async nextNonce(pool: PoolName): Promise<number> {
    try {
      return await this.deps.nonce.next();
    } catch (err) {
      if (err instanceof BotError) throw err;
      throw notSent(pool, 'store_down', 'no nonce from the shared rate-limit store');
    }
  }

  /** Signs (inside the limiter job and the send lane, so nonces leave in order) and sends. */
  private async send(job: SendJob): Promise<Sent> {
    const { call, method, path, creds } = job;
    let headers: Record<string, string> = {};
    let body: string | undefined;
    let nonce: number | undefined;
    if (creds !== undefined) {
      nonce = await this.nextNonce(job.pool);
      const signed = sign({ apiKey: creds.apiKey, apiSecret: creds.apiSecret, path, fields: call.fields ?? {}, nonce, nonceWindow: this.deps.nonceWindow });
      headers = signed.headers;
      body = signed.body;
    }
    const started = this.deps.clock.now();
    const log = { endpoint: call.endpoint, attempt: call.attempt };
    try {
      const r = await this.deps.transport.request(body === undefined ? { method, path, headers } : { method, path, headers, body });
      const localMs = this.deps.clock.now();
      this.deps.logger.debug({ ...log, status: r.status, durationMs: localMs - started }, 'api request');
      if (r.dateMs !== undefined) this.deps.onServerTime?.(r.dateMs, localMs);
      return { res: r, nonce };
    } catch (err) {
      // Only our own error code is logged, never the error object.
      const code = err instanceof Error && 'code' in err && typeof err.code === 'string' ? err.code : 'UNEXPECTED';
      this.deps.logger.debug({ ...log, status: code, durationMs: this.deps.clock.now() - started }, 'api request');
      throw err;
    }
  }
}
