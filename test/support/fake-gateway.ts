/**
 * A hand-written in-memory ExchangeGateway for engine unit tests. It fakes the venue's requests
 * (one method per endpoint, scripted with plain functions, every call recorded: tests replace or
 * wrap them) and serves the port through the same chunking and paging kernels as the real
 * adapter (src/exchange/venue-gateway.ts), so requests look as they would on the venue. The
 * gateway contract suite (test/contract/) runs against both. Not a venue: it fills nothing by
 * itself (a `fill` script, or tests adding deals with `addDeal`).
 */
import { Decimal, ZERO } from '../../src/core/decimal.js';
import { AmbiguousOutcomeError, InvalidOrderError, TransientError, type BotError } from '../../src/core/errors.js';
import { submitInChunks } from '../../src/exchange/bulk/request.js';
import type { ExchangeGateway } from '../../src/exchange/gateway.js';
import type {
  BulkItemResult,
  CancelRequest,
  CollateralOrderRequest,
  LimitOrderRequest,
  VenueOrder,
} from '../../src/model/venue-orders.js';
import type { ConditionalPage, ConditionalRecord, OtoRecord } from '../../src/model/conditional.js';
import type { CreditLineState } from '../../src/model/credit.js';
import type { ExecutedHistoryQuery, Fill, FillPage, FillRange } from '../../src/model/fills.js';
import type { FlexHistoryQuery, FlexPage, FlexRecord, FlexRecordQuery } from '../../src/model/flex.js';
import type { FuturesMarket } from '../../src/model/markets.js';
import type { Side } from '../../src/core/orders.js';
import { fillsOfOrder, historyPages } from '../../src/exchange/history-pages.js';
import { conditionalListing, flexPages } from '../../src/exchange/paged-lists.js';

/** What happens to one placed order. `applied_unknown`: applied, but the caller gets an ambiguous error. */
export type PlaceScript = 'place' | 'reject' | 'unknown' | 'applied_unknown' | 'not_sent' | 'fill';

export class FakeGateway implements ExchangeGateway {
  readonly venueOrders = new Map<string, VenueOrder>();
  /** Newest first, like the venue. */
  deals: Fill[] = [];
  /** Listed conditional records besides the OTOs of resting collateral orders (listed by themselves). */
  conditional: ConditionalRecord[] = [];
  /** The flex history (any order; served newest first). */
  flexLedger: FlexRecord[] = [];
  balanceMap = new Map<string, Decimal>();
  marketList: FuturesMarket[] = [];
  /** Deals per executed-history request, as the real adapter's `historyPageSize`. */
  historyPageSize = 100;
  /** Records per flex history request. */
  flexPageSize = 100;
  credit: CreditLineState | Error = { active: false };
  flexError: Error | undefined;
  calls: { method: string; arg: unknown }[] = [];
  place: (o: LimitOrderRequest) => PlaceScript = () => 'place';
  cancelScript: (r: CancelRequest) => 'ok' | 'unknown' | 'default' = () => 'default';
  historyError: Error | undefined;
  /** What `clockSkewMs()` answers (server minus local, ms). */
  skewMs: number | undefined;
  /** Called when a placement request arrives, before anything is decided. */
  onPlaceRequest: ((orders: readonly LimitOrderRequest[]) => void) | undefined;
  private nextId = 1000;
  private nextDeal = 1;

  /** `now`: the time of deals the fake makes itself (default: fixed times 1.7e12 + deal id). */
  constructor(private readonly now?: () => number) {}

  private venueOrder(o: LimitOrderRequest, filled = false): VenueOrder {
    const v: VenueOrder = {
      orderId: this.nextId++,
      clientOrderId: o.clientOrderId,
      market: o.market,
      side: o.side,
      type: 'limit',
      timestampMs: 0,
      amount: o.amount,
      price: o.price,
      filledBase: filled ? o.amount : ZERO,
      filledQuote: filled ? o.amount.mul(o.price) : ZERO,
      remaining: filled ? ZERO : o.amount,
      fee: ZERO,
      status: filled ? 'FILLED' : 'OPEN',
      rawStatus: filled ? 'FILLED' : 'NEW',
      postOnly: o.postOnly ?? false,
      ioc: o.ioc ?? false,
      rpi: o.rpi ?? false,
    };
    this.venueOrders.set(o.clientOrderId, v);
    if (filled) this.addDeal(v, o.amount, o.price);
    return v;
  }

  /** Records a deal of `v` (newest first). */
  addDeal(
    v: { orderId: number; clientOrderId: string; market: string; side: Side },
    amount: Decimal,
    price: Decimal,
    timeMs = this.now?.() ?? 1_700_000_000_000 + this.nextDeal,
  ): Fill {
    const f: Fill = {
      dealId: this.nextDeal++,
      orderId: v.orderId,
      clientOrderId: v.clientOrderId,
      market: v.market,
      side: v.side,
      role: 'maker',
      timeMs,
      amount,
      price,
      quote: amount.mul(price),
      fee: amount.mul(price).mul('0.001'),
      feeAsset: 'USDT',
    };
    this.deals.unshift(f);
    return f;
  }

  // ---- the port, over the faked requests below ----

  submitLimitOrders(orders: readonly LimitOrderRequest[]): AsyncIterable<BulkItemResult[]> {
    return submitInChunks((part) => this.bulkLimitOrders(part), orders);
  }

  submitCollateralOrder(order: CollateralOrderRequest): Promise<VenueOrder> {
    return this.collateralLimitOrder(order);
  }

  fills(range: FillRange): AsyncIterable<FillPage> {
    return historyPages((q) => this.executedHistory(q), range, { pageSize: this.historyPageSize });
  }

  fillsOfOrder(order: { market: string; clientOrderId: string }): Promise<Fill[]> {
    return fillsOfOrder((q) => this.executedHistory(q), order);
  }

  protectiveOrders(markets: readonly string[]): Promise<ConditionalRecord[]> {
    return conditionalListing((q) => this.conditionalOrders(q), markets);
  }

  async balances(): Promise<Map<string, Decimal>> {
    return new Map(this.balanceMap);
  }

  async markets(): Promise<FuturesMarket[]> {
    return [...this.marketList];
  }

  flexRecords(query: FlexRecordQuery): AsyncIterable<FlexRecord[]> {
    return flexPages((q) => this.flexHistory(q), query, this.flexPageSize);
  }

  // ---- the venue's requests, faked ----

  async bulkLimitOrders(orders: readonly LimitOrderRequest[]): Promise<BulkItemResult[]> {
    this.calls.push({ method: 'bulk', arg: orders });
    this.onPlaceRequest?.(orders);
    return orders.map((o): BulkItemResult => {
      const s = this.place(o);
      const cid = o.clientOrderId;
      switch (s) {
        case 'place':
        case 'fill':
          return { status: 'placed', clientOrderId: cid, order: this.venueOrder(o, s === 'fill') };
        case 'reject':
          return { status: 'rejected', clientOrderId: cid, error: new InvalidOrderError('insufficient_funds', 'Not enough balance.', 10) };
        case 'not_sent':
          return { status: 'not_sent', clientOrderId: cid, error: new TransientError('rate_limited', '429') as BotError };
        case 'applied_unknown':
          this.venueOrder(o);
          return { status: 'unknown', clientOrderId: cid, error: new AmbiguousOutcomeError('bulk', [cid], 'reset') };
        case 'unknown':
          return { status: 'unknown', clientOrderId: cid, error: new AmbiguousOutcomeError('bulk', [cid], 'reset') };
      }
    });
  }

  async collateralLimitOrder(order: CollateralOrderRequest): Promise<VenueOrder> {
    this.calls.push({ method: 'collateral', arg: order });
    this.onPlaceRequest?.([order]);
    const s = this.place(order);
    if (s === 'reject') throw new InvalidOrderError('insufficient_funds', 'Not enough balance.', 10);
    if (s === 'unknown') throw new AmbiguousOutcomeError('collateral', [order.clientOrderId], 'reset');
    const v = this.venueOrder(order, s === 'fill');
    if (order.stopLoss !== undefined || order.takeProfit !== undefined) {
      v.oto = { otoId: this.nextId++, ...(order.stopLoss === undefined ? {} : { stopLoss: order.stopLoss }), ...(order.takeProfit === undefined ? {} : { takeProfit: order.takeProfit }) };
    }
    if (s === 'applied_unknown') throw new AmbiguousOutcomeError('collateral', [order.clientOrderId], 'reset');
    return v;
  }

  async cancelOrder(r: CancelRequest): Promise<VenueOrder> {
    this.calls.push({ method: 'cancel', arg: r });
    const script = this.cancelScript(r);
    const v =
      r.clientOrderId !== undefined ? this.venueOrders.get(r.clientOrderId) : [...this.venueOrders.values()].find((o) => o.orderId === r.orderId);
    if (script === 'unknown') throw new AmbiguousOutcomeError('cancel', [], 'timeout');
    if (v === undefined || v.status === 'FILLED' || v.status === 'CANCELLED') {
      throw new InvalidOrderError('order_not_found', 'Unexecuted order was not found.', 2);
    }
    v.status = 'CANCELLED';
    return { ...v };
  }

  /** The OTO record a resting collateral order with a stop-loss or take-profit is listed under. */
  private armedOto(v: VenueOrder): OtoRecord[] {
    if (v.oto === undefined || (v.status !== 'OPEN' && v.status !== 'PARTIALLY_FILLED')) return [];
    const { orderId, clientOrderId, market, side, amount, price, filledBase, filledQuote, remaining, fee, status, timestampMs } = v;
    const parent = { orderId, clientOrderId, market, side, type: 'limit', rawType: v.type, status, amount, price, timestampMs };
    const prices = {
      ...(v.oto.stopLoss === undefined ? {} : { stopLossPrice: v.oto.stopLoss }),
      ...(v.oto.takeProfit === undefined ? {} : { takeProfitPrice: v.oto.takeProfit }),
    };
    return [{ kind: 'oto', id: v.oto.otoId, ...prices, parent: { ...parent, filledBase, filledQuote, remaining, fee } }];
  }

  async conditionalOrders(q: { market: string; offset?: number; limit?: number }): Promise<ConditionalPage> {
    this.calls.push({ method: 'conditional', arg: q });
    const scripted = new Set(this.conditional.map((r) => r.id));
    const armed = [...this.venueOrders.values()].flatMap((v) => this.armedOto(v)).filter((r) => !scripted.has(r.id));
    const all = [...this.conditional, ...armed].filter((r) => (r.kind === 'oto' ? r.parent.market : (r.stopLoss ?? r.takeProfit)?.market) === q.market);
    const offset = q.offset ?? 0;
    const limit = q.limit ?? 100;
    return { limit, offset, total: all.length, records: all.slice(offset, offset + limit) };
  }

  clockSkewMs(): number | undefined {
    return this.skewMs;
  }

  async executedHistory(q: ExecutedHistoryQuery = {}): Promise<Fill[]> {
    this.calls.push({ method: 'history', arg: q });
    if (this.historyError !== undefined) throw this.historyError;
    let list = this.deals;
    if (q.clientOrderId !== undefined) list = list.filter((d) => d.clientOrderId === q.clientOrderId);
    if (q.market !== undefined) list = list.filter((d) => d.market === q.market);
    if (q.startDate !== undefined) list = list.filter((d) => d.timeMs >= (q.startDate as number) * 1000);
    if (q.endDate !== undefined) list = list.filter((d) => d.timeMs < ((q.endDate as number) + 1) * 1000);
    const offset = q.offset ?? 0;
    return list.slice(offset, offset + (q.limit ?? 50));
  }

  mainBalance(): Promise<Map<string, Decimal>>;
  mainBalance(ticker: string): Promise<Decimal>;
  async mainBalance(ticker?: string): Promise<Map<string, Decimal> | Decimal> {
    return ticker === undefined ? new Map() : new Decimal(0);
  }

  async flexHistory(q: FlexHistoryQuery = {}): Promise<FlexPage> {
    this.calls.push({ method: 'flexHistory', arg: q });
    if (this.flexError !== undefined) throw this.flexError;
    let list = [...this.flexLedger].sort((a, b) => b.createdAtMs - a.createdAtMs);
    if (q.dateFrom !== undefined) list = list.filter((r) => r.createdAtMs >= (q.dateFrom as number) * 1000);
    if (q.plan !== undefined) list = list.filter((r) => r.planId === q.plan);
    if (q.actionTypes !== undefined) list = list.filter((r) => q.actionTypes?.includes(r.actionType));
    const offset = q.offset ?? 0;
    const limit = q.limit ?? 50;
    return { records: list.slice(offset, offset + limit), limit, offset };
  }

  async closeFlex(plan: string): Promise<{ transactionId: string }> {
    this.calls.push({ method: 'closeFlex', arg: plan });
    const transactionId = `tx-${plan}`;
    const invested = this.flexLedger.find((r) => r.planId === plan);
    const createdAtMs = this.now?.() ?? 1_700_000_000_000;
    if (invested !== undefined) this.flexLedger.push({ ...invested, transactionId, createdAtMs, actionType: 'CLOSE_INVESTMENT' });
    return { transactionId };
  }

  async creditLine(): Promise<CreditLineState> {
    if (this.credit instanceof Error) throw this.credit;
    return this.credit;
  }
}
