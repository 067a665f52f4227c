/**
 * `createApiClient(options)`: the API v4 client, one method per endpoint in domain types, over
 * the raw client (endpoints.ts), with operational extras (rate-limit status, clock skew, close).
 * It composes the endpoint families of calls/ (orders, history, account) over one set of request
 * paths (calls/request-paths.ts).
 *
 * Reads retry `TransientError` (timeouts, resets, 5xx, gateway 429, malformed replies) with
 * exponential backoff and jitter up to `retry.attempts` requests. Writes are sent exactly once: a
 * reply that is lost or unreadable after the request may have left becomes
 * `AmbiguousOutcomeError` carrying the clientOrderIds involved; a refusal keeps its class. A
 * refusal is only ever a well-formed venue error (errors.ts), and a reply counts as the order's
 * only when it is about that order (reply-match.ts, bulk/reply.ts). Replies that look like
 * failures but carry a meaning come from one table (quirks.ts).
 */
import { inspect } from 'node:util';
import { SystemClock, type Clock } from '../core/clock.js';
import type { Decimal } from '../core/decimal.js';
import { ConfigError, errorMessage } from '../core/errors.js';
import type { ConditionalPage } from '../model/conditional.js';
import type { CreditLineState } from '../model/credit.js';
import type { ExecutedHistoryQuery, Fill } from '../model/fills.js';
import type { FlexHistoryQuery, FlexPage } from '../model/flex.js';
import type { FuturesMarket } from '../model/markets.js';
import type { NoncePersistence } from '../model/nonce.js';
import type { BulkItemResult, BulkOptions, CancelRequest, VenueOrder } from '../model/venue-orders.js';
import { silentLogger, type Logger } from '../observability/logger.js';
import * as account from './calls/account.js';
import * as history from './calls/history.js';
import * as orders from './calls/orders.js';
import { DEFAULT_RETRY, RequestPaths, type RetryOptions } from './calls/request-paths.js';
import { SkewMeter } from './clock-skew.js';
import { ENDPOINTS, RawClient, type EndpointName } from './endpoints.js';
import type { NonceMode } from './nonce.js';
import { PathFallback } from './path-fallback.js';
import type { CollateralOrderInput, ConditionalQuery, LimitOrderInput } from './requests.js';
import type { PoolName, PoolStatus, RateLimitOverrides } from './rate-limits/pools.js';
import { RequestQueue, type ClientAlert, type RequestQueueHealth } from './request-queue.js';
import { Transport } from './transport.js';

export type { RetryOptions } from './calls/request-paths.js';

export interface ApiClientOptions {
  /** Either regional base address, e.g. `https://host` (a trailing slash is fine). */
  baseUrl: string;
  /** Public API key; required for private endpoints (else `ConfigError`). */
  apiKey?: string;
  /** API secret; required for private endpoints. Never logged, never in errors. */
  apiSecret?: string;
  timeouts?: {
    /** TCP/TLS connect timeout, ms. Default 3 000. */
    connectMs?: number;
    /** Time from sending until the whole reply arrived, ms. Default 10 000. */
    responseMs?: number;
  };
  retry?: Partial<RetryOptions>;
  /** Per-pool overrides, bulk weight, 429 pause backoff and Retry-After cap, shared Redis store. */
  rateLimits?: RateLimitOverrides;
  /** Move endpoints to other pools (e.g. if the venue changes its pools). */
  endpointPools?: Partial<Record<EndpointName, PoolName>>;
  /**
   * `strict` (default): each nonce must exceed the last one the venue saw, so private requests
   * are sent one at a time (they must arrive in order). `window`: signs `"nonceWindow": true`;
   * unique ms nonces within ±5 s of server time, private requests run concurrently. A shared
   * Redis budget (`rateLimits.redisUrl`) needs `window`.
   */
  nonceMode?: NonceMode;
  /** Where the nonce high-water mark is persisted (strict mode). */
  noncePersistence?: NoncePersistence;
  /** How far ahead the persisted nonce mark is reserved, ms. Default 10 000. */
  nonceReserveAheadMs?: number;
  /** Queued requests per pool before new ones are refused (`TransientError('rate_limited')`). Default 1 000. */
  maxQueued?: number;
  /** How long a call may wait in its pool's queue before it fails unsent (`TransientError('rate_limited')`), ms. Default 30 000. */
  queueDeadlineMs?: number;
  /** Hears alerts an operator must see (shared store down or back, a second signer on the key). */
  onAlert?: (alert: ClientAlert) => void;
  clock?: Clock;
  logger?: Logger;
  /** Jitter source in [0, 1). Default Math.random; tests inject a fixed one. */
  random?: () => number;
}

/**
 * The client: one method per spec endpoint, in domain types, plus operational extras. The engine
 * does not use it directly but through the `ExchangeGateway` port (venue-gateway.ts). A library
 * user may leave out what the bot always sends (requests.ts: a clientOrderId on orders, a market
 * on the conditional listing).
 */
export interface ApiClient {
  ping(): Promise<void>;
  futures(): Promise<FuturesMarket[]>;
  /**
   * Splits into chunks of ≤ 20 sent in order; results keep request order. Throws only for local
   * validation before anything is sent; once sending starts every item carries its outcome. An
   * order without clientOrderId is matched by position (bulk/reply.ts).
   */
  bulkLimitOrders(orders: readonly LimitOrderInput[], options?: BulkOptions): Promise<BulkItemResult[]>;
  /** Without `clientOrderId` the body has none. */
  collateralLimitOrder(order: CollateralOrderInput): Promise<VenueOrder>;
  cancelOrder(request: CancelRequest): Promise<VenueOrder>;
  /** One page of the conditional listing (its fallback path is found and remembered here); without `market` every market. */
  conditionalOrders(query?: ConditionalQuery): Promise<ConditionalPage>;
  /**
   * Flat or keyed replies are both flattened into one list, newest first as served. With
   * `clientOrderId`, the venue's "OrderHistory was not found." (422, code 30) is an empty list.
   */
  executedHistory(query?: ExecutedHistoryQuery): Promise<Fill[]>;
  /** All balances (asset → amount); omitted assets are zero. */
  mainBalance(): Promise<Map<string, Decimal>>;
  mainBalance(ticker: string): Promise<Decimal>;
  flexHistory(query?: FlexHistoryQuery): Promise<FlexPage>;
  closeFlex(plan: string): Promise<{ transactionId: string }>;
  creditLine(): Promise<CreditLineState>;
  /** Per pool: budget per window, weight used in the current (sliding) window, queued, paused, refused. */
  rateLimitStatus(): Record<PoolName, PoolStatus>;
  /**
   * Calls waiting in any rate-limit pool: the sum of `rateLimitStatus()`'s `queued` without its
   * bucket refresh, for a caller polling every event-loop turn (the backtest's settle loop).
   */
  rateLimitQueued(): number;
  /** Reachability of the rate-limit store and the second-signer watch. */
  requestQueueHealth(): RequestQueueHealth;
  /**
   * Server time minus local time, ms, from the last reply's `Date` header (1 s resolution), or
   * undefined before any reply. Window-mode nonces need |skew| < 5 s.
   */
  clockSkewMs(): number | undefined;
  /**
   * How many replies carried a `Date` header more than a day from local time. Those are ignored
   * for `clockSkewMs()` (a broken proxy header, not a skew) and the first is logged as a warning;
   * a rising count is worth an alert.
   */
  clockSkewRejected(): number;
  /** The last nonce used (0 before any private call). */
  lastNonce(): number;
  /** Stops the limiters (queued calls fail), destroys the keep-alive agent, closes the shared store. */
  close(): Promise<void>;
}

/** After the conditional listing's spec path answered 404, it is tried again this much later, ms. */
const CONDITIONAL_PATH_RETRY_MS = 3_600_000;

/** Checks the base address and that key and secret come together; true when they are given. */
function checkCredentials(options: ApiClientOptions): boolean {
  if (typeof options.baseUrl !== 'string' || options.baseUrl === '') throw new ConfigError('baseUrl is required', { key: 'baseUrl' });
  const hasKey = options.apiKey !== undefined && options.apiKey !== '';
  const hasSecret = options.apiSecret !== undefined && options.apiSecret !== '';
  if (hasKey !== hasSecret) throw new ConfigError('apiKey and apiSecret must be given together', { key: hasKey ? 'apiSecret' : 'apiKey' });
  return hasKey;
}

export function createApiClient(options: ApiClientOptions): ApiClient {
  return new ApiClientImpl(options);
}

class ApiClientImpl implements ApiClient {
  private readonly clock: Clock;
  private readonly logger: Logger;
  private readonly random: () => number;
  private readonly transport: Transport;
  private readonly queue: RequestQueue;
  private readonly calls: RequestPaths;
  private readonly bulkWeight: number;
  private readonly conditionalRoute = new PathFallback(ENDPOINTS.conditionalOrders.path, ENDPOINTS.conditionalOrders.fallbackPath!, CONDITIONAL_PATH_RETRY_MS);
  private readonly skew = new SkewMeter(() => this.logger);

  constructor(options: ApiClientOptions) {
    const hasKey = checkCredentials(options);
    this.clock = options.clock ?? new SystemClock();
    this.logger = options.logger ?? silentLogger();
    this.random = options.random ?? Math.random;
    const retry: RetryOptions = { ...DEFAULT_RETRY, ...options.retry };
    if (!(Number.isInteger(retry.attempts) && retry.attempts >= 1)) throw new ConfigError('retry.attempts must be an integer >= 1', { key: 'retry.attempts' });
    this.transport = this.openTransport(options);
    this.bulkWeight = options.rateLimits?.bulkWeight ?? 1;
    this.queue = this.openQueue(options, hasKey);
    // The credentials live in this closure only: not an enumerable field a dump could print.
    const creds = hasKey ? { apiKey: options.apiKey!, apiSecret: options.apiSecret! } : undefined;
    const raw = new RawClient({
      transport: this.transport,
      pools: this.queue.pools,
      poolOf: this.queue.poolOf,
      nonce: this.queue.nonce,
      nonceWindow: this.queue.nonceWindow,
      sendLock: this.queue.sendLock,
      nonceWatch: this.queue.nonceWatch,
      credentials: () => creds,
      clock: this.clock,
      logger: this.logger,
      onServerTime: (serverMs, localMs) => {
        this.skewMs = serverMs - localMs;
      },
    });
    this.calls = new RequestPaths({ raw, clock: this.clock, retry, random: this.random });
  }

  private openQueue(options: ApiClientOptions, hasKey: boolean): RequestQueue {
    const nonceMode = options.nonceMode ?? 'strict';
    if (nonceMode !== 'strict' && nonceMode !== 'window') throw new ConfigError('nonceMode must be strict or window', { key: 'nonceMode' });
    return new RequestQueue({
      apiKey: hasKey ? options.apiKey : undefined,
      nonceMode,
      rateLimits: options.rateLimits,
      endpointPools: options.endpointPools,
      maxQueued: options.maxQueued ?? 1000,
      queueDeadlineMs: options.queueDeadlineMs ?? 30_000,
      noncePersistence: options.noncePersistence,
      nonceReserveAheadMs: options.nonceReserveAheadMs,
      clock: this.clock,
      logger: this.logger,
      random: this.random,
      skewMs: () => this.skewMs,
      onAlert: options.onAlert,
    });
  }

  private openTransport(options: ApiClientOptions): Transport {
    try {
      return new Transport({
        baseUrl: options.baseUrl,
        clock: this.clock,
        connectMs: options.timeouts?.connectMs ?? 3000,
        responseMs: options.timeouts?.responseMs ?? 10_000,
      });
    } catch (err) {
      throw new ConfigError(`baseUrl: ${errorMessage(err)}`, { key: 'baseUrl' });
    }
  }

  // ---- operational extras ----

  /**
   * A safe summary for logs and dumps. The object graph below (the keep-alive agent's sockets)
   * holds the last request's headers, so printing the client itself must never walk into it.
   */
  toJSON(): Record<string, unknown> {
    return { type: 'ApiClient', pools: this.rateLimitStatus() };
  }

  [inspect.custom](): string {
    return 'ApiClient { [internals hidden] }';
  }

  rateLimitStatus(): Record<PoolName, PoolStatus> {
    return this.queue.status();
  }

  rateLimitQueued(): number {
    return this.queue.queued();
  }

  requestQueueHealth(): RequestQueueHealth {
    return this.queue.health();
  }

  /**
   * The constructor's reply hook assigns each measurement here; it goes through the meter, which
   * keeps only plausible ones.
   */
  private set skewMs(ms: number) {
    this.skew.record(ms);
  }

  clockSkewMs(): number | undefined {
    return this.skew.skewMs();
  }

  clockSkewRejected(): number {
    return this.skew.rejected();
  }

  lastNonce(): number {
    return this.queue.nonce.lastNonce;
  }

  async close(): Promise<void> {
    // Destroying the keep-alive agent cuts requests still in flight, so the pools' running jobs end.
    await this.queue.close(() => this.transport.close());
  }

  // ---- the endpoints, by family (calls/) ----

  async ping(): Promise<void> {
    return account.ping(this.calls);
  }

  async futures(): Promise<FuturesMarket[]> {
    return account.futures(this.calls);
  }

  async bulkLimitOrders(list: readonly LimitOrderInput[], options: BulkOptions = {}): Promise<BulkItemResult[]> {
    return orders.bulkLimitOrders(this.calls, list, options, this.bulkWeight);
  }

  async collateralLimitOrder(order: CollateralOrderInput): Promise<VenueOrder> {
    return orders.collateralLimitOrder(this.calls, order);
  }

  async cancelOrder(request: CancelRequest): Promise<VenueOrder> {
    return orders.cancelOrder(this.calls, request);
  }

  async conditionalOrders(query: ConditionalQuery = {}): Promise<ConditionalPage> {
    return history.conditionalOrders(this.calls, this.conditionalRoute, query);
  }

  async executedHistory(query: ExecutedHistoryQuery = {}): Promise<Fill[]> {
    return history.executedHistory(this.calls, query);
  }

  mainBalance(): Promise<Map<string, Decimal>>;
  mainBalance(ticker: string): Promise<Decimal>;
  async mainBalance(ticker?: string): Promise<Map<string, Decimal> | Decimal> {
    return account.mainBalance(this.calls, ticker);
  }

  async flexHistory(query: FlexHistoryQuery = {}): Promise<FlexPage> {
    return account.flexHistory(this.calls, query);
  }

  async closeFlex(plan: string): Promise<{ transactionId: string }> {
    return account.closeFlex(this.calls, plan);
  }

  async creditLine(): Promise<CreditLineState> {
    return account.creditLine(this.calls);
  }
}
