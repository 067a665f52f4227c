/**
 * The journal's side of the equity rule (docs/equity.md): what open orders hold, the collateral
 * positions and the active flex investments, all read from the store. The venue's side (available
 * balances and prices) comes from the caller.
 */
import { ZERO, type Decimal } from '../core/decimal.js';
import type { Store } from '../store/index.js';
import type { FillRecord } from '../model/fills.js';
import type { FlexRecordRow } from '../model/flex.js';
import type { OrderState } from '../core/orders.js';
import type { OrderRecord } from '../model/journal.js';
import { CollateralBook, collateralPositions, type CollateralFill, type CollateralPosition, type CollateralSide } from './collateral-book.js';
import { FillFeed, type IncrementalFold } from './fill-feed.js';
import { SharedDealReads } from './shared-deal-reads.js';
import { compareFills } from './positions.js';
import { VersionedMemo } from './versioned-memo.js';
import { HOLDING_STATES, HoldsAlong, holdOf, type HoldingOrder, type HoldRules, type MarketHoldRule, type OrderHolds } from './order-holds.js';

export type SourceStore = Pick<Store, 'orders' | 'fills' | 'flex'>;

export interface JournalParts {
  held: OrderHolds;
  positions: (CollateralPosition & { settleAsset: string })[];
  /** Active flex investments per currency. */
  flex: Record<string, Decimal>;
  /** Markets with holding orders or collateral fills but no hold rule (not counted). */
  unruled: string[];
  /** Orders journaled but not yet answered: the venue may or may not hold funds for them already. */
  pending: number;
  /**
   * The journal state these parts were read from (holding orders with their fills, fills and flex
   * versions). Equal fingerprints before and after a balance read prove the journal did not move
   * while the venue answered.
   */
  fingerprint: string;
}

/** The collateral positions with their settlement asset, and the markets without a hold rule. */
interface Folded {
  positions: JournalParts['positions'];
  unruled: string[];
}

const SIDES: readonly string[] = ['LONG', 'SHORT', 'BOTH'];

/** A fill counts as collateral when its order was a collateral order (or the market is a perpetual, where only collateral trades). */
export function collateralFillsOf(fills: readonly FillRecord[], orderOf: (clientOrderId: string) => OrderRecord | undefined): CollateralFill[] {
  const out: CollateralFill[] = [];
  for (const f of fills) {
    const owner = f.ownerClientOrderId === null ? undefined : orderOf(f.ownerClientOrderId);
    const collateral = owner?.kind === 'collateral' || f.market.endsWith('_PERP');
    if (!collateral) continue;
    const side = owner?.positionSide ?? 'BOTH';
    out.push({ market: f.market, positionSide: (SIDES.includes(side) ? side : 'BOTH') as CollateralSide, side: f.side, amount: f.amount, price: f.price });
  }
  return out;
}

const INVESTED = new Set(['INVEST', 'OPEN_INVESTMENT', 'REINVEST', 'DAILY_EARNING']);

/**
 * Active flex investments per currency from the ledger: invested, reinvested and earned (the venue
 * adds daily earnings to the investment) minus withdrawn; a closed investment counts nothing.
 */
export function activeFlex(rows: readonly FlexRecordRow[]): Record<string, Decimal> {
  const byId = new Map<string, { currency: string; amount: Decimal; closed: boolean }>();
  for (const r of rows) {
    const inv = byId.get(r.investmentId) ?? { currency: r.currency, amount: ZERO, closed: false };
    if (INVESTED.has(r.actionType)) inv.amount = inv.amount.plus(r.amount.abs());
    if (r.actionType === 'WITHDRAW_FROM_INVESTMENT') inv.amount = inv.amount.minus(r.amount.abs());
    if (r.actionType === 'CLOSE_INVESTMENT') inv.closed = true;
    byId.set(r.investmentId, inv);
  }
  const out: Record<string, Decimal> = {};
  for (const inv of byId.values()) if (!inv.closed && inv.amount.gt(0)) out[inv.currency] = (out[inv.currency] ?? ZERO).plus(inv.amount);
  return out;
}

/** The collateral book as a fold the fill feed keeps current: fills in application order per market. */
class CollateralFold implements IncrementalFold {
  private book: CollateralBook;
  private readonly last = new Map<string, FillRecord>();
  /** The book's result with each position's settlement asset, until a collateral fill moves the book. */
  private settledKept: Folded | null = null;

  constructor(
    private readonly leverageOf: (market: string) => Decimal | undefined,
    private readonly orderOf: (clientOrderId: string) => OrderRecord | undefined,
  ) {
    this.book = new CollateralBook(leverageOf);
  }

  reset(): void {
    this.book = new CollateralBook(this.leverageOf);
    this.last.clear();
    this.settledKept = null;
  }

  apply(f: FillRecord): boolean {
    const last = this.last.get(f.market);
    if (last !== undefined && compareFills(f, last) <= 0) return false;
    this.last.set(f.market, f);
    for (const c of collateralFillsOf([f], this.orderOf)) {
      this.book.apply(c);
      this.settledKept = null;
    }
    return true;
  }

  /**
   * The positions with their settlement asset (`settleOf`, fixed rules) and the unruled markets.
   * A fill that is no collateral fill (a spot fill) leaves the book as it was: the last answer.
   */
  settled(settleOf: (market: string) => string): Folded {
    this.settledKept ??= settle(this.book.result(), settleOf);
    return this.settledKept;
  }
}

/** The book's positions, each with its settlement asset. */
function settle(r: ReturnType<CollateralBook['result']>, settleOf: (market: string) => string): Folded {
  const positions = r.positions.map((p) => {
    // A copy, then the field: a spread followed by a field takes V8's slow path.
    const s = { ...p } as CollateralPosition & { settleAsset: string };
    s.settleAsset = settleOf(p.market);
    return s;
  });
  return { positions, unruled: r.unruled };
}

/** The markets without a hold rule of both parts, once each, sorted. */
function unruledOf(held: readonly string[], positions: readonly string[]): string[] {
  if (held.length === 0 && positions.length === 0) return [];
  return [...new Set([...held, ...positions])].sort();
}

/**
 * One reading of the journal's parts, its fingerprint made when first asked for. A class, not an
 * object literal with a getter: V8 builds such a literal through its runtime, which took most of
 * a reading's own time.
 */
class JournalReading implements JournalParts {
  private made: string | undefined;

  constructor(
    readonly held: OrderHolds,
    readonly positions: JournalParts['positions'],
    readonly flex: JournalParts['flex'],
    readonly unruled: string[],
    readonly pending: number,
    private readonly make: () => string,
  ) {}

  get fingerprint(): string {
    this.made ??= this.make();
    return this.made;
  }
}

/** Holding states and PENDING in one read (the same rows, in the same order, as two reads). */
const READ_STATES: readonly OrderState[] = [...HOLDING_STATES, 'PENDING'];

/**
 * Reads the journal's parts. Collateral positions are kept current fill by fill (fill-feed.ts);
 * flex is folded again only when the ledger was written. Inside a transaction nothing is kept
 * (what it reads may still be rolled back, versioned-memo.ts).
 */
export class EquitySources {
  private cache: { key: string; positions: JournalParts['positions']; unruled: string[] } | null = null;
  private flexKept: { version: number; flex: JournalParts['flex'] } | null = null;
  private readonly feed: FillFeed;
  private readonly collateral: CollateralFold;
  /** Holding and pending orders, kept while no order was written (versioned-memo.ts). */
  private readonly orderReads = new VersionedMemo<OrderRecord[]>();
  private readonly orderText = new VersionedMemo<string>();
  private readonly holds = new VersionedMemo<OrderHolds>();
  /**
   * Per order record: its hold and its part of the fingerprint. The store hands out the same
   * frozen record while its row is not written (record-cache.ts) and the rules are fixed, so a
   * record seen again holds the same; a written order is a new record.
   */
  private readonly holdOf = new WeakMap<HoldingOrder, ReturnType<typeof holdOf>>();
  private readonly textOf = new WeakMap<OrderRecord, string>();
  /** The holds summed along the holding orders, the head the last list shares taken as it was. */
  private readonly holdsAlong: HoldsAlong;

  constructor(
    private readonly store: SourceStore,
    private readonly rules: HoldRules,
  ) {
    this.feed = new FillFeed(SharedDealReads.of(store.fills));
    this.collateral = new CollateralFold((m) => this.rules(m)?.leverage, (id) => this.store.orders.get(id));
    this.holdsAlong = new HoldsAlong(rules, (o, rule) => this.keptHold(o, rule));
  }

  /** The last reading outside a transaction and the write counters (orders, fills, flex) it was read at. */
  private lastRead: { orders: number; fills: number; flex: number; parts: JournalParts } | null = null;

  /**
   * The journal's parts. Outside a transaction, while no order, fill or flex row was written
   * since the last reading, that reading is the answer (the same object: its parts are read-only).
   */
  read(): JournalParts {
    const inTx = this.store.fills.inTransaction;
    if (inTx) return this.readParts(inTx);
    const orders = this.store.orders.version;
    const fills = this.store.fills.version;
    const flex = this.store.flex.version;
    const l = this.lastRead;
    if (l !== null && l.orders === orders && l.fills === fills && l.flex === flex) return l.parts;
    const parts = this.readParts(false);
    this.lastRead = { orders, fills, flex, parts };
    return parts;
  }

  private readParts(inTx: boolean): JournalParts {
    const version = inTx ? null : String(this.store.orders.version);
    const both = this.orderReads.get(version, 'both', () => this.store.orders.listByState(READ_STATES));
    const open = this.orderReads.get(version, 'holding', () => both.filter((o) => o.state !== 'PENDING'));
    // The rules are fixed, so the same holding orders hold the same (read-only) amounts.
    const held = this.holds.get(version, 'held', () => this.holdsAlong.of(open));
    const flexVersion = this.store.flex.version;
    const key = `${this.store.fills.version}/${flexVersion}`;
    if (!inTx && this.cache?.key !== key) {
      // Fields named, not spread: a spread here cost more than the fold it copies.
      const folded = this.fold();
      this.cache = { key, positions: folded.positions, unruled: folded.unruled };
    }
    const parts = inTx ? this.fold() : (this.cache as NonNullable<typeof this.cache>);
    const flex = this.flexOf(flexVersion, inTx);
    const pending = both.length - open.length;
    // The holding orders' part of the fingerprint (the same text as long as they are the same
    // rows), made when first read: a check whose two reads are the same reading compares none.
    const orders = (): string => this.orderText.get(version, 'holding', () => open.map((o) => this.keptText(o)).join(','));
    return new JournalReading(held, parts.positions, flex, unruledOf(held.unruled, parts.unruled), pending, () => `${key}|${pending}|${orders()}`);
  }

  private keptHold(o: HoldingOrder, rule: MarketHoldRule): ReturnType<typeof holdOf> {
    // One look-up: a record that holds nothing is kept as null, one not seen is undefined.
    const kept = this.holdOf.get(o);
    if (kept !== undefined) return kept;
    const h = holdOf(o, rule);
    this.holdOf.set(o, h);
    return h;
  }

  private keptText(o: OrderRecord): string {
    let text = this.textOf.get(o);
    if (text === undefined) {
      text = `${o.clientOrderId}:${o.state}:${o.filledBase.toFixed()}:${o.reportedFilledBase.toFixed()}`;
      this.textOf.set(o, text);
    }
    return text;
  }

  /** Active flex, folded again only when the ledger was written through the store (its version moved). */
  private flexOf(version: number, inTx: boolean): JournalParts['flex'] {
    if (!inTx && this.flexKept?.version === version) return this.flexKept.flex;
    const flex = activeFlex(this.store.flex.all());
    this.flexKept = inTx ? null : { version, flex };
    return flex;
  }

  private fold(): Folded {
    const settleOf = (market: string): string => this.rules(market)?.quote ?? '';
    return this.feed.sync(this.collateral) ? this.collateral.settled(settleOf) : settle(this.foldAll(), settleOf);
  }

  /** Inside a transaction: every fill folded again, nothing kept. */
  private foldAll(): ReturnType<CollateralBook['result']> {
    const owners = new Map<string, OrderRecord | undefined>();
    const orderOf = (id: string): OrderRecord | undefined => {
      if (!owners.has(id)) owners.set(id, this.store.orders.get(id));
      return owners.get(id);
    };
    return collateralPositions(collateralFillsOf(this.store.fills.all(), orderOf), (m) => this.rules(m)?.leverage);
  }
}
