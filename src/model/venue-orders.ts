/**
 * Orders as the engine asks for them and as the venue reports them, in domain words
 * (docs/architecture.md §8.1, §8.2): `base`/`quote`, `filled`, `remaining`, Decimal money,
 * millisecond timestamps, safe integer ids. The exchange layer parses replies into these; the
 * engine and the store read them.
 */
import type { Decimal } from '../core/decimal.js';
import type { AmbiguousOutcomeError, BotError, InvalidRequestError } from '../core/errors.js';
import type { Side } from '../core/orders.js';

export type PositionSide = 'LONG' | 'SHORT' | 'BOTH';

/**
 * Venue order status, normalised: `NEW`/`OPEN` → `OPEN`; `CANCELLED`/`CANCELED`/`CANCELED_STP`/
 * `AUTO_CANCELED_*`/`CANCELED_TAKER_BAND` → `CANCELLED`. Unknown values are a `BadResponseError`.
 */
export type VenueOrderStatus = 'OPEN' | 'PARTIALLY_FILLED' | 'FILLED' | 'CANCELLED';

/** A limit order to place (bulk item). */
export interface LimitOrderRequest {
  market: string;
  side: Side;
  /** Base amount, already on the market's step. */
  amount: Decimal;
  /** Price in quote, already on the market's tick. */
  price: Decimal;
  /** ≤ 32 chars of [A-Za-z0-9._-]; required: the bot always journals one before sending. */
  clientOrderId: string;
  postOnly?: boolean;
  ioc?: boolean;
  rpi?: boolean;
}

/** A collateral limit order, optionally with an OTO stop-loss / take-profit. */
export interface CollateralOrderRequest extends LimitOrderRequest {
  stopLoss?: Decimal;
  takeProfit?: Decimal;
  positionSide?: PositionSide;
}

export interface OtoInfo {
  otoId: number;
  stopLoss?: Decimal;
  takeProfit?: Decimal;
}

/** An order as the venue reports it after placement or cancel. */
export interface VenueOrder {
  orderId: number;
  /** Empty string when none was given. */
  clientOrderId: string;
  market: string;
  side: Side;
  /** Venue order type as sent (`limit`, `stop limit`, `margin limit`, ...). */
  type: string;
  /** Creation time, ms (the venue sends fractional seconds). */
  timestampMs: number;
  amount: Decimal;
  price: Decimal;
  /** Filled base amount. */
  filledBase: Decimal;
  /** Filled quote amount. */
  filledQuote: Decimal;
  /** Amount still open. */
  remaining: Decimal;
  /** Fee paid so far, in quote. */
  fee: Decimal;
  status: VenueOrderStatus;
  /** The status string as the venue sent it. */
  rawStatus: string;
  postOnly: boolean;
  ioc: boolean;
  rpi: boolean;
  stp?: string;
  positionSide?: PositionSide;
  oto?: OtoInfo;
}

/**
 * The outcome of one item of a bulk placement, in request order (`clientOrderId` is `''` for an
 * order sent without one).
 * - `placed`: the venue accepted it (the order may already be partly or wholly filled): exactly
 *   one result in the reply carries its clientOrderId, market and side.
 * - `rejected`: the venue provably refused this item (its own well-formed `error` in a reply that
 *   lines up with the request, or a whole-request validation failure of its chunk).
 * - `not_sent`: provably not applied: an earlier failure stopped the batch (`stopOnFail`), or
 *   the chunk was refused before processing (rate-limit 429, nonce 429, auth). Safe to retry
 *   later with the same clientOrderId.
 * - `unknown`: the outcome is ambiguous (timeout, reset, 5xx, unparsable reply, or a reply that
 *   does not prove either of the above for this item).
 */
export type BulkItemResult =
  | { status: 'placed'; clientOrderId: string; order: VenueOrder }
  | { status: 'rejected'; clientOrderId: string; error: InvalidRequestError }
  | { status: 'not_sent'; clientOrderId: string; error: BotError }
  | { status: 'unknown'; clientOrderId: string; error: AmbiguousOutcomeError };

export interface BulkOptions {
  /** Venue stops at the first failing order; later items come back as not processed. */
  stopOnFail?: boolean;
}

/** Cancel by exactly one of orderId / clientOrderId. */
export type CancelRequest =
  | { market: string; orderId: number; clientOrderId?: undefined }
  | { market: string; clientOrderId: string; orderId?: undefined };
