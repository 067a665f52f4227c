/**
 * Venue replies → error classes by consequence (src/core/errors.ts). Tables, not branches
 * scattered over endpoints: HTTP status first, then the venue `code` for refusals.
 *
 * Messages carry the endpoint, the HTTP status, the venue code and the venue's own message text:
 * never the request body, headers, payload or signature. A full reply for every row:
 * `ERROR_SAMPLES` in samples.ts (each checked by test/unit/exchange/samples.test.ts).
 */
import {
  AuthError,
  BadResponseError,
  InvalidOrderError,
  InvalidRequestError,
  NonceError,
  TransientError,
  type AuthKind,
  type BotError,
  type InvalidOrderKind,
  type SafeContext,
} from '../core/errors.js';
import { readErrorBody, readPrivateError, type VenueErrorBody } from './error-body.js';
import type { HttpResponse } from './transport.js';

export { readErrorBody, readPrivateError, type VenueErrorBody } from './error-body.js';

/** What the classifier needs to know about the call. */
export interface CallContext {
  /** Endpoint name (`bulkLimitOrders`, ...). */
  endpoint: string;
  /** Order endpoints (bulk, collateral, cancel) map venue codes to `InvalidOrderError` kinds. */
  orderEndpoint: boolean;
  /** The request had `rpi` and `ioc` both true (37 and 40 then both mean rpi+ioc). */
  rpiIoc?: boolean;
  /**
   * A signed endpoint: its errors come in the private shape `{code, message, errors}` only, so a
   * body without an integer code is unreadable rather than a refusal.
   */
  privateEndpoint?: boolean;
}

/** Venue code → order refusal kind (docs/live-service.md §3). 37/40 are resolved with the request. */
const ORDER_CODE_KINDS: Readonly<Record<number, InvalidOrderKind>> = {
  1: 'invalid_argument', // 400 {"code":1,"message":"Inner validation failed","errors":{}}
  2: 'order_not_found', // 400 {"code":2,...,"errors":{"orderId":["Unexecuted order was not found."]}}
  10: 'insufficient_funds', // 400 {"code":10,...,"errors":{"amount":["Not enough balance."]}}
  11: 'amount_too_small', // 400 {"code":11,"message":"Inner validation failed",...}
  13: 'post_only_would_take', // 400 {"code":13,"message":"Inner validation failed",...}
  30: 'validation', // 422 {"code":30,"message":"Validation failed","errors":{...}}; with errors.total: min_total
  31: 'market_unavailable', // 422 {"code":31,...,"errors":{"market":["Market is not available"]}}
  32: 'invalid_amount', // 422 {"code":32,...,"errors":{"amount":["Amount is less than 0.001"]}}
  33: 'invalid_price', // 422 {"code":33,...,"errors":{"price":["Price step"]}}
  36: 'duplicate_client_order_id', // 422 {"code":36,"message":"This client order id is already used by the current account."}
  37: 'ioc_post_only', // 422 {"code":37,"message":"Validation failed"} (rpi+ioc per the spec)
  40: 'rpi_ioc', // 422 {"code":40,"message":"Validation failed"} (rpi+ioc per current vendor docs)
};

/** Auth texts (docs/live-service.md §1) → kinds. */
const AUTH_TEXTS: readonly [RegExp, AuthKind][] = [
  [/^Unauthorized request/i, 'unauthorized'], // {"code":0,"message":"Unauthorized request."}
  [/This action is unauthorized/i, 'key_disabled'], // "This action is unauthorized. Enable your key in API settings"
  [/permission to use this endpoint/i, 'permission_denied'], // 403 "You don't have permission to use this endpoint."
];

export function tryParseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}

/** True for the JSON "Too many requests." 429 body: a nonce refusal, not a rate limit. */
export function isNonceRefusal(body: string): boolean {
  const parsed = tryParseJson(body);
  if (!parsed.ok) return false;
  const err = readErrorBody(parsed.value);
  return err !== undefined && /too many requests/i.test(err.message);
}

function describe(ctx: CallContext, status: number, err: VenueErrorBody | undefined): string {
  const code = err?.code === null || err?.code === undefined ? '' : ` code ${err.code}`;
  const msg = err === undefined || err.message === '' ? '' : `: ${err.message}`;
  return `${ctx.endpoint}: HTTP ${status}${code}${msg}`;
}

function orderKind(ctx: CallContext, err: VenueErrorBody): InvalidOrderKind | undefined {
  if (!ctx.orderEndpoint || err.code === null) return undefined;
  if ((err.code === 37 || err.code === 40) && ctx.rpiIoc === true) return 'rpi_ioc';
  if (err.code === 30 && err.fieldErrors['total'] !== undefined) return 'min_total';
  return ORDER_CODE_KINDS[err.code];
}

/** Maps a well-formed venue error object (top-level or a bulk item's) to the refusal class. */
export function refusalError(ctx: CallContext, status: number | null, err: VenueErrorBody): InvalidRequestError {
  const context = { endpoint: ctx.endpoint, status, venueCode: err.code };
  const message = status === null ? `${ctx.endpoint}: item refused code ${err.code ?? 'none'}: ${err.message}` : describe(ctx, status, err);
  if (err.code === 9) {
    // "Invalid payload.": the signed body and the sent body differ. A bug here, never retried.
    return new InvalidRequestError(`${message} (signing bug: body differs from payload)`, 9, err.fieldErrors, context);
  }
  const kind = orderKind(ctx, err);
  if (kind !== undefined) return new InvalidOrderError(kind, message, err.code, err.fieldErrors, context);
  return new InvalidRequestError(message, err.code, err.fieldErrors, context);
}

/** A non-2xx reply, read once for the rules below. */
interface Failure {
  ctx: CallContext;
  res: HttpResponse;
  /** The body parsed as JSON, when it is JSON. */
  json: { ok: true; value: unknown } | { ok: false };
  /** The body read as a venue error, when it is a well-formed one. */
  err: VenueErrorBody | undefined;
  context: SafeContext;
}

function tooManyRequests(f: Failure): BotError {
  if (f.err !== undefined && isNonceRefusal(f.res.body)) {
    // A JSON "Too many requests." is the venue refusing the nonce, not a rate limit.
    return new NonceError(`${describe(f.ctx, 429, f.err)} (nonce refused)`, f.context);
  }
  const retry = f.res.retryAfterMs === undefined ? undefined : { retryAfterMs: f.res.retryAfterMs };
  return new TransientError('rate_limited', `${f.ctx.endpoint}: HTTP 429 from the venue gateway`, f.context, retry);
}

function authError(f: Failure): BotError {
  const status = f.res.status;
  const text = f.err?.message ?? '';
  const kind = AUTH_TEXTS.find(([re]) => re.test(text))?.[1] ?? (status === 401 ? 'unauthorized' : 'permission_denied');
  return new AuthError(kind, describe(f.ctx, status, f.err), f.context);
}

/** HTTP status → error, first match wins; statuses not listed are read from the body. */
const STATUS_RULES: readonly [(status: number) => boolean, (f: Failure) => BotError][] = [
  [(s) => s === 429, tooManyRequests],
  [(s) => s >= 500 || s === 408, (f) => new TransientError('unavailable', `${f.ctx.endpoint}: HTTP ${f.res.status} (venue unavailable)`, f.context)],
  [(s) => s === 401 || s === 403, authError],
  [(s) => s === 451, (f) => new AuthError('feature_unavailable', `${describe(f.ctx, 451, f.err)} (blocked for this region)`, f.context)],
];

/**
 * A 4xx read from its body. Only a well-formed venue error is a refusal: it is acted on (an order
 * marked rejected, a read not retried), so it must be the venue's word. Any other body (garbled
 * JSON, an HTML page, nothing) is unreadable: a `BadResponseError`, retried on reads and an
 * ambiguous outcome on writes, since nothing in it says the request was not applied.
 */
function bodyError(f: Failure): BotError {
  if (f.err !== undefined) return refusalError(f.ctx, f.res.status, f.err);
  const what = f.json.ok ? 'an unreadable error object' : 'a body that is not JSON';
  return new BadResponseError(f.ctx.endpoint, 'body', `HTTP ${f.res.status} with ${what}`, { status: f.res.status });
}

/** The typed error for a non-2xx reply. */
export function failureError(ctx: CallContext, res: HttpResponse): BotError {
  const json = tryParseJson(res.body);
  const read = ctx.privateEndpoint === true ? readPrivateError : readErrorBody;
  const err = json.ok ? read(json.value) : undefined;
  const f: Failure = { ctx, res, json, err, context: { endpoint: ctx.endpoint, status: res.status, venueCode: err?.code ?? null } };
  const rule = STATUS_RULES.find(([when]) => when(res.status));
  return rule === undefined ? bodyError(f) : rule[1](f);
}

/**
 * Throws the typed error for a non-2xx reply; returns the parsed JSON of a 2xx reply.
 * A 2xx that is not JSON is a `BadResponseError` (retried on reads, ambiguous on writes).
 */
export function classify(ctx: CallContext, res: HttpResponse): unknown {
  if (res.status < 200 || res.status >= 300) throw failureError(ctx, res);
  const parsed = tryParseJson(res.body);
  if (!parsed.ok) throw new BadResponseError(ctx.endpoint, 'body', `HTTP ${res.status} reply is not JSON`);
  return parsed.value;
}
