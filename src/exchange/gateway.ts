/**
 * The interface the engine uses to talk to the venue (docs/architecture.md §8.1 and §8.2). Its
 * words are the domain types of src/model/, which the raw client (`createApiClient`,
 * src/exchange/api-client.ts) parses replies into. `createVenueGateway` (venue-gateway.ts)
 * implements the interface over the client; tests implement it with a hand-written fake.
 *
 * Errors thrown by every method are the classes of src/core/errors.ts:
 * reads throw `TransientError` only after their retries are spent; writes never retry and throw
 * `AmbiguousOutcomeError` when the outcome is unknown.
 */
import type { Decimal } from '../core/decimal.js';
import type { ConditionalRecord } from '../model/conditional.js';
import type { CreditLineState } from '../model/credit.js';
import type { Fill, FillPage, FillRange } from '../model/fills.js';
import type { FlexRecord, FlexRecordQuery } from '../model/flex.js';
import type { FuturesMarket } from '../model/markets.js';
import type { BulkItemResult, CancelRequest, CollateralOrderRequest, LimitOrderRequest, VenueOrder } from '../model/venue-orders.js';

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
  /**
   * Optional: the same as `submitLimitOrders`, each request answered before the consumer asks for
   * the next, without a turn of the event loop. Only a venue in this process can (the backtest's
   * in-process venue); the HTTP adapter has none.
   */
  submitLimitOrdersNow?(orders: readonly LimitOrderRequest[]): Iterable<BulkItemResult[]>;
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
  /**
   * `markets()` and `balances()` answered at once, without a request's turns, by a venue in
   * process (src/backtest/in-process-venue.ts); a failure is thrown. The HTTP adapter has neither;
   * MarketData reads through them when both are there (src/engine/market-data.ts).
   */
  marketsNow?(): FuturesMarket[];
  balancesNow?(): Map<string, Decimal>;
  /** Flex history records matching `query`, newest first, one page per request. */
  flexRecords(query: FlexRecordQuery): AsyncIterable<FlexRecord[]>;
  /** Closes the flex investment of a plan. */
  closeFlex(plan: string): Promise<{ transactionId: string }>;
  /** The credit line; "no active loan" is `{ active: false }`, not an error. */
  creditLine(): Promise<CreditLineState>;
  /**
   * What `creditLine` would answer now when that is known without a request (a venue in process
   * that keeps its "no active loan" answer: src/backtest/in-process-reads.ts); undefined: ask. It
   * sends no request, so it meets none of a request's refusals. The HTTP adapter has none. The
   * credit check then reports at once, without the request's turns.
   */
  creditLineKnown?(): CreditLineState | undefined;
  /**
   * Server time minus local time (ms) from the last reply's `Date` header (1 s resolution);
   * undefined before any reply or when the venue sends none.
   */
  clockSkewMs(): number | undefined;
  /**
   * Optional: the account change mark as of now, a number that moves on every deal of the
   * account and every change of its conditional listing (records and the orders they carry).
   * Only a venue the engine can see into, on the engine's own clock (so no deal is stamped after
   * the engine's now), offers it: the backtest's in-process venue. The HTTP adapter has none.
   * The reconciler skips a pass when nothing it reads can have changed (docs/architecture.md §4).
   */
  changes?(): number;
}
