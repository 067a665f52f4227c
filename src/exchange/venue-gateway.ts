/**
 * `createVenueGateway(client)`: the engine's `ExchangeGateway` port over the API v4 client. The
 * client stays one method per endpoint (the library API); this adapter adds what the engine
 * should not know: chunking of bulks, paging of history and listings, and second-resolution
 * bounds.
 */
import type { Decimal } from '../core/decimal.js';
import { submitInChunks } from './bulk/request.js';
import type { ApiClient } from './api-client.js';
import type { EndpointName } from './endpoints.js';
import type { ExchangeGateway } from './gateway.js';
import type {
  BulkItemResult,
  CancelRequest,
  CollateralOrderRequest,
  LimitOrderRequest,
  VenueOrder,
} from '../model/venue-orders.js';
import type { ConditionalRecord } from '../model/conditional.js';
import type { CreditLineState } from '../model/credit.js';
import type { Fill, FillPage, FillRange } from '../model/fills.js';
import type { FlexRecord, FlexRecordQuery } from '../model/flex.js';
import type { FuturesMarket } from '../model/markets.js';
import { fillsOfOrder, historyPages, HISTORY_PAGE_MAX } from './history-pages.js';
import { conditionalListing, flexPages } from './paged-lists.js';

/** The endpoints the adapter uses (an `ApiClient` has them all): every one but the liveness ping. */
export type VenueApi = Pick<ApiClient, Exclude<EndpointName, 'ping'> | 'clockSkewMs'>;

export interface VenueGatewayOptions {
  /** Deals per executed-history request, 1..100. Default 100. */
  historyPageSize?: number;
  /** Records per flex history request. Default 100. */
  flexPageSize?: number;
}

export function createVenueGateway(api: VenueApi, options: VenueGatewayOptions = {}): ExchangeGateway {
  return new VenueGateway(api, options.historyPageSize ?? HISTORY_PAGE_MAX, options.flexPageSize ?? 100);
}

class VenueGateway implements ExchangeGateway {
  constructor(
    private readonly api: VenueApi,
    private readonly historyPageSize: number,
    private readonly flexPageSize: number,
  ) {}

  submitLimitOrders(orders: readonly LimitOrderRequest[]): AsyncIterable<BulkItemResult[]> {
    return submitInChunks((part) => this.api.bulkLimitOrders(part), orders);
  }

  submitCollateralOrder(order: CollateralOrderRequest): Promise<VenueOrder> {
    return this.api.collateralLimitOrder(order);
  }

  cancelOrder(request: CancelRequest): Promise<VenueOrder> {
    return this.api.cancelOrder(request);
  }

  fills(range: FillRange): AsyncIterable<FillPage> {
    return historyPages((q) => this.api.executedHistory(q), range, { pageSize: this.historyPageSize });
  }

  fillsOfOrder(order: { market: string; clientOrderId: string }): Promise<Fill[]> {
    return fillsOfOrder((q) => this.api.executedHistory(q), order);
  }

  protectiveOrders(markets: readonly string[]): Promise<ConditionalRecord[]> {
    return conditionalListing((q) => this.api.conditionalOrders(q), markets);
  }

  balances(): Promise<Map<string, Decimal>> {
    return this.api.mainBalance();
  }

  markets(): Promise<FuturesMarket[]> {
    return this.api.futures();
  }

  flexRecords(query: FlexRecordQuery): AsyncIterable<FlexRecord[]> {
    return flexPages((q) => this.api.flexHistory(q), query, this.flexPageSize);
  }

  closeFlex(plan: string): Promise<{ transactionId: string }> {
    return this.api.closeFlex(plan);
  }

  creditLine(): Promise<CreditLineState> {
    return this.api.creditLine();
  }

  clockSkewMs(): number | undefined {
    return this.api.clockSkewMs();
  }
}
