/**
 * Error classes by consequence (docs/architecture.md §8.4): what the caller must do decides the class.
 *
 * - `ConfigError`, `AuthError`: stop, a human must act.
 * - `InvalidRequestError` / `InvalidOrderError`: the venue provably refused; skip or repair.
 * - `NonceError`: the venue refused the nonce; the request was not applied; fix the nonce path.
 * - `TransientError` (+ `BadResponseError`): rate limited, unavailable, timeout, malformed reply.
 *   The only kind retried, and only for reads.
 * - `AmbiguousOutcomeError`: a write whose result is unknown; resolve from evidence, never resend.
 * - `StrategyError`: plugin code failed.
 * - `StoreError`: local persistence failed; stop opening risk.
 *
 * Every error carries a stable `code` and a `context` of safe values only: never a key, secret,
 * signature, payload or raw body.
 */

export type SafeContext = Readonly<Record<string, string | number | boolean | null | readonly string[]>>;

export abstract class BotError extends Error {
  abstract readonly code: string;
  readonly context: SafeContext;

  constructor(message: string, context: SafeContext = {}, options?: { cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.context = context;
  }

  /** A log-safe summary. */
  toJSON(): Record<string, unknown> {
    return { name: this.name, code: this.code, message: this.message, context: this.context };
  }
}

/** Invalid configuration: names the key, the expected value and what was found. */
export class ConfigError extends BotError {
  readonly code = 'CONFIG_INVALID';
}

export type AuthKind = 'unauthorized' | 'key_disabled' | 'permission_denied' | 'feature_unavailable';

/** Credentials or permissions refused: a human must act. */
export class AuthError extends BotError {
  readonly code: string;
  constructor(
    readonly kind: AuthKind,
    message: string,
    context: SafeContext = {},
    options?: { cause?: unknown },
  ) {
    super(message, context, options);
    this.code = `AUTH_${kind.toUpperCase()}`;
  }
}

/** The venue refused the nonce (JSON "Too many requests." 429). The request was not applied. */
export class NonceError extends BotError {
  readonly code = 'NONCE_REJECTED';
}

/** Per-field messages as the venue sent them (parameter name → messages). */
export type FieldErrors = Readonly<Record<string, readonly string[]>>;

/** The venue provably refused a request (validation or business rule). Nothing was applied. */
export class InvalidRequestError extends BotError {
  readonly code: string = 'REQUEST_INVALID';
  constructor(
    message: string,
    readonly venueCode: number | null,
    readonly fieldErrors: FieldErrors = {},
    context: SafeContext = {},
  ) {
    super(message, context);
  }
}

export type InvalidOrderKind =
  | 'validation'
  | 'market_unavailable'
  | 'invalid_amount'
  | 'invalid_price'
  | 'min_total'
  | 'duplicate_client_order_id'
  | 'ioc_post_only'
  | 'rpi_ioc'
  | 'invalid_argument'
  | 'order_not_found'
  | 'insufficient_funds'
  | 'amount_too_small'
  | 'post_only_would_take';

/** An order request the venue provably refused, by kind. */
export class InvalidOrderError extends InvalidRequestError {
  override readonly code: string;
  constructor(
    readonly kind: InvalidOrderKind,
    message: string,
    venueCode: number | null,
    fieldErrors: FieldErrors = {},
    context: SafeContext = {},
  ) {
    super(message, venueCode, fieldErrors, context);
    this.code = `ORDER_${kind.toUpperCase()}`;
  }
}

export type TransientKind = 'rate_limited' | 'unavailable' | 'timeout' | 'network' | 'bad_response';

/** Temporary failure: the only kind a read retries. On a write it becomes ambiguous. */
export class TransientError extends BotError {
  readonly code: string;
  constructor(
    readonly kind: TransientKind,
    message: string,
    context: SafeContext = {},
    options?: { cause?: unknown; retryAfterMs?: number },
  ) {
    super(message, context, options);
    this.code = `TRANSIENT_${kind.toUpperCase()}`;
    this.retryAfterMs = options?.retryAfterMs;
  }
  readonly retryAfterMs: number | undefined;
}

/** A reply that is not what the spec says: names the endpoint and the field. */
export class BadResponseError extends TransientError {
  constructor(
    readonly endpoint: string,
    readonly field: string,
    message: string,
    context: SafeContext = {},
  ) {
    super('bad_response', `${endpoint}: ${field}: ${message}`, { ...context, endpoint, field });
  }
}

/** A write whose outcome is unknown (timeout, reset, 5xx, unparsable reply). Never resend blindly. */
export class AmbiguousOutcomeError extends BotError {
  readonly code = 'OUTCOME_AMBIGUOUS';
  constructor(
    readonly endpoint: string,
    readonly clientOrderIds: readonly string[],
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, { endpoint, clientOrderIds }, options);
  }
}

/** Plugin code failed (threw, timed out, or returned garbage). */
export class StrategyError extends BotError {
  readonly code: string;
  constructor(
    readonly kind: 'threw' | 'deadline' | 'bad_intent' | 'quarantined' | 'load' | 'bound',
    message: string,
    context: SafeContext = {},
    options?: { cause?: unknown },
  ) {
    super(message, context, options);
    this.code = `STRATEGY_${kind.toUpperCase()}`;
  }
}

/** Local persistence failed (disk full, lock held, corrupt file). Stop opening risk. */
export class StoreError extends BotError {
  readonly code: string;
  constructor(
    readonly kind: 'locked' | 'io' | 'migration' | 'integrity',
    message: string,
    context: SafeContext = {},
    options?: { cause?: unknown },
  ) {
    super(message, context, options);
    this.code = `STORE_${kind.toUpperCase()}`;
  }
}

/** Stable code of any thrown value, for metrics and logs. */
export function errorCode(err: unknown): string {
  if (err instanceof BotError) return err.code;
  return 'UNEXPECTED';
}

/** Message of any thrown value, without its stack or attached objects. */
export function errorMessage(err: unknown): string {
  if (err instanceof Error) return err.message;
  return String(err);
}
