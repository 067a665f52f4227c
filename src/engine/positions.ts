/**
 * Positions derived from fills (pure; never edited in place). Per strategy and market:
 * net base (buy +, sell −), open lots, average entry, realised PnL in quote and fees per asset.
 *
 * Realised PnL uses FIFO lot matching, so every figure is a sum of exact products
 * (`(exit − entry) × amount`) and stays exact to the last decimal: no division is involved.
 * Once a position is flat, FIFO and average-cost agree on the total. `avgEntry` (the only
 * division) is informational, rounded to 18 decimal places.
 */
import { Decimal, ZERO } from '../core/decimal.js';
import type { PositionFill } from '../model/fills.js';

interface Lot {
  /** Signed base: > 0 long lot, < 0 short lot. */
  base: Decimal;
  price: Decimal;
}

/** A derived position. All amounts are Decimal; `base` is signed (long > 0, short < 0). */
export interface Position {
  /** null for fills of orders the bot did not place. */
  strategyId: string | null;
  market: string;
  base: Decimal;
  /** Average entry price of the open lots (quote per base); null when flat. 18 dp. */
  avgEntry: Decimal | null;
  /** Quote cost of the open lots (Σ |lot| × price), exact. */
  openCost: Decimal;
  /** Realised PnL in quote (FIFO), gross of fees. */
  realisedPnl: Decimal;
  /** Fees paid per asset (`''` when the venue did not name the asset). */
  fees: Record<string, Decimal>;
  boughtBase: Decimal;
  soldBase: Decimal;
  boughtQuote: Decimal;
  soldQuote: Decimal;
  fillCount: number;
}

/** Below these a figure is short: no sum or product of short figures rounds at 60 digits (`Book`). */
const SHORT_DP = 12;
const SHORT_ABS = new Decimal('1e12');
const short = (x: Decimal): boolean => x.decimalPlaces() <= SHORT_DP && x.abs().lt(SHORT_ABS);

/** Mutable accumulator used while folding; frozen into `Position` at the end. */
class Book {
  lots: Lot[] = [];
  /**
   * Σ lot base and Σ |lot base| × price, kept as lots open and close, so that freezing a book costs
   * the same whatever number of lots it holds. Exact while every amount and price applied is short
   * (12 places, below 1e12): products then have at most 24 places and 48 digits, and a sum of fewer
   * than 1e9 of them stays within 60 digits, so no step rounds and the kept sums equal the sums of
   * the lots. A figure not short (a provisional fill's divided price) turns them off for this book.
   */
  private sumBase = ZERO;
  private sumCost = ZERO;
  private sums = true;
  realised = ZERO;
  fees = new Map<string, Decimal>();
  boughtBase = ZERO;
  soldBase = ZERO;
  boughtQuote = ZERO;
  soldQuote = ZERO;
  count = 0;

  apply(f: PositionFill): void {
    this.count++;
    this.fees.set(f.feeAsset, (this.fees.get(f.feeAsset) ?? ZERO).plus(f.fee));
    const sign = f.side === 'buy' ? 1 : -1;
    if (sign > 0) {
      this.boughtBase = this.boughtBase.plus(f.amount);
      this.boughtQuote = this.boughtQuote.plus(f.quote);
    } else {
      this.soldBase = this.soldBase.plus(f.amount);
      this.soldQuote = this.soldQuote.plus(f.quote);
    }
    if (!short(f.amount) || !short(f.price)) this.sums = false;
    const left = this.close(f, sign);
    if (left.gt(0)) {
      this.lots.push({ base: sign > 0 ? left : left.neg(), price: f.price });
      if (this.sums) this.keep(sign > 0 ? left : left.neg(), left.mul(f.price));
    }
  }

  /** Closes opposite lots, oldest first, with `f`; returns what of `f` is left to open a lot. */
  private close(f: PositionFill, sign: number): Decimal {
    let left = f.amount;
    while (left.gt(0) && this.lots.length > 0) {
      const lot = this.lots[0] as Lot;
      if (lot.base.isPositive() === sign > 0) break; // same direction: nothing to close
      const lotAbs = lot.base.abs();
      const matched = Decimal.min(lotAbs, left);
      // long lot closed by a sell: (exit − entry) × m; short lot closed by a buy: (entry − exit) × m
      const pnl = sign < 0 ? f.price.minus(lot.price).mul(matched) : lot.price.minus(f.price).mul(matched);
      this.realised = this.realised.plus(pnl);
      left = left.minus(matched);
      if (this.sums) this.keep(lot.base.isPositive() ? matched.neg() : matched, matched.mul(lot.price).neg());
      if (matched.eq(lotAbs)) this.lots.shift();
      else lot.base = lot.base.isPositive() ? lot.base.minus(matched) : lot.base.plus(matched);
    }
    return left;
  }

  private keep(base: Decimal, cost: Decimal): void {
    this.sumBase = this.sumBase.plus(base);
    this.sumCost = this.sumCost.plus(cost);
  }

  /** Σ lot base and Σ |lot base| × price: the kept sums, or summed over the lots when they are off. */
  private lotSums(): { base: Decimal; cost: Decimal } {
    if (this.lots.length === 0) return { base: ZERO, cost: ZERO };
    if (this.sums) return { base: this.sumBase, cost: this.sumCost };
    let base = ZERO;
    let cost = ZERO;
    for (const l of this.lots) {
      base = base.plus(l.base);
      cost = cost.plus(l.base.abs().mul(l.price));
    }
    return { base, cost };
  }

  freeze(strategyId: string | null, market: string): Position {
    const { base, cost } = this.lotSums();
    return {
      strategyId,
      market,
      base,
      avgEntry: base.isZero() ? null : cost.div(base.abs()).toDecimalPlaces(18),
      openCost: cost,
      realisedPnl: this.realised,
      fees: Object.fromEntries([...this.fees.entries()].sort(([a], [b]) => a.localeCompare(b))),
      boughtBase: this.boughtBase,
      soldBase: this.soldBase,
      boughtQuote: this.boughtQuote,
      soldQuote: this.soldQuote,
      fillCount: this.count,
    };
  }
}

/** Application order of fills: time, then deal id (ids grow with time on the venue). */
export function compareFills(a: PositionFill, b: PositionFill): number {
  return a.timeMs - b.timeMs || a.dealId - b.dealId;
}

/**
 * Positions kept current fill by fill: one FIFO book per strategy and market. `apply` takes fills
 * in application order per book and refuses (returns false) a fill that does not come after the
 * last one its book applied; frozen positions are kept until their book changes.
 */
export class PositionBooks {
  private readonly books = new Map<string, { strategyId: string | null; market: string; book: Book; last: PositionFill; frozen?: Position }>();
  /** The sorted lists `kept` handed out, by owner, while no book changed (`changes`). */
  private readonly lists = new Map<string, readonly Position[]>();
  private listsAt = 0;
  private changes = 0;

  reset(): void {
    this.books.clear();
    this.changes++;
  }

  apply(f: PositionFill): boolean {
    const key = `${f.strategyId ?? ''}\u0000${f.market}`;
    const entry = this.books.get(key);
    if (entry === undefined) {
      const book = new Book();
      book.apply(f);
      this.books.set(key, { strategyId: f.strategyId, market: f.market, book, last: f });
      this.changes++;
      return true;
    }
    if (compareFills(f, entry.last) <= 0) return false;
    entry.book.apply(f);
    entry.last = f;
    delete entry.frozen;
    this.changes++;
    return true;
  }

  /**
   * As `positions`, not to be edited: the same frozen list while no book changed (the sort by
   * owner and market compares locale strings, the most of a read with nothing new).
   */
  kept(strategyId?: string | null): readonly Position[] {
    if (this.listsAt !== this.changes) {
      this.lists.clear();
      this.listsAt = this.changes;
    }
    const key = strategyId === undefined ? '' : strategyId === null ? '\u0000' : `\u0001${strategyId}`;
    let list = this.lists.get(key);
    if (list === undefined) this.lists.set(key, (list = Object.freeze(this.positions(strategyId))));
    return list;
  }

  /** Positions sorted by strategy then market; `strategyId` given: that strategy's only. */
  positions(strategyId?: string | null): Position[] {
    const out: Position[] = [];
    for (const e of this.books.values()) {
      if (strategyId !== undefined && e.strategyId !== strategyId) continue;
      e.frozen ??= e.book.freeze(e.strategyId, e.market);
      out.push(e.frozen);
    }
    return out.sort((a, b) => (a.strategyId ?? '').localeCompare(b.strategyId ?? '') || a.market.localeCompare(b.market));
  }
}

/**
 * Folds fills into positions keyed by strategy and market. Input order does not matter: fills
 * are applied in (time, deal id) order. Duplicate deal ids are a caller bug and throw.
 */
export function derivePositions(fills: readonly PositionFill[]): Position[] {
  const seen = new Set<number>();
  const books = new PositionBooks();
  for (const f of [...fills].sort(compareFills)) {
    if (seen.has(f.dealId)) throw new Error(`derivePositions: duplicate deal id ${f.dealId}`);
    seen.add(f.dealId);
    books.apply(f);
  }
  return books.positions();
}

/** Per-market sums over all fills (base, quote, fees per asset), for reconciliation checks. */
export interface MarketSums {
  market: string;
  fills: number;
  buyBase: Decimal;
  sellBase: Decimal;
  buyQuote: Decimal;
  sellQuote: Decimal;
  fees: Record<string, Decimal>;
}

export function marketSums(fills: readonly PositionFill[]): MarketSums[] {
  const m = new Map<string, MarketSums>();
  for (const f of fills) {
    let s = m.get(f.market);
    if (s === undefined) {
      s = { market: f.market, fills: 0, buyBase: ZERO, sellBase: ZERO, buyQuote: ZERO, sellQuote: ZERO, fees: {} };
      m.set(f.market, s);
    }
    s.fills++;
    if (f.side === 'buy') {
      s.buyBase = s.buyBase.plus(f.amount);
      s.buyQuote = s.buyQuote.plus(f.quote);
    } else {
      s.sellBase = s.sellBase.plus(f.amount);
      s.sellQuote = s.sellQuote.plus(f.quote);
    }
    s.fees[f.feeAsset] = (s.fees[f.feeAsset] ?? ZERO).plus(f.fee);
  }
  return [...m.values()].sort((a, b) => a.market.localeCompare(b.market));
}
