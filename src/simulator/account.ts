/**
 * One account of the venue: balances (available and held), orders, deals, positions,
 * conditional records, flex investments and its nonce state.
 */
import { Decimal, ZERO, dec } from '../core/decimal.js';
import type { AccountOptions, LoanOptions } from './options.js';
import { ConditionalMap } from './conditional-map.js';
import type { ConditionalRecord, Deal, DealArchive, FlexInvestment, FlexRecord, Position, SimOrder } from './types.js';

export class Account {
  readonly apiKey: string;
  readonly apiSecret: string;
  readonly hedgeMode: boolean;
  readonly loan: LoanOptions | undefined;
  readonly creditLineEnabled: boolean;
  readonly flexEnabled: boolean;
  /** False: orders that ended outside any conditional record are forgotten (AccountOptions.keepSettledOrders). */
  readonly keepsSettledOrders: boolean;
  /** Available balance per asset (what the main balance endpoint answers). */
  readonly balances = new Map<string, Decimal>();
  /** Held for open orders, per asset. */
  readonly locked = new Map<string, Decimal>();
  /** Every order ever accepted, by id, in acceptance order. */
  readonly orders = new Map<number, SimOrder>();
  /** The deals held in memory, in time order: all of them, or those after `archivedBeforeMs`. */
  readonly deals: Deal[] = [];
  /** Older deals, when an archive is set (a backtest's; the daemon holds every deal). */
  private archive: DealArchive | undefined;
  /** Every deal before this instant (ms) is in the archive, every later one in `deals`. */
  private archivedBefore = 0;
  readonly positions = new Map<string, Position>();
  readonly conditionals = new ConditionalMap();
  readonly flex: FlexInvestment[] = [];
  readonly flexLedger: FlexRecord[] = [];
  /** Highest nonce accepted in strict mode (integer as bigint: nonces may exceed 2^53). */
  lastNonce: bigint | null = null;
  /** Window-mode nonces seen recently → their value in ms, pruned as the window moves. */
  readonly windowNonces = new Map<string, number>();
  private changeMark = 0;
  private listingMark = 0;
  /** The newest deal a `changed` call has seen: a deal is appended right before its call. */
  private dealSeen: Deal | undefined;

  constructor(opts: AccountOptions) {
    this.apiKey = opts.apiKey;
    this.apiSecret = opts.apiSecret;
    this.hedgeMode = opts.hedgeMode ?? false;
    this.loan = opts.loan;
    this.creditLineEnabled = opts.creditLineEnabled ?? true;
    this.flexEnabled = opts.flexEnabled ?? true;
    this.keepsSettledOrders = opts.keepSettledOrders ?? true;
    for (const [asset, amount] of Object.entries(opts.balances ?? {})) this.balances.set(asset, dec(amount));
  }

  /**
   * The account change mark: a counter that moves on every deal of the account (every fill of
   * any order) and every change of its conditional listing: an OTO or OCO record created,
   * activated or ended, and the orders those records carry (an OTO's parent, an OCO's legs)
   * cancelled. A plain order placed or cancelled without a deal leaves it: equal marks prove
   * that nothing a reconciliation reads from the venue (executed history, the conditional
   * listing) changed in between (docs/backtesting.md § The in-process venue).
   */
  get changes(): number {
    return this.changeMark;
  }

  /**
   * The conditional listing's change mark: a counter that moves on every change of what the
   * account's conditional listing shows (an OTO or OCO record created, activated or ended, an
   * order it carries cancelled or dealt). Unlike `changes` it stays on a deal of an order no
   * record carries (a plain grid order's fill), so equal marks prove the listing is the same
   * (docs/backtesting.md § The in-process venue).
   */
  get listingChanges(): number {
    return this.listingMark;
  }

  /**
   * Every deal (appended to `deals` right before) and every change of a conditional record or of
   * an order it carries calls this. A call that comes with a new deal of an order that neither
   * an OTO (as its parent) nor an OCO (as a leg) carries leaves the listing as it was; any other
   * call, an unknown order's deal included, moves the listing's mark too.
   */
  changed(): void {
    this.changeMark++;
    const last = this.deals[this.deals.length - 1];
    if (last !== undefined && last !== this.dealSeen) {
      this.dealSeen = last;
      const order = this.orders.get(last.orderId);
      if (order !== undefined && order.oto === undefined && order.ocoId === undefined) return;
    }
    this.listingMark++;
  }

  /** Deals appended without a `changed` call (a restored venue's history) are not new deals. */
  dealsRestored(): void {
    this.dealSeen = this.deals[this.deals.length - 1];
  }

  /**
   * From now on deals can leave memory for `archive` (archiveBefore). A backtest's venue only:
   * the paper venue's persistence (persist/tracker.ts) counts deals by their index in `deals`.
   */
  useArchive(archive: DealArchive): void {
    this.archive = archive;
  }

  /**
   * Moves the held deals before `ms` to the archive (none without one). Deals are appended in
   * time order, so they are a prefix of `deals`; an instant at or before the last move moves none.
   */
  archiveBefore(ms: number): void {
    if (this.archive === undefined || ms <= this.archivedBefore) return;
    let n = 0;
    while (n < this.deals.length && (this.deals[n] as Deal).timeMs < ms) n++;
    this.archive.add(this.deals.slice(0, n));
    this.deals.splice(0, n);
    this.archivedBefore = ms;
  }

  /**
   * The deals a history query can select, in time order: the held ones, and the archived ones it
   * reaches (all of an order's when it names one; those at or after `fromMs` otherwise).
   */
  dealsReaching(clientOrderId: string | undefined, fromMs: number | undefined): readonly Deal[] {
    const archive = this.archive;
    if (archive === undefined || archive.count === 0) return this.deals;
    if (clientOrderId !== undefined) return [...archive.ofClientOrder(clientOrderId), ...this.deals];
    if (fromMs !== undefined && fromMs >= this.archivedBefore) return this.deals;
    return [...archive.since(fromMs ?? 0), ...this.deals];
  }

  /** Every deal of the account, oldest first: the archived ones read a few at a time, then the held ones. */
  *allDeals(): Generator<Deal> {
    if (this.archive !== undefined) yield* this.archive.all();
    yield* this.deals;
  }

  balance(asset: string): Decimal {
    return this.balances.get(asset) ?? ZERO;
  }

  heldOf(asset: string): Decimal {
    return this.locked.get(asset) ?? ZERO;
  }

  credit(asset: string, amount: Decimal): void {
    this.balances.set(asset, this.balance(asset).plus(amount));
  }

  /** Moves `amount` of `asset` from available to held. */
  hold(asset: string, amount: Decimal): void {
    this.credit(asset, amount.neg());
    this.locked.set(asset, this.heldOf(asset).plus(amount));
  }

  /** Moves `amount` of `asset` from held back to available. */
  release(asset: string, amount: Decimal): void {
    this.locked.set(asset, this.heldOf(asset).minus(amount));
    this.credit(asset, amount);
  }

  /** Orders that may still be open (pruned lazily), per market, so a step never scans the whole history. */
  private readonly maybeOpen = new Map<string, Set<SimOrder>>();

  /** Orders added to the open sets so far: between two equal counts, open orders only ended (their prices never change). */
  private openAdds = 0;

  get openOrdersAdded(): number {
    return this.openAdds;
  }

  /** Records an accepted order (OCO legs are kept out of the open set: they are conditional). */
  addOrder(order: SimOrder): void {
    this.orders.set(order.orderId, order);
    if (order.ocoId !== undefined) return;
    this.openAdds++;
    let set = this.maybeOpen.get(order.market);
    if (set === undefined) {
      set = new Set();
      this.maybeOpen.set(order.market, set);
    }
    set.add(order);
  }

  /**
   * An order reached FILLED or CANCELLED. Unless settled orders are kept, one that no conditional
   * record in `conditionals` refers to (neither an OTO's parent nor an OCO leg) leaves `orders`:
   * nothing the venue answers reads it again (its deals carry what history needs).
   */
  settled(order: SimOrder): void {
    if (this.keepsSettledOrders) return;
    const carried = (order.oto !== undefined && this.conditionals.has(order.oto.otoId)) || (order.ocoId !== undefined && this.conditionals.has(order.ocoId));
    if (!carried) this.orders.delete(order.orderId);
  }

  /**
   * A conditional record ended (it never becomes active again). Unless settled orders are kept, it
   * leaves `conditionals` with its settled orders (an OTO's parent, an OCO's legs): the listing
   * shows active records only, a cancel finds open orders only, and the orders' deals carry what
   * history needs.
   */
  ended(rec: ConditionalRecord): void {
    if (this.keepsSettledOrders) return;
    this.conditionals.delete(rec.id);
    const ids = rec.type === 'oto' ? [rec.parentOrderId] : [rec.stopLossOrderId, rec.takeProfitOrderId];
    for (const id of ids) {
      const o = id === undefined ? undefined : this.orders.get(id);
      if (o !== undefined && (o.status === 'FILLED' || o.status === 'CANCELLED')) this.orders.delete(o.orderId);
    }
  }

  /** Open (resting) orders, OCO legs excluded, oldest first. */
  openOrders(): SimOrder[] {
    return [...this.maybeOpen.keys()].flatMap((m) => this.openOrdersOn(m)).sort((a, b) => a.orderId - b.orderId);
  }

  /** Open (resting) orders of one market, OCO legs excluded, oldest first. */
  openOrdersOn(market: string): SimOrder[] {
    const set = this.maybeOpen.get(market);
    const out: SimOrder[] = [];
    if (set === undefined) return out;
    for (const o of set) {
      if (o.status === 'NEW' || o.status === 'PARTIALLY_FILLED') out.push(o);
      else set.delete(o);
    }
    return out;
  }

  position(market: string, positionSide: Position['positionSide']): Position {
    const key = `${market}|${positionSide}`;
    let p = this.positions.get(key);
    if (p === undefined) {
      p = { market, positionSide, amount: new Decimal(0), cost: new Decimal(0), margin: new Decimal(0), realisedPnl: new Decimal(0) };
      this.positions.set(key, p);
    }
    return p;
  }
}
