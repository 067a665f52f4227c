/**
 * What the live orders could still add, summed per market and per strategy, and kept across
 * writes: the risk inputs are built after each of a strategy's own placements and cancels, and
 * summing every live order again was most of their cost. A new live list is compared with the
 * counted records by identity (a journal record is frozen, and a write makes a new one), so only
 * the orders a write added, moved or ended are added or taken out.
 *
 * Exact: every term is a decimal with at most `places` fraction digits and below 10^`top`, so
 * every sum of them (and what is left after taking terms out) needs fewer digits than the
 * precision and is never rounded; the totals equal a fresh sum in any order, to the last digit.
 * A term that could break that bound makes `exact` false for good, and the caller sums afresh.
 */
import { Decimal, ZERO } from '../core/decimal.js';
import type { OrderRecord } from '../model/journal.js';

/** What a live order could still fill, and that in quote at its price. */
export interface OpenPart {
  remaining: Decimal;
  quote: Decimal;
}

/** A market's open orders: their count and what the buys and the sells could still fill. */
export interface OpenOfMarket {
  orders: number;
  buy: Decimal;
  sell: Decimal;
}

interface Counted {
  record: OrderRecord;
  part: OpenPart;
  pass: number;
}

/** Digits kept free for the carries of a sum of up to a million terms. */
const CARRY_DIGITS = 6;

export class OpenTotals {
  private readonly counted = new Map<string, Counted>();
  private readonly byMarket = new Map<string, OpenOfMarket>();
  private readonly byStrategy = new Map<string, Decimal>();
  /** The list the totals were last brought to, and its markets in the order they first appear in it. */
  private last: readonly OrderRecord[] | undefined;
  private marketOrder: string[] = [];
  private pass = 0;
  private top = 0;
  private places = 0;
  /** False once a term could make a sum round: the totals are no longer used. */
  exact = true;

  /** Brings the totals to `live` (oldest first), making the parts of records not counted yet with `part`. */
  update(live: readonly OrderRecord[], part: (o: OrderRecord) => OpenPart): void {
    if (live === this.last || !this.exact) return;
    const pass = ++this.pass;
    // A few markets: a scan of the short array is cheaper than a set.
    const markets: string[] = [];
    for (const o of live) {
      if (!markets.includes(o.market)) markets.push(o.market);
      const c = this.counted.get(o.clientOrderId);
      // Only a frozen record is known unchanged by its identity.
      if (c !== undefined && c.record === o && Object.isFrozen(o)) {
        c.pass = pass;
        continue;
      }
      if (c !== undefined) this.apply(c.record, c.part, -1);
      const counted = { record: o, part: part(o), pass };
      this.counted.set(o.clientOrderId, counted);
      this.apply(o, counted.part, 1);
    }
    for (const [id, c] of this.counted) {
      if (c.pass === pass) continue;
      this.apply(c.record, c.part, -1);
      this.counted.delete(id);
    }
    this.last = live;
    this.marketOrder = markets;
  }

  /** The markets with live orders, in the order they first appear in the live list. */
  markets(): readonly string[] {
    return this.marketOrder;
  }

  market(m: string): OpenOfMarket | undefined {
    return this.byMarket.get(m);
  }

  /** Quote the strategy's live orders could still commit. */
  committed(strategyId: string): Decimal {
    return this.byStrategy.get(strategyId) ?? ZERO;
  }

  private apply(o: OrderRecord, part: OpenPart, sign: 1 | -1): void {
    if (sign === 1) this.bound(part);
    const add = (a: Decimal, b: Decimal): Decimal => (sign === 1 ? a.plus(b) : a.minus(b));
    const m = this.byMarket.get(o.market) ?? { orders: 0, buy: ZERO, sell: ZERO };
    m.orders += sign;
    if (o.side === 'buy') m.buy = add(m.buy, part.remaining);
    else m.sell = add(m.sell, part.remaining);
    this.byMarket.set(o.market, m);
    this.byStrategy.set(o.strategyId, add(this.byStrategy.get(o.strategyId) ?? ZERO, part.quote));
  }

  /** Widens the bound by a term; past the precision the totals are given up. */
  private bound(part: OpenPart): void {
    for (const t of [part.remaining, part.quote]) {
      if (!t.isFinite()) this.exact = false;
      else if (!t.isZero()) {
        this.top = Math.max(this.top, t.e + 1);
        this.places = Math.max(this.places, t.decimalPlaces());
      }
    }
    if (this.top + this.places + CARRY_DIGITS > Decimal.precision) this.exact = false;
  }
}

