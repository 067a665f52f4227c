/**
 * Venue replies → error classes by consequence (src/core/errors.ts). Tables, not branches
 * scattered over endpoints: HTTP status first, then the venue `code` for refusals.
 *
 * Messages carry the endpoint, the HTTP status, the venue code and the venue's own message text:
 * never the request body, headers, payload or signature.
 */
import {
  AuthError,
  BadResponseError,
  InvalidOrderError,
  InvalidRequestError,
  NonceError,
  TransientError,
  type AuthKind,
  type FieldErrors,
  type InvalidOrderKind,
} from '../core/errors.js';
import { isRecord } from '../core/records.js';
import type { HttpResponse } from './transport.js';

/** What the classifier needs to know about the call. */
export interface CallContext {
  /** Endpoint name (`bulkLimitOrders`, ...). */
  endpoint: string;
  /** Order endpoints (bulk, collateral, cancel) map venue codes to `InvalidOrderError` kinds. */
  orderEndpoint: boolean;
  /** The request had `rpi` and `ioc` both true (37 and 40 then both mean rpi+ioc). */
  rpiIoc?: boolean;
}

/** A venue error object, in any of the shapes the service sends. */
export interface VenueErrorBody {
  code: number | null;
  message: string;
  fieldErrors: FieldErrors;
}

/** Venue code → order refusal kind (service-notes 3). 37/40 are resolved with the request. */
const ORDER_CODE_KINDS: Readonly<Record<number, InvalidOrderKind>> = {
  1: 'invalid_argument',
  2: 'order_not_found',
  10: 'insufficient_funds',
  11: 'amount_too_small',
  13: 'post_only_would_take',
  30: 'validation',
  31: 'market_unavailable',
  32: 'invalid_amount',
  33: 'invalid_price',
  36: 'duplicate_client_order_id',
  37: 'ioc_post_only',
  40: 'rpi_ioc',
};

/** Auth texts (service-notes 1) → kinds. */
const AUTH_TEXTS: readonly [RegExp, AuthKind][] = [
  [/^Unauthorized request/i, 'unauthorized'],
  [/This action is unauthorized/i, 'key_disabled'],
  [/permission to use this endpoint/i, 'permission_denied'],
];

function safeText(s: string): string {
  // Venue messages are short; cap them so an HTML page or an echoed body never lands in an error.
  const oneLine = s.replace(/\s+/g, ' ').trim();
  return oneLine.length > 160 ? `${oneLine.slice(0, 160)}…` : oneLine;
}

export function tryParseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}

function readFieldErrors(v: unknown): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  if (!isRecord(v)) return out;
  for (const [k, msgs] of Object.entries(v)) {
    if (Array.isArray(msgs)) out[k] = msgs.filter((m): m is string => typeof m === 'string').map(safeText);
    else if (typeof msgs === 'string') out[k] = [safeText(msgs)];
  }
  return out;
}

/**
 * Reads a venue error object: private `{code, message, errors}`, public `{success:false, message,
 * params|errors:[]}`, flat `{field: [msg]}`, or `{error: [msg]}`. `undefined` when not an object.
 */
export function readErrorBody(value: unknown): VenueErrorBody | undefined {
  if (!isRecord(value)) return undefined;
  const code = typeof value['code'] === 'number' && Number.isInteger(value['code']) ? value['code'] : null;
  const message = typeof value['message'] === 'string' ? safeText(value['message']) : '';
  if ('code' in value || 'message' in value || 'success' in value) {
    return { code, message, fieldErrors: readFieldErrors(value['errors']) };
  }
  // Flat `{field: [msg]}` (public 422) or `{error: [msg]}` (500).
  const flat = readFieldErrors(value);
  const first = Object.values(flat)[0]?.[0] ?? '';
  return { code: null, message: first, fieldErrors: flat };
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

/** Maps a venue error object (top-level or a bulk item's) to the refusal class. */
export function refusalError(ctx: CallContext, status: number | null, err: VenueErrorBody): InvalidRequestError {
  const context = { endpoint: ctx.endpoint, status, venueCode: err.code };
  const message = status === null ? `${ctx.endpoint}: item refused code ${err.code ?? 'none'}: ${err.message}` : describe(ctx, status, err);
  if (err.code === 9) {
    // "Invalid payload.": the signed body and the sent body differ. A bug here, never retried.
    return new InvalidRequestError(`${message} (signing bug: body differs from payload)`, 9, err.fieldErrors, context);
  }
  if (ctx.orderEndpoint && err.code !== null) {
    let kind = ORDER_CODE_KINDS[err.code];
    if ((err.code === 37 || err.code === 40) && ctx.rpiIoc === true) kind = 'rpi_ioc';
    if (err.code === 30 && err.fieldErrors['total'] !== undefined) kind = 'min_total';
    if (kind !== undefined) return new InvalidOrderError(kind, message, err.code, err.fieldErrors, context);
  }
  return new InvalidRequestError(message, err.code, err.fieldErrors, context);
}

/**
 * Throws the typed error for a non-2xx reply; returns the parsed JSON of a 2xx reply.
 * A 2xx that is not JSON is a `BadResponseError` (retried on reads, ambiguous on writes).
 */
export function classify(ctx: CallContext, res: HttpResponse): unknown {
  const parsed = tryParseJson(res.body);
  const status = res.status;
  if (status >= 200 && status < 300) {
    if (!parsed.ok) throw new BadResponseError(ctx.endpoint, 'body', `HTTP ${status} reply is not JSON`);
    return parsed.value;
  }
  const err = parsed.ok ? readErrorBody(parsed.value) : undefined;
  const context = { endpoint: ctx.endpoint, status, venueCode: err?.code ?? null };
  if (status === 429) {
    if (err !== undefined && isNonceRefusal(res.body)) {
      // A JSON "Too many requests." is the venue refusing the nonce, not a rate limit.
      return throwIt(new NonceError(`${describe(ctx, status, err)} (nonce refused)`, context));
    }
    return throwIt(
      new TransientError('rate_limited', `${ctx.endpoint}: HTTP 429 from the venue gateway`, context,
        res.retryAfterMs === undefined ? undefined : { retryAfterMs: res.retryAfterMs }),
    );
  }
  if (status >= 500 || status === 408) {
    return throwIt(new TransientError('unavailable', `${ctx.endpoint}: HTTP ${status} (venue unavailable)`, context));
  }
  if (status === 401 || status === 403) {
    const text = err?.message ?? '';
    const kind = AUTH_TEXTS.find(([re]) => re.test(text))?.[1] ?? (status === 401 ? 'unauthorized' : 'permission_denied');
    return throwIt(new AuthError(kind, describe(ctx, status, err), context));
  }
  if (status === 451) {
    return throwIt(new AuthError('feature_unavailable', `${describe(ctx, status, err)} (blocked for this region)`, context));
  }
  if (err !== undefined) return throwIt(refusalError(ctx, status, err));
  return throwIt(new InvalidRequestError(`${ctx.endpoint}: HTTP ${status} with a non-JSON body`, null, {}, context));
}

function throwIt(e: Error): never {
  throw e;
}
