/**
 * The API v4 endpoints the gateway adapter uses (`VenueApi`, src/exchange/venue-gateway.ts),
 * answered in process by the simulator's own route handlers (src/simulator/routes/), as
 * NautilusTrader swaps only its execution client for a simulated one. A request is the wire body
 * the client would sign (requests.ts), the reply is the handler's wire body, read by the client's
 * own parsers (parse.ts, bulk-reply.ts) and, for an error status, by its own classification
 * (errors.ts, quirks.ts); what is left out is only the seam: HTTP, signing, nonces, JSON text
 * and the rate-limit queue. The futures listing, read at every price step, and a bulk placement
 * are taken as the client's model directly (`futuresListing`: the simulator builds its wire reply
 * from it, and test/unit/simulator/futures-listing.test.ts holds the two equal; its entries are
 * kept while their market stands still, in-process-futures.ts; a bulk and a cancel's order:
 * in-process-orders.ts, held equal to the wire path by test/unit/backtest/in-process-bulk.test.ts
 * and in-process-cancel.test.ts).
 * A backtest's venue shares the engine's clock, so the clock skew is 0.
 */
import { AmbiguousOutcomeError, AuthError, BadResponseError, type BotError } from '../core/errors.js';
import type { Decimal } from '../core/decimal.js';
import { chunkFailed } from '../exchange/bulk/outcomes.js';
import { chunkReply, slotOutcomes } from '../exchange/bulk/reply.js';
import { isValidatedChunk } from '../exchange/bulk/request.js';
import { ENDPOINTS, type EndpointName } from '../exchange/endpoints.js';
import { classify, type CallContext } from '../exchange/errors.js';
import type { BulkItemResult, CancelRequest, VenueOrder } from '../model/venue-orders.js';
import type { ConditionalPage, ConditionalRecord } from '../model/conditional.js';
import type { CreditLineState } from '../model/credit.js';
import type { ExecutedHistoryQuery, Fill } from '../model/fills.js';
import type { FlexHistoryQuery, FlexPage } from '../model/flex.js';
import type { FuturesMarket } from '../model/markets.js';
import { parseConditionalPage, parseConditionalRecord, parseExecutedHistory, parseOrder } from '../exchange/parse.js';
import {
  FLEX_ACTION_CODES,
  parseBalanceMap,
  parseFlexClose,
  parseFlexPage,
  parseLoan,
} from '../exchange/parse-account.js';
import { quirkOf, type QuirkMeaning } from '../exchange/quirks.js';
import { mismatchedField, placementIdentity, type OrderIdentity } from '../exchange/reply-match.js';
import { collateralBody, orderItem, type CollateralOrderInput, type ConditionalQuery, type LimitOrderInput } from '../exchange/requests.js';
import type { HttpResponse } from '../exchange/transport.js';
import { validateBulk, validateCancel, validateCollateral, validateConditional, validateExecutedHistory, validateFlexHistory } from '../exchange/validate.js';
import type { VenueApi } from '../exchange/venue-gateway.js';
import type { Account } from '../simulator/account.js';
import { SimHttpError } from '../simulator/errors.js';
import { balance, creditLine, flexClose, flexHistory } from '../simulator/routes/account.js';
import { conditionalList, executedHistory } from '../simulator/routes/history.js';
import { bulk, cancelledOrder, collateralLimit, MAX_BULK } from '../simulator/routes/orders.js';
import { balanceModel } from './in-process-balances.js';
import { KeptFutures } from './in-process-futures.js';
import { orderModel, placeBulk } from './in-process-orders.js';
import { futuresListing } from '../simulator/routes/public.js';
import type { PrivateHandler, RouteContext, RouteResult } from '../simulator/routes/types.js';
import type { Venue } from '../simulator/venue.js';

function ctxOf(endpoint: EndpointName, rpiIoc?: boolean): CallContext {
  const spec = ENDPOINTS[endpoint];
  // Built field by field: a spread of the options takes V8's slow path (one context per placement).
  const ctx: CallContext = { endpoint, orderEndpoint: spec.orderEndpoint, privateEndpoint: spec.method === 'POST' };
  if (rpiIoc !== undefined) ctx.rpiIoc = rpiIoc;
  return ctx;
}

/** An error answer as the client would have received it (the server's error body as JSON text). */
function asResponse(r: RouteResult): HttpResponse {
  const body = r.body instanceof SimHttpError ? (r.body.raw?.text ?? JSON.stringify(r.body.body)) : JSON.stringify(r.body);
  return { status: r.status, body, contentType: 'application/json', dateMs: undefined, retryAfterMs: undefined };
}

/**
 * The client's quirk classification (quirks.ts) of error replies, remembered per endpoint for
 * the last reply text: it is a function of endpoint, status and text, and a backtest gets the
 * same refusal ("no active loan") every minute. Successes are never classified.
 */
export function quirkReader(): (endpoint: EndpointName, r: RouteResult) => QuirkMeaning | undefined {
  const last = new Map<EndpointName, { status: number; text: string; quirk: QuirkMeaning | undefined }>();
  return (endpoint, r) => {
    if (r.status < 300) return undefined;
    const res = asResponse(r);
    const hit = last.get(endpoint);
    if (hit !== undefined && hit.status === res.status && hit.text === res.body) return hit.quirk;
    const quirk = quirkOf(endpoint, res);
    last.set(endpoint, { status: res.status, text: res.body, quirk });
    return quirk;
  };
}

/** Readings held by conditionalReader: a listing has a few records; more means old ones. */
const HELD_RECORDS = 256;

/**
 * The client's reading of conditional records (parse.ts), remembered by the record's wire text:
 * a reading is a function of that text, and the reconciler lists the same records after every
 * deal. Only successful readings are held (a refusal throws each time), frozen, since each is
 * handed out again; at most HELD_RECORDS of them.
 */
export function conditionalReader(): typeof parseConditionalRecord {
  const held = new Map<string, ConditionalRecord>();
  return (endpoint, value, path) => {
    const text = JSON.stringify(value);
    const hit = held.get(text);
    if (hit !== undefined) return hit;
    const rec = freezeRecord(parseConditionalRecord(endpoint, value, path));
    if (held.size >= HELD_RECORDS) held.clear();
    held.set(text, rec);
    return rec;
  };
}

function freezeRecord(rec: ConditionalRecord): ConditionalRecord {
  const legs = rec.kind === 'oto' ? [rec.parent] : [rec.stopLoss, rec.takeProfit];
  for (const leg of legs) if (leg !== undefined) Object.freeze(leg);
  return Object.freeze(rec);
}

/** The reply's body when it is a success; an error status throws what the client would throw. */
function bodyOf(ctx: CallContext, r: RouteResult): unknown {
  if (r.status >= 200 && r.status < 300) return r.body;
  return classify(ctx, asResponse(r));
}

/** A write's reply order, which must be the order the write was about (as the client checks it). */
function orderReply(endpoint: EndpointName, json: unknown, want: OrderIdentity): VenueOrder {
  return sameOrder(endpoint, parseOrder(endpoint, json), want);
}

/** `order` when it is the order the write was about, else what the client throws. */
function sameOrder(endpoint: EndpointName, order: VenueOrder, want: OrderIdentity): VenueOrder {
  const field = mismatchedField(order, want);
  if (field !== undefined) throw new BadResponseError(endpoint, field, 'the reply is about another order than the one requested');
  return order;
}

/**
 * The cancel route with its reply as the client's model (`orderModel`, as for a bulk placement):
 * no decimal printed and parsed back. test/unit/backtest/in-process-cancel.test.ts holds it equal
 * to the route's wire reply read by the client.
 */
const cancelModel: PrivateHandler = (ctx, account, body) => ({ status: 200, body: orderModel(cancelledOrder(ctx, account, body)) });

function defined(fields: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
}

/** A handler's answer, its refusals (SimHttpError) as an error status, as the server's route() does. */
function call(venue: Venue, ctx: RouteContext, account: Account, handler: PrivateHandler, body: Record<string, unknown>): RouteResult {
  venue.catchUp();
  try {
    return handler(ctx, account, body);
  } catch (err) {
    if (!(err instanceof SimHttpError)) throw err;
    return err.raw === undefined ? { status: err.status, body: err.body } : { status: err.status, body: err };
  }
}

export interface InProcessApi extends VenueApi {
  /** Requests answered so far (the run loop's sign of progress). */
  received(): number;
  /** `bulkLimitOrders` answered at once (what the gateway's `submitLimitOrdersNow` sends). */
  bulkLimitOrdersNow(orders: readonly LimitOrderInput[]): BulkItemResult[];
  /** `futures()`'s answer made at once (it makes no request turn: the gateway's `marketsNow`). */
  futuresNow(): FuturesMarket[];
  /** `mainBalance()`'s answer made at once (the gateway's `balancesNow`). */
  mainBalanceNow(): Map<string, Decimal>;
}

/**
 * The endpoints for one account of `venue`, answered in process. `keepFutures` (default true):
 * the futures listing's entries are kept while what each is built from stands still
 * (in-process-futures.ts); false: each listing is built afresh.
 */
export function inProcessApi(venue: Venue, account: Account, keepFutures = true): InProcessApi {
  const listing = keepFutures ? new KeptFutures(venue) : undefined;
  const ctx: RouteContext = { venue, options: { flatHistoryWithMarket: false } };
  let received = 0;
  const quirk = quirkReader();
  const conditional = conditionalReader();
  const run = (handler: PrivateHandler, body: Record<string, unknown>): RouteResult => {
    received++;
    return call(venue, ctx, account, handler, body);
  };
  const ambiguous = (cause: BotError, cids: string[]): AmbiguousOutcomeError =>
    new AmbiguousOutcomeError('bulkLimitOrders', cids, `bulkLimitOrders: outcome unknown (${cause.message})`, { cause });
  // A bulk placement, answered at once: a refusal of the list (validation) throws, the rest is per item.
  const bulkNow = (orders: readonly LimitOrderInput[]): BulkItemResult[] => {
    // A chunk the gateway cut from the list it validated (bulk/request.ts) is not validated again.
    if (!isValidatedChunk(orders)) validateBulk(orders);
    const c = ctxOf('bulkLimitOrders', orders.some((o) => o.rpi === true && o.ioc === true));
    try {
      // Validated, 1..20 orders: the route would refuse nothing as a whole; its items are read
      // as the client's model (in-process-orders.ts).
      if (orders.length <= MAX_BULK) {
        received++;
        venue.catchUp();
        const slots = placeBulk(venue, account, 'bulkLimitOrders', orders);
        return slotOutcomes(c, orders, { slots, length: orders.length }, false, ambiguous).items;
      }
      const reply = bodyOf(c, run(bulk, { orders: orders.map(orderItem), stopOnFail: false }));
      return chunkReply(c, orders, reply, false, ambiguous).items;
    } catch (err) {
      // A whole-request refusal: every item carries it, as the client's chunk failure does.
      return chunkFailed(orders, err);
    }
  };
  const futuresNow = (): FuturesMarket[] => {
    received++;
    venue.catchUp();
    return listing?.read() ?? futuresListing(venue);
  };
  const mainBalanceNow = (): Map<string, Decimal> => {
    // Read as the client's model (in-process-balances.ts); the wire form when only it can tell.
    venue.catchUp();
    const model = balanceModel(account);
    if (model === undefined) return parseBalanceMap('mainBalance', bodyOf(ctxOf('mainBalance'), run(balance, {})));
    received++;
    return model;
  };
  return {
    received: () => received,
    clockSkewMs: () => 0,
    futuresNow,
    mainBalanceNow,
    futures: async (): Promise<FuturesMarket[]> => futuresNow(),
    // The body runs at once either way: the async form only wraps its answer (or a refusal of the list) in a promise.
    bulkLimitOrders: async (orders: readonly LimitOrderInput[]): Promise<BulkItemResult[]> => bulkNow(orders),
    bulkLimitOrdersNow: bulkNow,
    collateralLimitOrder: async (order: CollateralOrderInput): Promise<VenueOrder> => {
      validateCollateral(order);
      const c = ctxOf('collateralLimitOrder', order.rpi === true && order.ioc === true);
      return orderReply('collateralLimitOrder', bodyOf(c, run(collateralLimit, { ...collateralBody(order) })), placementIdentity(order));
    },
    cancelOrder: async (request: CancelRequest): Promise<VenueOrder> => {
      validateCancel(request);
      const { market } = request;
      const fields = request.orderId !== undefined ? { market, orderId: request.orderId } : { market, clientOrderId: request.clientOrderId };
      return sameOrder('cancelOrder', bodyOf(ctxOf('cancelOrder'), run(cancelModel, fields)) as VenueOrder, fields);
    },
    conditionalOrders: async (query: ConditionalQuery = {}): Promise<ConditionalPage> => {
      validateConditional(query);
      const fields = defined({ market: query.market, offset: query.offset, limit: query.limit });
      return parseConditionalPage('conditionalOrders', bodyOf(ctxOf('conditionalOrders'), run(conditionalList, fields)), conditional);
    },
    executedHistory: async (query: ExecutedHistoryQuery = {}): Promise<Fill[]> => {
      validateExecutedHistory(query);
      const r = run(executedHistory, defined({ ...query }));
      const missing = query.clientOrderId !== undefined && quirk('executedHistory', r) === 'order_history_not_found';
      if (missing) return [];
      return parseExecutedHistory('executedHistory', bodyOf(ctxOf('executedHistory'), r), query.market);
    },
    mainBalance: (async (): Promise<Map<string, Decimal>> => mainBalanceNow()) as VenueApi['mainBalance'],
    flexHistory: async (query: FlexHistoryQuery = {}): Promise<FlexPage> => {
      validateFlexHistory(query);
      const { actionTypes, ...rest } = query;
      const fields = defined({ ...rest, actionTypes: actionTypes?.map((a) => FLEX_ACTION_CODES[a]) });
      return parseFlexPage('flexHistory', bodyOf(ctxOf('flexHistory'), run(flexHistory, fields)));
    },
    closeFlex: async (plan: string): Promise<{ transactionId: string }> => parseFlexClose('closeFlex', bodyOf(ctxOf('closeFlex'), run(flexClose, { plan }))),
    creditLine: async (): Promise<CreditLineState> => {
      const r = run(creditLine, {});
      const meaning = quirk('creditLine', r);
      if (meaning === 'no_active_loan') return { active: false };
      if (meaning === 'credit_line_disabled') {
        throw new AuthError('feature_unavailable', 'creditLine: HTTP 404 (credit line not enabled for this key)', { endpoint: 'creditLine', status: 404 });
      }
      return { active: true, loan: parseLoan('creditLine', bodyOf(ctxOf('creditLine'), r)) };
    },
  };
}
