/**
 * The two ways a call goes out (docs/architecture.md §3): a read is retried on `TransientError`
 * with exponential backoff and jitter; a write is sent exactly once, and a failure after the
 * request may have left becomes `AmbiguousOutcomeError` carrying the clientOrderIds involved.
 * The endpoint families (orders.ts, history.ts, account.ts) call these; `createApiClient`
 * (../api-client.ts) builds one per client.
 */
import type { Clock } from '../../core/clock.js';
import { AmbiguousOutcomeError, BadResponseError, BotError, TransientError, errorMessage } from '../../core/errors.js';
import { ENDPOINTS, type EndpointName, type RawClient } from '../endpoints.js';
import { classify, type CallContext } from '../errors.js';
import { TransportError, type HttpResponse } from '../transport.js';

export interface RetryOptions {
  /** Total requests a read may make (1 = no retry). Default 3. */
  attempts: number;
  /** First backoff delay, ms. Default 200. */
  baseDelayMs: number;
  /** Longest backoff delay, ms. Default 5 000. */
  maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryOptions = { attempts: 3, baseDelayMs: 200, maxDelayMs: 5000 };

export function ctxOf(endpoint: EndpointName, extra: Partial<CallContext> = {}): CallContext {
  const spec = ENDPOINTS[endpoint];
  return { endpoint, orderEndpoint: spec.orderEndpoint, privateEndpoint: spec.method === 'POST', ...extra };
}

/** The fields that are set (a query's absent options are not sent). */
export function defined(fields: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
}

export interface RequestPathsDeps {
  raw: RawClient;
  clock: Clock;
  retry: RetryOptions;
  /** Jitter source in [0, 1). */
  random: () => number;
}

export class RequestPaths {
  constructor(private readonly deps: RequestPathsDeps) {}

  get clock(): Clock {
    return this.deps.clock;
  }

  /** A read: retried on TransientError with backoff + jitter. `handle` classifies and parses. */
  async read<T>(
    endpoint: EndpointName,
    fields: Record<string, unknown> | undefined,
    handle: (res: HttpResponse) => T,
    path?: () => string,
  ): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        const call = { endpoint, attempt, ...(fields === undefined ? {} : { fields }), ...(path === undefined ? {} : { path: path() }) };
        return handle(await this.deps.raw.call(call));
      } catch (err) {
        if (!(err instanceof TransientError) || attempt >= this.deps.retry.attempts) throw err;
        // Local queue full (or client closed): retrying would only queue again; the caller backs off.
        if (err.kind === 'rate_limited' && err.context['pool'] !== undefined) throw err;
        // After a gateway 429 the pool itself is paused; other failures back off here.
        if (err.kind !== 'rate_limited') await this.deps.clock.sleep(this.backoffMs(attempt));
      }
    }
  }

  private backoffMs(attempt: number): number {
    const { maxDelayMs, baseDelayMs } = this.deps.retry;
    const exp = Math.min(maxDelayMs, baseDelayMs * 2 ** (attempt - 1));
    return Math.round(exp * (0.5 + 0.5 * this.deps.random()));
  }

  /**
   * A write: sent once. Failures after the request may have left are ambiguous; refusals,
   * gateway 429s, nonce refusals and failures before sending keep their class.
   */
  async write<T>(
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
      res = await this.deps.raw.call({ endpoint, fields, attempt: 1, weight });
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
}
