/**
 * `createApiClient(options)`: the API v4 client, one method per endpoint in domain types, over
 * the raw client (endpoints.ts), with operational extras (rate-limit status, clock skew, close).
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
import {
  AmbiguousOutcomeError,
  AuthError,
  BadResponseError,
  BotError,
  ConfigError,
  InvalidRequestError,
  TransientError,
  errorMessage,
} from '../core/errors.js';
import { silentLogger, type Logger } from '../observability/logger.js';
import { chunkFailed, stoppedItems, stopsEverything } from './bulk/outcomes.js';
import { bulkChunks } from './bulk/request.js';
import { chunkReply } from './bulk/reply.js';
import { SkewMeter } from './clock-skew.js';
import { ENDPOINTS, RawClient, type EndpointName } from './endpoints.js';
import { classify, type CallContext } from './errors.js';
import type { BulkItemResult, BulkOptions, CancelRequest, VenueOrder } from '../model/venue-orders.js';
import type { ConditionalPage } from '../model/conditional.js';
import type { CreditLineState } from '../model/credit.js';
import type { ExecutedHistoryQuery, Fill } from '../model/fills.js';
import type { FlexHistoryQuery, FlexPage } from '../model/flex.js';
import type { FuturesMarket } from '../model/markets.js';
import type { NoncePersistence } from '../model/nonce.js';
import type { NonceMode } from './nonce.js';
import { PathFallback } from './path-fallback.js';
import {
  FLEX_ACTION_CODES,
  parseBalanceMap,
  parseBalanceOne,
  parseConditionalPage,
  parseExecutedHistory,
  parseFlexClose,
  parseFlexPage,
  parseFutures,
  parseLoan,
  parseOrder,
  parsePing,
} from './parse.js';
import { quirkOf } from './quirks.js';
import { mismatchedField, placementIdentity, type OrderIdentity } from './reply-match.js';
import { collateralBody, namedCids, orderItem, type CollateralOrderInput, type ConditionalQuery, type LimitOrderInput } from './requests.js';
import type { PoolName, PoolStatus, RateLimitOverrides } from './rate-limits.js';
import { RequestQueue, type ClientAlert, type RequestQueueHealth } from './request-queue.js';
import { Transport, TransportError, type HttpResponse } from './transport.js';
import {
  validateCancel,
  validateCollateral,
  validateConditional,
  validateExecutedHistory,
  validateFlexHistory,
} from './validate.js';

export interface RetryOptions {
  /** Total requests a read may make (1 = no retry). Default 3. */
  attempts: number;
  /** First backoff delay, ms. Default 200. */
  baseDelayMs: number;
  /** Longest backoff delay, ms. Default 5 000. */
  maxDelayMs: number;
}

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

const DEFAULT_RETRY: RetryOptions = { attempts: 3, baseDelayMs: 200, maxDelayMs: 5000 };

/** After the conditional listing's spec path answered 404, it is tried again this much later, ms. */
const CONDITIONAL_PATH_RETRY_MS = 3_600_000;

function ctxOf(endpoint: EndpointName, extra: Partial<CallContext> = {}): CallContext {
  const spec = ENDPOINTS[endpoint];
  return { endpoint, orderEndpoint: spec.orderEndpoint, privateEndpoint: spec.method === 'POST', ...extra };
}

/** A write's reply order, which must be the order the write was about (reply-match.ts). */
function orderReply(endpoint: EndpointName, json: unknown, want: OrderIdentity): VenueOrder {
  const order = parseOrder(endpoint, json);
  const field = mismatchedField(order, want);
  if (field !== undefined) throw new BadResponseError(endpoint, field, 'the reply is about another order than the one requested');
  return order;
}

function defined(fields: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
}

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
  private readonly retry: RetryOptions;
  private readonly transport: Transport;
  private readonly queue: RequestQueue;
  private readonly raw: RawClient;
  private readonly bulkWeight: number;
  private readonly conditionalRoute = new PathFallback(ENDPOINTS.conditionalOrders.path, ENDPOINTS.conditionalOrders.fallbackPath!, CONDITIONAL_PATH_RETRY_MS);
  private readonly skew = new SkewMeter(() => this.logger);

  constructor(options: ApiClientOptions) {
    const hasKey = checkCredentials(options);
    this.clock = options.clock ?? new SystemClock();
    this.logger = options.logger ?? silentLogger();
    this.random = options.random ?? Math.random;
    this.retry = { ...DEFAULT_RETRY, ...options.retry };
    if (!(Number.isInteger(this.retry.attempts) && this.retry.attempts >= 1)) throw new ConfigError('retry.attempts must be an integer >= 1', { key: 'retry.attempts' });
    this.transport = this.openTransport(options);
    this.bulkWeight = options.rateLimits?.bulkWeight ?? 1;
    this.queue = this.openQueue(options, hasKey);
    // The credentials live in this closure only: not an enumerable field a dump could print.
    const creds = hasKey ? { apiKey: options.apiKey!, apiSecret: options.apiSecret! } : undefined;
    this.raw = new RawClient({
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

  // ---- the request paths ----

  /** A read: retried on TransientError with backoff + jitter. `handle` classifies and parses. */
  private async read<T>(
    endpoint: EndpointName,
    fields: Record<string, unknown> | undefined,
    handle: (res: HttpResponse) => T,
    path?: () => string,
  ): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        const call = { endpoint, attempt, ...(fields === undefined ? {} : { fields }), ...(path === undefined ? {} : { path: path() }) };
        return handle(await this.raw.call(call));
      } catch (err) {
        if (!(err instanceof TransientError) || attempt >= this.retry.attempts) throw err;
        // Local queue full (or client closed): retrying would only queue again; the caller backs off.
        if (err.kind === 'rate_limited' && err.context['pool'] !== undefined) throw err;
        // After a gateway 429 the pool itself is paused; other failures back off here.
        if (err.kind !== 'rate_limited') await this.clock.sleep(this.backoffMs(attempt));
      }
    }
  }

  private backoffMs(attempt: number): number {
    const exp = Math.min(this.retry.maxDelayMs, this.retry.baseDelayMs * 2 ** (attempt - 1));
    return Math.round(exp * (0.5 + 0.5 * this.random()));
  }

  /**
   * A write: sent once. Failures after the request may have left are ambiguous; refusals,
   * gateway 429s, nonce refusals and failures before sending keep their class.
   */
  private async write<T>(
    endpoint: EndpointName,
    fields: Record<string, unknown>,
    ctx: CallContext,
    clientOrderIds: readonly string[],
    parse: (json: unknown) => T,
    weight = 1,
  ): Promise<T> {
    const ambiguous = (cause: unknown): AmbiguousOutcomeError =>
      new AmbiguousOutcomeError(endpoint, clientOrderIds, `${endpoint}: outcome unknown (${errorMessage(cause)})`, { cause });
    let res: HttpResponse;
    try {
      res = await this.raw.call({ endpoint, fields, attempt: 1, weight });
    } catch (err) {
      if (err instanceof TransportError && err.sent) throw ambiguous(err);
      throw err;
    }
    let json: unknown;
    try {
      json = classify(ctx, res);
    } catch (err) {
      // 5xx and unreadable 2xx: the venue may have applied it. A gateway 429 was not applied.
      if (err instanceof TransientError && err.kind !== 'rate_limited') throw ambiguous(err);
      throw err;
    }
    try {
      return parse(json);
    } catch (err) {
      // The venue answered 2xx: anything that stops us reading it leaves the outcome unknown.
      if (err instanceof BadResponseError || !(err instanceof BotError)) throw ambiguous(err);
      throw err;
    }
  }

  // ---- public endpoints ----

  async ping(): Promise<void> {
    return this.read('ping', undefined, (res) => parsePing('ping', classify(ctxOf('ping'), res)));
  }

  async futures(): Promise<FuturesMarket[]> {
    return this.read('futures', undefined, (res) => parseFutures('futures', classify(ctxOf('futures'), res)));
  }

  // ---- order writes ----

  async bulkLimitOrders(orders: readonly LimitOrderInput[], options: BulkOptions = {}): Promise<BulkItemResult[]> {
    const chunks = bulkChunks(orders);
    const stopOnFail = options.stopOnFail === true;
    const ctx = ctxOf('bulkLimitOrders');
    const results: BulkItemResult[] = [];
    let stop: BotError | undefined;
    for (const part of chunks) {
      if (stop !== undefined) {
        results.push(...stoppedItems(part, stop));
        continue;
      }
      const ids = namedCids(part);
      const rpiIoc = part.some((o) => o.rpi === true && o.ioc === true);
      let outcome: { items: BulkItemResult[]; failed: BotError | undefined };
      try {
        outcome = await this.write(
          'bulkLimitOrders',
          { orders: part.map(orderItem), stopOnFail },
          { ...ctx, rpiIoc },
          ids,
          (json) =>
            chunkReply(ctx, part, json, stopOnFail, (cause, cids) =>
              new AmbiguousOutcomeError('bulkLimitOrders', cids, `bulkLimitOrders: outcome unknown (${cause.message})`, { cause }),
            ),
          this.bulkWeight,
        );
      } catch (err) {
        // Once sending has started nothing throws: the chunk's items carry the failure.
        // An unexpected (non-BotError) failure may have happened after sending: treat it as unknown.
        const botErr =
          err instanceof BotError
            ? err
            : new AmbiguousOutcomeError('bulkLimitOrders', ids, `bulkLimitOrders: outcome unknown (${errorMessage(err)})`, { cause: err });
        outcome = { items: chunkFailed(part, botErr), failed: botErr };
        if (stopsEverything(botErr)) stop = botErr;
      }
      results.push(...outcome.items);
      if (stopOnFail && outcome.failed !== undefined) stop ??= outcome.failed;
    }
    return results;
  }

  async collateralLimitOrder(order: CollateralOrderInput): Promise<VenueOrder> {
    validateCollateral(order);
    const fields = { ...collateralBody(order) };
    const ctx = ctxOf('collateralLimitOrder', { rpiIoc: order.rpi === true && order.ioc === true });
    const want = placementIdentity(order);
    return this.write('collateralLimitOrder', fields, ctx, namedCids([order]), (json) => orderReply('collateralLimitOrder', json, want));
  }

  async cancelOrder(request: CancelRequest): Promise<VenueOrder> {
    validateCancel(request);
    const fields =
      request.orderId !== undefined
        ? { market: request.market, orderId: request.orderId }
        : { market: request.market, clientOrderId: request.clientOrderId };
    const ids = request.clientOrderId !== undefined ? [request.clientOrderId] : [];
    return this.write('cancelOrder', fields, ctxOf('cancelOrder'), ids, (json) => orderReply('cancelOrder', json, fields));
  }

  // ---- private reads ----

  async conditionalOrders(query: ConditionalQuery = {}): Promise<ConditionalPage> {
    validateConditional(query);
    const fields = defined({ market: query.market, offset: query.offset, limit: query.limit });
    const ctx = ctxOf('conditionalOrders');
    const parse = (res: HttpResponse): ConditionalPage => parseConditionalPage('conditionalOrders', classify(ctx, res));
    const route = this.conditionalRoute;
    const path = route.path(this.clock.now());
    if (path === route.fallback) return this.read('conditionalOrders', fields, parse, () => path);
    try {
      return await this.read('conditionalOrders', fields, (res) => {
        if (quirkOf('conditionalOrders', res) === 'conditional_path_missing') throw new FallbackSignal();
        return parse(res);
      }, () => path);
    } catch (err) {
      if (!(err instanceof FallbackSignal)) throw err;
    }
    // The live service serves the other path (docs/live-service.md §5): use it for a while.
    route.primaryMissing(this.clock.now());
    return this.read('conditionalOrders', fields, parse, () => route.fallback);
  }

  async executedHistory(query: ExecutedHistoryQuery = {}): Promise<Fill[]> {
    validateExecutedHistory(query);
    const fields = defined({ ...query });
    const ctx = ctxOf('executedHistory');
    return this.read('executedHistory', fields, (res) => {
      // A single-order lookup with no match is an empty list, not a failure.
      if (query.clientOrderId !== undefined && quirkOf('executedHistory', res) === 'order_history_not_found') return [];
      return parseExecutedHistory('executedHistory', classify(ctx, res), query.market);
    });
  }

  mainBalance(): Promise<Map<string, Decimal>>;
  mainBalance(ticker: string): Promise<Decimal>;
  async mainBalance(ticker?: string): Promise<Map<string, Decimal> | Decimal> {
    const ctx = ctxOf('mainBalance');
    if (ticker === undefined) {
      return this.read('mainBalance', {}, (res) => parseBalanceMap('mainBalance', classify(ctx, res)));
    }
    if (typeof ticker !== 'string' || ticker === '') {
      throw new ConfigError('ticker must be a non-empty string', { key: 'ticker' });
    }
    return this.read('mainBalance', { ticker }, (res) => parseBalanceOne('mainBalance', classify(ctx, res), ticker));
  }

  async flexHistory(query: FlexHistoryQuery = {}): Promise<FlexPage> {
    validateFlexHistory(query);
    const { actionTypes, ...rest } = query;
    const fields = defined({ ...rest, actionTypes: actionTypes?.map((a) => FLEX_ACTION_CODES[a]) });
    const ctx = ctxOf('flexHistory');
    return this.read('flexHistory', fields, (res) => parseFlexPage('flexHistory', classify(ctx, res)));
  }

  async closeFlex(plan: string): Promise<{ transactionId: string }> {
    if (typeof plan !== 'string' || plan === '') throw new InvalidRequestError('plan: must be a non-empty string', null, { plan: ['required'] });
    return this.write('closeFlex', { plan }, ctxOf('closeFlex'), [], (json) => parseFlexClose('closeFlex', json));
  }

  async creditLine(): Promise<CreditLineState> {
    const ctx = ctxOf('creditLine');
    return this.read('creditLine', {}, (res): CreditLineState => {
      const quirk = quirkOf('creditLine', res);
      if (quirk === 'no_active_loan') return { active: false };
      if (quirk === 'credit_line_disabled') {
        throw new AuthError('feature_unavailable', 'creditLine: HTTP 404 (credit line not enabled for this key)', { endpoint: 'creditLine', status: 404 });
      }
      return { active: true, loan: parseLoan('creditLine', classify(ctx, res)) };
    });
  }
}

/** Internal: the conditional listing must be retried on its fallback path. */
class FallbackSignal extends Error {}
