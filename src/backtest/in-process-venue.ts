/**
 * The engine's `ExchangeGateway` on the in-process venue: the HTTP adapter's own code
 * (`createVenueGateway`, src/exchange/venue-gateway.ts) over the in-process endpoints
 * (in-process-api.ts), so chunking, conditional paging and flex paging are the ones the daemon
 * uses; only the executed-history scan differs. Over HTTP a reconciliation pages the venue's
 * history; here it reads the account's deals directly from the first one in its range (deals are
 * appended in time order), so a scan costs the deals it returns, not the whole history. It keeps
 * the venue's whole-second bounds (secondsWindow) and its order (newest first), and each deal is
 * read as the client's parser reads its wire form (in-process-deals.ts), once (ParsedDeals: scans
 * overlap); the listing of its conditional orders is kept while its mark stands still
 * (in-process-listing.ts). It
 * also offers what HTTP cannot: the account's change mark (`changes`), with which the reconciler
 * skips a pass over an unchanged venue (docs/backtesting.md § In process), and a limit placement
 * answered at once (`submitLimitOrdersNow`: the adapter's chunking over the API's answers, with
 * no promise per request; test/unit/backtest/in-process-place-now.test.ts). Its balances, credit
 * line and flex history answers are kept while the account state they read stands still
 * (in-process-reads.ts).
 */
import type { ExchangeGateway } from '../exchange/gateway.js';
import type { Fill, FillPage, FillRange } from '../model/fills.js';
import type { BulkItemResult, LimitOrderRequest } from '../model/venue-orders.js';
import { submitInChunksNow } from '../exchange/bulk/request.js';
import type { CreditLineState } from '../model/credit.js';
import type { Decimal } from '../core/decimal.js';
import type { FuturesMarket } from '../model/markets.js';
import { secondsWindow } from '../exchange/history-pages.js';
import { createVenueGateway } from '../exchange/venue-gateway.js';
import type { Account } from '../simulator/account.js';
import type { Deal } from '../simulator/types.js';
import { dealFill } from './in-process-deals.js';
import type { InProcessApi } from './in-process-api.js';
import { KeptListing } from './in-process-listing.js';
import { KeptAccountReads } from './in-process-reads.js';

/** The index of the first deal at or after `ms` (deals are in time order). */
function firstAtOrAfter(deals: readonly Deal[], ms: number): number {
  let lo = 0;
  let hi = deals.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((deals[mid] as Deal).timeMs < ms) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export { dealFill, parseDeal } from './in-process-deals.js';

/** The deals of `range` as the venue bounds it (whole seconds, both ends inclusive), newest first. */
export function dealsInRange(deals: readonly Deal[], range: FillRange, read: (d: Deal) => readonly Fill[] = dealFill): Fill[] {
  const w = secondsWindow(range);
  const endMs = (w.endDate + 1) * 1000;
  const out: Fill[] = [];
  for (let i = firstAtOrAfter(deals, (w.startDate ?? 0) * 1000); i < deals.length; i++) {
    const d = deals[i] as Deal;
    if (d.timeMs >= endMs) break;
    out.push(...read(d));
  }
  return out.reverse();
}

/**
 * The parsed deals of the last range read, by deal: consecutive scans overlap by minutes, and a
 * deal is read by the client's parser once, not on every scan its time falls in. A deal never
 * changes once made (the venue only appends), so its reading never goes stale; the readings are
 * frozen, since each is handed out again. Holds only the last range's deals.
 */
export class ParsedDeals {
  private held = new Map<Deal, readonly Fill[]>();

  constructor(private readonly parse: (d: Deal) => readonly Fill[] = dealFill) {}

  read(deals: readonly Deal[], range: FillRange): Fill[] {
    const previous = this.held;
    const next = new Map<Deal, readonly Fill[]>();
    const out = dealsInRange(deals, range, (d) => {
      let fills = previous.get(d);
      if (fills === undefined) fills = Object.freeze(this.parse(d).map((f) => Object.freeze(f)));
      next.set(d, fills);
      return fills;
    });
    this.held = next;
    return out;
  }
}

export interface InProcessGatewayOptions {
  /** Fills per page of a history scan (the adapter's page size). Default 100. */
  historyPageSize?: number;
  /** Records per flex history request. Default 100. */
  flexPageSize?: number;
  /**
   * Brings the venue up to now (its `catchUp`, which every request runs first), so the change
   * mark is read as of now. Without it the mark is read as it stands.
   */
  catchUp?: () => void;
  /** Offer the account change mark (`changes`). Default true; false: every reconciliation runs in full. */
  changeMark?: boolean;
  /**
   * Keep the balances, credit line and flex history answers while the account state they read
   * stands still (in-process-reads.ts). Default true; false: every read is a request.
   */
  keepReads?: boolean;
  /**
   * Keep the conditional listing while the account's listing mark stands still
   * (in-process-listing.ts). Default true; false: every listing is a request.
   */
  keepListing?: boolean;
  /**
   * Moves the account's deals far behind the scans to its archive (Account.archiveBefore; none
   * without an archive). Absent: every deal stays in memory.
   */
  archive?: DealsHeld;
  /**
   * Offer `submitLimitOrdersNow`: a bulk placement answered without a promise per request (the
   * in-process API answers at once anyway). Default true; false: only the adapter's async path.
   */
  placeNow?: boolean;
}

/**
 * When deals leave memory: once `batch` are held, those more than `behindMs` before the start of
 * the scan just read. A scan starts `overlapMs` before the reconciler's checkpoint, which only
 * moves on, so later scans never reach them; the resolver's look-ups by order and an earlier
 * range still get them, read back from the archive (docs/backtesting.md § Memory).
 */
export interface DealsHeld {
  batch: number;
  behindMs: number;
}

class InProcessGateway implements ExchangeGateway {
  private readonly inner: ExchangeGateway;
  private readonly pageSize: number;
  private readonly parsed = new ParsedDeals();
  private readonly held: DealsHeld | undefined;
  private readonly kept: KeptAccountReads | undefined;
  private readonly listing: KeptListing | undefined;
  /** The account's change mark (src/simulator/account.ts) as of now; absent when turned off. */
  readonly changes?: () => number;
  /** The adapter's chunking over the API's answer at once; absent when turned off. */
  readonly submitLimitOrdersNow?: (orders: readonly LimitOrderRequest[]) => Iterable<BulkItemResult[]>;
  /** The kept "no active loan" (in-process-reads.ts); absent without kept reads. */
  readonly creditLineKnown?: () => CreditLineState | undefined;
  /** `markets()` and `balances()` answered at once: the route runs in process, no request turn. */
  readonly marketsNow: () => FuturesMarket[];
  readonly balancesNow: () => Map<string, Decimal>;

  constructor(
    api: InProcessApi,
    private readonly account: Account,
    options: InProcessGatewayOptions,
  ) {
    this.inner = createVenueGateway(api, options);
    this.pageSize = options.historyPageSize ?? 100;
    this.held = options.archive;
    const catchUp = options.catchUp ?? (() => undefined);
    const kept = options.keepReads === false ? undefined : new KeptAccountReads(account, catchUp);
    this.kept = kept;
    this.marketsNow = () => api.futuresNow();
    if (kept === undefined) this.balancesNow = () => api.mainBalanceNow();
    else {
      this.creditLineKnown = () => kept.creditLineKnown();
      this.balancesNow = () => kept.balancesNow(() => api.mainBalanceNow());
    }
    if (options.keepListing !== false) this.listing = new KeptListing(account, catchUp);
    if (options.placeNow !== false) this.submitLimitOrdersNow = (o) => submitInChunksNow((part) => api.bulkLimitOrdersNow(part), o);
    if (options.changeMark !== false) {
      this.changes = () => {
        catchUp();
        return account.changes;
      };
    }
  }

  /** The range's deals, read at once, handed out in pages of the adapter's size (newest first). */
  async *fills(range: FillRange): AsyncIterable<FillPage> {
    const fromMs = secondsWindow(range).startDate;
    const all = this.parsed.read(this.account.dealsReaching(undefined, fromMs === undefined ? undefined : fromMs * 1000), range);
    const held = this.held;
    if (held !== undefined && fromMs !== undefined && this.account.deals.length >= held.batch) this.account.archiveBefore(fromMs * 1000 - held.behindMs);
    for (let i = 0; i === 0 || i < all.length; i += this.pageSize) yield { fills: all.slice(i, i + this.pageSize), repeated: 0 };
  }

  submitLimitOrders: ExchangeGateway['submitLimitOrders'] = (o) => this.inner.submitLimitOrders(o);
  submitCollateralOrder: ExchangeGateway['submitCollateralOrder'] = (o) => this.inner.submitCollateralOrder(o);
  cancelOrder: ExchangeGateway['cancelOrder'] = (r) => this.inner.cancelOrder(r);
  fillsOfOrder: ExchangeGateway['fillsOfOrder'] = (o) => this.inner.fillsOfOrder(o);
  protectiveOrders: ExchangeGateway['protectiveOrders'] = (m) => this.listing?.read(m, () => this.inner.protectiveOrders(m)) ?? this.inner.protectiveOrders(m);
  balances: ExchangeGateway['balances'] = () => this.kept?.balances(() => this.inner.balances()) ?? this.inner.balances();
  markets: ExchangeGateway['markets'] = () => this.inner.markets();
  flexRecords: ExchangeGateway['flexRecords'] = (q) => this.kept?.flexRecords(q, () => this.inner.flexRecords(q)) ?? this.inner.flexRecords(q);
  closeFlex: ExchangeGateway['closeFlex'] = (p) => this.inner.closeFlex(p);
  creditLine: ExchangeGateway['creditLine'] = () => this.kept?.creditLine(() => this.inner.creditLine()) ?? this.inner.creditLine();
  clockSkewMs: ExchangeGateway['clockSkewMs'] = () => this.inner.clockSkewMs();
}

/** The gateway on one account of the in-process venue. */
export function inProcessGateway(api: InProcessApi, account: Account, options: InProcessGatewayOptions = {}): ExchangeGateway {
  return new InProcessGateway(api, account, options);
}
