/**
 * What a strategy runner needs from the store, assembled per call:
 *  - `risk(id)`: the plain-data `RiskSnapshot` the risk gate checks every intent against (the
 *    bot's exposure per market, this instance's committed quote and own positions);
 *  - `snapshot(id, venue)`: the data of the frozen strategy context (open orders, positions with
 *    their protective legs, recent fills, flex investments and earnings).
 * Both are derived from the store only; venue data (prices, balances) is passed in.
 */
import type { Clock } from '../core/clock.js';
import { Decimal, ZERO } from '../core/decimal.js';
import type { Store } from '../store/index.js';
import type { FillRecord } from '../model/fills.js';
import type { FlexRecordRow } from '../model/flex.js';
import type { ChildRecord } from '../model/conditional.js';
import type { OrderRecord } from '../model/journal.js';
import { SETTLED_LISTS, settledList, type FillView, type FlexView, type OrderView, type PositionView, type PriceView, type SnapshotData } from '../strategy-api/host.js';
import { copiedView, decimalCopy, decimalCopyOf } from '../strategy-api/frozen-views.js';
import { flexEarningsTotal } from './flex-job.js';
import { LIVE_STATES } from './order-state.js';
import type { ReadModels } from './read-models.js';
import { OpenTotals, type OpenPart } from './open-totals.js';
import { KeptViews, VersionedMemo, viewsAlong, type ViewList } from './versioned-memo.js';
import type { Position } from './positions.js';
import type { StrategyCandles } from './strategy-candles.js';
import type { MarketExposure, MarketRules, RiskLimits, RiskSnapshot, TradingState } from './risk-gate.js';
import type { Side } from '../core/orders.js';

/** Filled so far: the deals applied, or more when a reply already reported more. */
export function filledOf(o: OrderRecord): Decimal {
  return Decimal.max(o.filledBase, o.reportedFilledBase);
}

/** What may still fill. */
export function remainingOf(o: OrderRecord): Decimal {
  return Decimal.max(o.amount.minus(filledOf(o)), ZERO);
}

/**
 * An order as strategies see it. The record's decimals are copied: a hook may be handed the view in
 * the engine's own thread (src/strategy-api/frozen-views.ts); filled and remaining are new already.
 */
export function orderView(o: OrderRecord): OrderView {
  return {
    clientOrderId: o.clientOrderId,
    market: o.market,
    side: o.side,
    kind: o.kind,
    state: o.state,
    amount: decimalCopy(o.amount),
    price: decimalCopy(o.price),
    filled: filledOf(o),
    remaining: remainingOf(o),
    createdMs: o.createdMs,
  };
}

/** A fill as strategies see it; the record's decimals copied, as an order's. */
export function fillView(f: FillRecord): FillView {
  return {
    dealId: f.dealId,
    clientOrderId: f.clientOrderId,
    market: f.market,
    side: f.side,
    role: f.role,
    amount: decimalCopy(f.amount),
    price: decimalCopy(f.price),
    quote: decimalCopy(f.quote),
    fee: decimalCopy(f.fee),
    timeMs: f.timeMs,
  };
}

const INVEST_ACTIONS = new Set(['INVEST', 'OPEN_INVESTMENT', 'REINVEST']);

/** Open flex investments from the history: invested minus withdrawn, closed ones left out. */
export function openFlexInvestments(rows: readonly FlexRecordRow[]): FlexView['investments'] {
  const byId = new Map<string, { planId: string; investmentId: string; currency: string; amount: Decimal; closed: boolean }>();
  for (const r of rows) {
    const inv = byId.get(r.investmentId) ?? { planId: r.planId, investmentId: r.investmentId, currency: r.currency, amount: ZERO, closed: false };
    if (INVEST_ACTIONS.has(r.actionType)) inv.amount = inv.amount.plus(r.amount.abs());
    if (r.actionType === 'WITHDRAW_FROM_INVESTMENT') inv.amount = inv.amount.minus(r.amount.abs());
    if (r.actionType === 'CLOSE_INVESTMENT') inv.closed = true;
    byId.set(r.investmentId, inv);
  }
  return [...byId.values()].filter((i) => !i.closed && i.amount.gt(0)).map(({ closed: _closed, ...i }) => i);
}

/** Frozen through and through: the same view goes to every context until the ledger is written. */
function flexView(rows: readonly FlexRecordRow[]): FlexView {
  const investments = Object.freeze(openFlexInvestments(rows).map((i) => copiedView(i)));
  return Object.freeze({ investments, earnings: copiedView(flexEarningsTotal(rows)) });
}

/** Adds what an order (or a leg) could still fill to a market's exposure. */
function addOpen(e: MarketExposure, side: Side, amount: Decimal, orders = 1): void {
  e.openOrders += orders;
  if (side === 'buy') e.openBuyBase = e.openBuyBase.plus(amount);
  else e.openSellBase = e.openSellBase.plus(amount);
}

export interface StrategyInputsDeps {
  store: Pick<Store, 'orders' | 'children' | 'flex' | 'fills'>;
  read: ReadModels;
  clock: Clock;
  markets: Readonly<Record<string, MarketRules>>;
  limits: RiskLimits;
  /** Budget in quote per strategy instance id (0 when absent). */
  budgets: ReadonlyMap<string, Decimal>;
  tradingState: () => TradingState;
  equity: () => RiskSnapshot['equity'];
  recentFillsLimit: number;
  /** The strategies' declared candle windows (none in engine tests that build no candles). */
  candles?: StrategyCandles;
}

export interface VenueView {
  prices: Record<string, PriceView>;
  balances: Record<string, Decimal>;
}

/** A strategy's protective legs still to settle, and the markets of their parents and of its collateral orders. */
interface Protection {
  collateralMarkets: Set<string>;
  legs: ChildRecord[];
  parentMarket: Map<string, string | undefined>;
}

type Leg = { market: string; side: Side; amount: Decimal };

function openPart(o: OrderRecord): OpenPart {
  const remaining = remainingOf(o);
  return { remaining, quote: remaining.mul(o.price) };
}

const frozenOrderView = (o: OrderRecord): OrderView => Object.freeze(orderView(o));
const isFrozenRecord = (o: OrderRecord): boolean => Object.isFrozen(o);
const always = (): boolean => true;
const frozenFillView = (f: FillRecord): FillView => Object.freeze(fillView(f));

/** A position's frozen view: spot without protection, or collateral with the legs of `by` on its market. */
function positionView(p: Position, by: Protection | null): PositionView {
  let protection: PositionView['protection'] = null;
  if (by !== null) {
    const here = by.legs.filter((c) => by.parentMarket.get(c.parentClientOrderId) === p.market);
    protection = Object.freeze({
      stopLoss: decimalCopyOf(here.find((c) => c.kind === 'stop_loss')?.price ?? null),
      takeProfit: decimalCopyOf(here.find((c) => c.kind === 'take_profit')?.price ?? null),
    });
  }
  const base = decimalCopy(p.base);
  return Object.freeze({ market: p.market, kind: by === null ? 'spot' : 'collateral', base, avgEntryPrice: decimalCopy(p.avgEntry ?? ZERO), protection });
}

/**
 * A strategy's protection and what it was read from: its legs' write counter and the set of its
 * collateral markets (a new set only when a market is added). Its legs' parents are journaled
 * orders (the children table's foreign key), whose market never changes.
 */
interface KeptProtection {
  legs: number;
  markets: Set<string>;
  protection: Protection;
}

/** A strategy's position views and the positions and protection they were made from. */
interface KeptPositionViews {
  positions: readonly Position[];
  protection: Protection;
  views: readonly PositionView[];
}

/** The protective legs, the children's write counter and the parents' records they were read at. */
interface KeptLegs {
  children: number;
  parents: string[];
  records: (OrderRecord | undefined)[];
  legs: Leg[];
}

/** The very same record, frozen (so unchanged), or no record both times. */
function sameFrozen(now: OrderRecord | undefined, kept: OrderRecord | undefined): boolean {
  return now === kept && (now === undefined || Object.isFrozen(now));
}

/** The same items, the very same objects, in the same order. */
function sameItems<T>(a: readonly T[], b: readonly T[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** A strategy's snapshot lists and the write counters (its orders, legs and fills; the flex ledger) they were read at. */
interface KeptLists {
  orders: number;
  legs: number;
  fills: string;
  flex: number;
  lists: Pick<SnapshotData, 'openOrders' | 'positions' | 'recentFills' | 'flex'>;
}

/** The memo of one strategy's reads. */
function memoOf<T>(memos: Map<string, VersionedMemo<T>>, strategyId: string): VersionedMemo<T> {
  let memo = memos.get(strategyId);
  if (memo === undefined) memos.set(strategyId, (memo = new VersionedMemo<T>()));
  return memo;
}

export class StrategyInputs {
  /** Journal reads kept while no order or child was written (versioned-memo.ts). */
  private readonly live = new VersionedMemo<OrderRecord[]>();
  /** The protective legs and what they were read from (kept-legs below). */
  private keptLegs: KeptLegs | undefined;
  /** Per strategy: its protection and what it was made from (kept-protection below). */
  private readonly protection = new Map<string, KeptProtection>();
  /** Per strategy: the views of its open orders, kept while its orders were not written. */
  private readonly openViews = new Map<string, VersionedMemo<readonly OrderView[]>>();
  /** Per strategy: the views of its newest fills, kept while none of its fills was written. */
  private readonly fillViews = new Map<string, VersionedMemo<readonly FillView[]>>();
  /** Per strategy: its position views, kept while its positions and its protection are the very same objects. */
  private readonly positionViews = new Map<string, KeptPositionViews>();
  /** The flex ledger's view, kept while nothing was written to it. */
  private readonly flex = new VersionedMemo<FlexView>();
  /** Views kept per record (versioned-memo.ts): a rebuilt list makes views only for the records a write touched. */
  private readonly orderViews = new KeptViews<OrderRecord, OrderView>();
  private readonly fillViewsOf = new KeptViews<FillRecord, FillView>();
  private readonly positionViewOf = new KeptViews<Position, { protection: Protection | null; view: PositionView }>();
  /** Per strategy: its last open order and recent fill views with their records, place by place (`viewsAlong`). */
  private readonly lastOrderViews = new Map<string, ViewList<OrderRecord, OrderView>>();
  private readonly lastFillViews = new Map<string, ViewList<FillRecord, FillView>>();
  /** What a live order could still add, kept per record as its views are. */
  private readonly openOf = new KeptViews<OrderRecord, OpenPart>();
  /** What the live orders could still add, per market and strategy, kept across writes. */
  private readonly totals = new OpenTotals();
  /** Per strategy: its snapshot lists while none of the counters they are kept by moved (one look instead of one per list). */
  private readonly lists = new Map<string, KeptLists>();
  /** Per strategy: the markets of its collateral orders so far and the last order row read. */
  private readonly collateral = new Map<string, { markets: Set<string>; lastRow: number }>();

  constructor(private readonly deps: StrategyInputsDeps) {}


  /**
   * Risk inputs for one intent of `strategyId`. The market exposure is the bot's venue position
   * as far as any reply or deal told us (its fills, provisional ones included; fills of orders it
   * did not place are not its position), plus what every live or UNKNOWN order and every
   * protective leg of a filled parent could still add.
   */
  risk(strategyId: string): RiskSnapshot {
    const { store, read } = this.deps;
    const exposure: Record<string, MarketExposure> = {};
    const ex = (m: string): MarketExposure => (exposure[m] ??= { positionBase: ZERO, openBuyBase: ZERO, openSellBase: ZERO, openOrders: 0 });
    // The live list reads the orders only: a child's write (the legs have their own keeping) leaves it.
    const live = this.live.get(this.outsideTx(store.orders.version), '', () => store.orders.listByState(LIVE_STATES));
    let committed = this.addLive(live, strategyId, ex);
    for (const leg of this.legsNow()) addOpen(ex(leg.market), leg.side, leg.amount, 0);
    const own: Record<string, Decimal> = {};
    for (const p of read.allKeptPositions()) {
      if (p.strategyId === null) continue;
      const e = ex(p.market);
      e.positionBase = e.positionBase.plus(p.base);
      if (p.strategyId !== strategyId) continue;
      own[p.market] = (own[p.market] ?? ZERO).plus(p.base);
      committed = committed.plus(p.openCost);
    }
    return {
      tradingState: this.deps.tradingState(),
      markets: this.deps.markets,
      limits: this.deps.limits,
      exposure,
      strategy: { id: strategyId, quarantined: false, budgetQuote: this.deps.budgets.get(strategyId) ?? ZERO, committedQuote: committed, positionBase: own },
      equity: this.deps.equity(),
    };
  }

  /**
   * Adds what the live orders could still fill to the exposure (entries made in the order their
   * markets first appear, as a sum over the list would) and returns the quote `strategyId`'s commit:
   * from the kept totals (open-totals.ts), or summed afresh once they could no longer be exact.
   */
  private addLive(live: readonly OrderRecord[], strategyId: string, ex: (m: string) => MarketExposure): Decimal {
    const part = (o: OrderRecord): OpenPart => this.openOf.of(o, openPart, Object.isFrozen(o));
    this.totals.update(live, part);
    if (!this.totals.exact) return this.sumLive(live, strategyId, ex, part);
    for (const m of this.totals.markets()) {
      const t = this.totals.market(m);
      if (t === undefined) continue;
      // The live orders come first: the entry is new, the totals are its sums.
      const e = ex(m);
      e.openOrders = t.orders;
      e.openBuyBase = t.buy;
      e.openSellBase = t.sell;
    }
    return this.totals.committed(strategyId);
  }

  /** The same, summed over the list. */
  private sumLive(live: readonly OrderRecord[], strategyId: string, ex: (m: string) => MarketExposure, part: (o: OrderRecord) => OpenPart): Decimal {
    let committed = ZERO;
    for (const o of live) {
      const open = part(o);
      addOpen(ex(o.market), o.side, open.remaining);
      if (o.strategyId === strategyId) committed = committed.plus(open.quote);
    }
    return committed;
  }

  /**
   * Protective legs that could still execute: one per filled (or reported filled) parent, on the
   * opposite side, sized to what the parent filled. A stop-loss and a take-profit are one OCO:
   * at most one of them executes, so they count once.
   */
  private protectiveLegs(): KeptLegs {
    const { store } = this.deps;
    const children = store.children.version;
    const parents = [...new Set(store.children.live().filter((c) => c.state === 'armed' || c.state === 'active').map((c) => c.parentClientOrderId))];
    const records = parents.map((cid) => store.orders.get(cid));
    const legs = records.flatMap((p) => {
      if (p === undefined || filledOf(p).isZero()) return [];
      return [{ market: p.market, side: p.side === 'buy' ? ('sell' as const) : ('buy' as const), amount: filledOf(p) }];
    });
    return { children, parents, records, legs };
  }

  /**
   * The protective legs, kept while no child was written and each parent's record is the very same
   * frozen object (an order write makes a new one): a leg reads nothing else, so the strategies'
   * placements and cancels of other orders leave them as they are. Inside a transaction: read.
   */
  private legsNow(): Leg[] {
    const { store } = this.deps;
    if (store.fills.inTransaction) return this.protectiveLegs().legs;
    const k = this.keptLegs;
    if (k !== undefined && k.children === store.children.version && k.parents.every((cid, i) => sameFrozen(store.orders.get(cid), k.records[i]))) return k.legs;
    this.keptLegs = this.protectiveLegs();
    return this.keptLegs.legs;
  }

  /**
   * The strategy's protection, kept while what it reads stands: its legs (their write counter) and
   * its collateral markets (the same set). Inside a transaction: read, nothing kept.
   */
  private protectionOf(strategyId: string): Protection {
    const { store } = this.deps;
    const markets = this.collateralMarkets(strategyId);
    if (store.fills.inTransaction) return this.readProtection(strategyId, markets);
    const legs = store.children.versionOf(strategyId);
    const k = this.protection.get(strategyId);
    if (k !== undefined && k.legs === legs && k.markets === markets) return k.protection;
    const protection = this.readProtection(strategyId, markets);
    this.protection.set(strategyId, { legs, markets, protection });
    return protection;
  }

  /** Only the unsettled legs and their parents are read, never the strategy's whole order history. */
  private readProtection(strategyId: string, collateralMarkets: Set<string>): Protection {
    const { store } = this.deps;
    const legs = store.children.live().filter((c) => c.strategyId === strategyId && (c.state === 'armed' || c.state === 'active'));
    const parentMarket = new Map(legs.map((c) => [c.parentClientOrderId, store.orders.get(c.parentClientOrderId)?.market]));
    return { collateralMarkets, legs, parentMarket };
  }

  /**
   * Markets of the strategy's collateral orders: only orders journaled since the last look are read
   * (outside a transaction), and the kept set is handed out again while they add no market.
   */
  private collateralMarkets(strategyId: string): Set<string> {
    const { orders, fills } = this.deps.store;
    if (fills.inTransaction) return new Set(orders.marketsOfKind(strategyId, 'collateral'));
    const kept = this.collateral.get(strategyId) ?? { markets: new Set<string>(), lastRow: 0 };
    const added = orders.marketsOfKindSince(strategyId, 'collateral', kept.lastRow);
    const markets = added.markets.every((m) => kept.markets.has(m)) ? kept.markets : new Set([...kept.markets, ...added.markets]);
    this.collateral.set(strategyId, { markets, lastRow: added.lastRow });
    return markets;
  }

  /** `version` as a memo key, or null inside a transaction (versioned-memo.ts). */
  private outsideTx(version: number): string | null {
    return this.deps.store.fills.inTransaction ? null : String(version);
  }

  private openOrderViews(strategyId: string): readonly OrderView[] {
    const version = this.outsideTx(this.deps.store.orders.versionOf(strategyId));
    // Frozen, list and views: kept between ticks and handed to every context as they are (context.ts).
    return memoOf(this.openViews, strategyId).get(version, '', () => {
      // A record is kept only when frozen: the journal's are, and a frozen record's view never goes stale.
      const of = (o: OrderRecord): OrderView => this.orderViews.of(o, frozenOrderView, Object.isFrozen(o));
      return this.along(this.lastOrderViews, strategyId, version, this.deps.read.openOrders(strategyId), of, isFrozenRecord);
    });
  }

  /**
   * The frozen list of views of `records`, those of records in the strategy's last list taken from
   * it (`viewsAlong`); the list is kept as the next one's last outside a transaction only.
   */
  private along<K extends object, V extends object>(
    lasts: Map<string, ViewList<K, V>>,
    strategyId: string,
    version: string | null,
    records: readonly K[],
    of: (record: K) => V,
    reusable: (record: K) => boolean,
  ): readonly V[] {
    const made = viewsAlong(lasts.get(strategyId), records, of, reusable);
    if (version !== null) lasts.set(strategyId, made);
    // Views frozen where they are made: a context hands the list on without looking through it.
    return settledList(made.views);
  }

  private recentFillViews(strategyId: string): readonly FillView[] {
    const { store, read, recentFillsLimit } = this.deps;
    const version = store.fills.inTransaction ? null : store.fills.versionOf(strategyId);
    const of = (f: FillRecord): FillView => this.fillViewsOf.of(f, frozenFillView);
    return memoOf(this.fillViews, strategyId).get(version, '', () =>
      this.along(this.lastFillViews, strategyId, version, read.recentFills(strategyId, recentFillsLimit), of, always),
    );
  }

  /**
   * The strategy's positions with their protection, frozen: the same views go to every context. Kept
   * while its kept positions are the very same objects (a position its book did not move is; a
   * provisional or in-transaction fold makes new ones) and its protection is the same object: the
   * views are made from nothing else, so an order written without moving either (most of them)
   * leaves them as they are.
   */
  private positionViewsOf(strategyId: string): readonly PositionView[] {
    const protection = this.protectionOf(strategyId);
    const positions = this.deps.read.keptPositions(strategyId);
    const k = this.positionViews.get(strategyId);
    if (k !== undefined && k.protection === protection && sameItems(k.positions, positions)) return k.views;
    const views = this.readPositionViews(positions, protection);
    if (!this.deps.store.fills.inTransaction) this.positionViews.set(strategyId, { positions, protection, views });
    return views;
  }

  private readPositionViews(positions: readonly Position[], guarded: Protection): readonly PositionView[] {
    // The kept positions (not edited here): a position its book did not move is the same object, and
    // its view is kept with it while its kind and, for collateral, the protection it was made with hold.
    const views = positions.map((p) => {
      const by = guarded.collateralMarkets.has(p.market) ? guarded : null;
      return this.positionViewOf.of(p, () => ({ protection: by, view: positionView(p, by) }), true, (kept) => kept.protection !== by).view;
    });
    // Each view and its protection frozen where made (positionView).
    return settledList(views);
  }

  /**
   * The data of `strategyId`'s next context. Its lists and views are the kept ones, frozen: the
   * same objects until a write changes them (context.ts hands them on without copying).
   */
  snapshot(strategyId: string, venue: VenueView): SnapshotData {
    const { openOrders, positions, recentFills, flex } = this.listsOf(strategyId);
    const nowMs = this.deps.clock.now();
    const candles = this.deps.candles?.snapshot(strategyId, nowMs) ?? [];
    // Every list made here is settled (`along`, `readPositionViews`): the contexts hand them on unlooked-at.
    const data: SnapshotData = { nowMs, prices: venue.prices, balances: venue.balances, openOrders, positions, recentFills, flex, lists: SETTLED_LISTS };
    if (candles.length > 0) data.candles = candles;
    return data;
  }

  /** Its snapshot's lists: those of the last one while none of the counters they are kept by moved (inside a transaction: read). */
  private listsOf(strategyId: string): KeptLists['lists'] {
    const { store } = this.deps;
    if (store.fills.inTransaction) return this.readLists(strategyId);
    const orders = store.orders.versionOf(strategyId);
    const legs = store.children.versionOf(strategyId);
    const fills = store.fills.versionOf(strategyId);
    const flex = store.flex.version;
    const k = this.lists.get(strategyId);
    if (k !== undefined && k.orders === orders && k.legs === legs && k.fills === fills && k.flex === flex) return k.lists;
    const lists = this.readLists(strategyId);
    this.lists.set(strategyId, { orders, legs, fills, flex, lists });
    return lists;
  }

  private readLists(strategyId: string): KeptLists['lists'] {
    const { store } = this.deps;
    const positions = this.positionViewsOf(strategyId);
    const flex = this.flex.get(this.outsideTx(store.flex.version), '', () => flexView(store.flex.all()));
    return { openOrders: this.openOrderViews(strategyId), positions, recentFills: this.recentFillViews(strategyId), flex };
  }
}
