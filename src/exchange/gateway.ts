/**
 * The interface the engine uses to talk to the venue, in domain words (docs/architecture.md §8.1
 * and §8.2): `base`/`quote`, `filled`, `remaining`, Decimal money, millisecond timestamps, safe
 * integer ids; and the domain types the raw client (`createApiClient`, src/exchange/client.ts)
 * parses replies into. `createVenueGateway` (venue-gateway.ts) implements the interface over the
 * client; tests implement it with a hand-written fake.
 *
 * Errors thrown by every method are the classes of src/core/errors.ts:
 * reads throw `TransientError` only after their retries are spent; writes never retry and throw
 * `AmbiguousOutcomeError` when the outcome is unknown.
 */
import type { Decimal } from '../core/decimal.js';
import type { AmbiguousOutcomeError, BotError, InvalidRequestError } from '../core/errors.js';
import type { Side } from '../core/orders.js';

export type { Side } from '../core/orders.js';
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
  /** Filled base amount (`dealStock`). */
  filledBase: Decimal;
  /** Filled quote amount (`dealMoney`). */
  filledQuote: Decimal;
  /** Amount still open (`left`). */
  remaining: Decimal;
  /** Fee paid so far, in quote (`dealFee`). */
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

/** An executed deal (one fill). */
export interface Fill {
  /** Deal id, unique per venue: the de-duplication key. */
  dealId: number;
  orderId: number;
  /** Empty string when the order had none. */
  clientOrderId: string;
  market: string;
  side: Side;
  role: 'maker' | 'taker';
  timeMs: number;
  /** Base amount filled. */
  amount: Decimal;
  price: Decimal;
  /** Quote amount (`deal`). */
  quote: Decimal;
  fee: Decimal;
  /** Asset the fee was paid in; absent on older deals. */
  feeAsset?: string;
}

export interface ExecutedHistoryQuery {
  market?: string;
  clientOrderId?: string;
  /** Unix seconds, inclusive lower bound. */
  startDate?: number;
  /** Unix seconds, upper bound. */
  endDate?: number;
  /** ≥ 0, default 0. */
  offset?: number;
  /** 1..100, default 50. */
  limit?: number;
}

/** One leg or parent inside a conditional record. */
export interface ConditionalLeg {
  orderId: number;
  clientOrderId: string;
  market: string;
  side: Side;
  /** Normalised: `limit` or `stop limit` (the live `margin ` prefix is removed). */
  type: string;
  rawType: string;
  status: VenueOrderStatus | null;
  amount: Decimal;
  price: Decimal;
  filledBase: Decimal;
  filledQuote: Decimal;
  remaining: Decimal;
  fee: Decimal;
  timestampMs: number;
  modifiedMs?: number;
  positionSide?: PositionSide;
  activationPrice?: Decimal;
  activationCondition?: string;
  /** The trigger was reached; set only when the venue sent 0/1 (or a boolean). */
  activated?: boolean;
  /** `activated` as sent: the spec's integer (a boolean is given as 1 or 0). */
  rawActivated?: number;
  /** Fee rates (`takerFee`, `makerFee`; docs/api-v4.md §2.5, not sent live). Signed: a maker rebate is negative. */
  takerFeeRate?: Decimal;
  makerFeeRate?: Decimal;
  /** `post_only` (spec, OCO legs) or `postOnly` (live). */
  postOnly?: boolean;
  /** Self-trade prevention mode as sent (`no`, `cb`, `cn`, `co`). */
  stp?: string;
}

export interface OcoRecord {
  kind: 'oco';
  id: number;
  /** Absent for a take-profit-only bracket. */
  stopLoss?: ConditionalLeg;
  /** Absent for a stop-loss-only bracket. */
  takeProfit?: ConditionalLeg;
}

export interface OtoRecord {
  kind: 'oto';
  /** Equals the parent's `otoId`. */
  id: number;
  stopLossPrice?: Decimal;
  takeProfitPrice?: Decimal;
  parent: ConditionalLeg;
}

export type ConditionalRecord = OcoRecord | OtoRecord;

export interface ConditionalPage {
  limit: number;
  offset: number;
  total: number;
  records: ConditionalRecord[];
}

export type FlexActionType =
  | 'INVEST'
  | 'REINVEST'
  | 'WITHDRAW_FROM_INVESTMENT'
  | 'DAILY_EARNING'
  | 'CLOSE_INVESTMENT'
  | 'OPEN_INVESTMENT';

export interface FlexRecord {
  transactionId: string;
  createdAtMs: number;
  planId: string;
  investmentId: string;
  currency: string;
  amount: Decimal;
  actionType: FlexActionType;
}

export interface FlexHistoryQuery {
  limit?: number;
  offset?: number;
  plan?: string;
  investment?: string;
  transaction?: string;
  /** Unix seconds. */
  dateFrom?: number;
  /** Unix seconds. */
  dateTo?: number;
  actionTypes?: FlexActionType[];
}

export interface FlexPage {
  records: FlexRecord[];
  limit: number;
  offset: number;
}

export interface Loan {
  asset: string;
  amount: Decimal;
  totalFunding: Decimal;
  currentLtv: Decimal;
  initialLtv: Decimal;
  marginCallLtv: Decimal;
  liquidationLtv: Decimal;
  createdAtMs: number;
}

/** "No active loan at the moment" is a normal state, not an error. */
export type CreditLineState = { active: true; loan: Loan } | { active: false };

export interface FuturesMarket {
  tickerId: string;
  base: string;
  quote: string;
  lastPrice: Decimal;
  baseVolume: Decimal;
  quoteVolume: Decimal;
  bid: Decimal;
  ask: Decimal;
  high: Decimal;
  low: Decimal;
  productType: string;
  openInterest?: Decimal;
  indexPrice?: Decimal;
  indexName?: string;
  indexCurrency?: string;
  fundingRate?: Decimal;
  nextFundingRateTimestampMs?: number;
  maxLeverage?: number;
  fundingIntervalMinutes?: number;
  brackets?: Readonly<Record<string, number>>;
}

/** A range of executed fills by deal time. */
export interface FillRange {
  /** Inclusive lower bound, ms; absent: from the start of the history the venue serves. */
  fromMs?: number;
  /**
   * Inclusive upper bound, ms: the fixed anchor of one scan. A venue that bounds by whole
   * seconds widens the range to whole seconds, so a page may hold fills up to the end of this
   * second and from the start of `fromMs`'s second.
   */
  toMs: number;
}

/** One page of a fill scan (one request to the venue). */
export interface FillPage {
  /** Fills not yielded by an earlier page of the same scan, newest first. */
  fills: Fill[];
  /** Fills of this page an earlier page already yielded (arrivals while paging shift pages). */
  repeated: number;
}

/** Flex investment history records to read. */
export interface FlexRecordQuery {
  /** Inclusive lower bound on `createdAtMs`; the venue bounds by whole seconds. */
  fromMs?: number;
  plan?: string;
  actionTypes?: FlexActionType[];
}

/**
 * The venue as the engine needs it (a port by meaning, as NautilusTrader's execution clients
 * are): paging, chunking, second-resolution bounds and the conditional listing's fallback path
 * stay behind it, in src/exchange. `createVenueGateway` (venue-gateway.ts) implements it over
 * the API v4 client; tests use test/support/fake-gateway.ts, and one contract suite runs against
 * both.
 */
export interface ExchangeGateway {
  /**
   * Places limit orders. Yields the item outcomes of each request (≤ 20 orders) in request
   * order; the next request leaves only when the consumer asks for the next batch, so each
   * outcome can be recorded before more orders go out. Throws only for local validation, before
   * anything is sent; once sending has started every item carries its own outcome.
   */
  submitLimitOrders(orders: readonly LimitOrderRequest[]): AsyncIterable<BulkItemResult[]>;
  /** Places one collateral limit order, optionally with an OTO stop-loss / take-profit. */
  submitCollateralOrder(order: CollateralOrderRequest): Promise<VenueOrder>;
  /** Cancels one order; "not found" is `InvalidOrderError` kind `order_not_found`. */
  cancelOrder(request: CancelRequest): Promise<VenueOrder>;
  /**
   * Every executed fill in `range`, newest first, one page per request, each fill once. Stopping
   * the iteration early sends no further request.
   */
  fills(range: FillRange): AsyncIterable<FillPage>;
  /** The fills of one of our orders (by clientOrderId); empty when the venue has none. */
  fillsOfOrder(order: { market: string; clientOrderId: string }): Promise<Fill[]>;
  /** Every listed conditional record (OTO while the parent rests, then the OCO of its legs) of these markets. */
  protectiveOrders(markets: readonly string[]): Promise<ConditionalRecord[]>;
  /** All balances (asset → amount); omitted assets are zero. */
  balances(): Promise<Map<string, Decimal>>;
  /** The market listing with prices (the futures listing). */
  markets(): Promise<FuturesMarket[]>;
  /** Flex history records matching `query`, newest first, one page per request. */
  flexRecords(query: FlexRecordQuery): AsyncIterable<FlexRecord[]>;
  /** Closes the flex investment of a plan. */
  closeFlex(plan: string): Promise<{ transactionId: string }>;
  /** The credit line; "no active loan" is `{ active: false }`, not an error. */
  creditLine(): Promise<CreditLineState>;
  /**
   * Server time minus local time (ms) from the last reply's `Date` header (1 s resolution);
   * undefined before any reply or when the venue sends none.
   */
  clockSkewMs(): number | undefined;
}

/** Where the engine persists the nonce high-water mark (the store implements it). */
export interface NoncePersistence {
  load(): number | undefined;
  save(highWaterMs: number): void;
}
