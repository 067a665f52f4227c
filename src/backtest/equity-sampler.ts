/**
 * The account's equity at every price step (the report's equity series), worked out again only
 * as far as something changed. Between two fills or placements the account's amounts stay as
 * they were and only the prices move: the sum's terms (which asset, which amount, valued at which
 * market) are kept from the last time, and a step re-prices them. When neither an amount nor a
 * price changed, the last total is the answer.
 *
 * The total is `accountEquity`'s (equity.ts) to the last digit: the same products and sums in the
 * same order. A change is seen by identity: every change of an amount puts a new Decimal (they are
 * immutable) into the account's maps or its flex records, and a market's price is a new Decimal
 * whenever it moves; positions are valued afresh at every step (they move with their mark).
 */
import { ZERO, type Decimal } from '../core/decimal.js';
import type { Account } from '../simulator/account.js';
import type { Venue } from '../simulator/venue.js';
import { activeFlex, positionsValue, termsOf, type EquityTerm } from './equity.js';

function entriesOf(map: ReadonlyMap<string, Decimal>): unknown[] {
  const out: unknown[] = [];
  for (const [k, v] of map) out.push(k, v);
  return out;
}

function flexOf(account: Account): unknown[] {
  const out: unknown[] = [];
  for (const f of account.flex) out.push(f.currency, f.status, f.amount);
  return out;
}

/** True when `map` holds exactly the entries `seen` lists, in its order. */
function sameEntries(map: ReadonlyMap<string, Decimal>, seen: readonly unknown[]): boolean {
  if (map.size * 2 !== seen.length) return false;
  let i = 0;
  for (const [k, v] of map) {
    if (seen[i] !== k || seen[i + 1] !== v) return false;
    i += 2;
  }
  return true;
}

function sameList(a: readonly unknown[], b: readonly unknown[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * `a.plus(b)` where adding a positive zero changes nothing: every value summed here is a product
 * or a sum already rounded to the context, so decimal.js's sum would be the other part itself.
 */
function plus(a: Decimal, b: Decimal): Decimal {
  if (b.isZero() && !b.isNeg()) return a;
  if (a.isZero() && !a.isNeg() && !b.isZero()) return b;
  return a.plus(b);
}

/** Σ of the terms' values, in order (equity.ts `accountEquity`'s `sum`). */
function total(terms: readonly EquityTerm[]): Decimal {
  let sum = ZERO;
  for (const t of terms) sum = plus(sum, t.market === undefined ? t.fixed : t.amount.mul(t.market.price));
  return sum;
}

/** One group of the sum (balances, held amounts, flex): its terms and what they were built from. */
interface Group {
  seen: unknown[];
  terms: EquityTerm[];
}

export class EquitySampler {
  private balances: Group | undefined;
  private locked: Group | undefined;
  private flex: Group | undefined;
  /** The prices the last total was taken at (each priced term's market, in term order); undefined after a rebuild. */
  private prices: Decimal[] | undefined;
  private last: Decimal = ZERO;

  constructor(
    private readonly venue: Venue,
    private readonly account: Account,
    private readonly equityAsset: string,
  ) {}

  /** The account's equity now: `accountEquity(venue, account, equityAsset)`. */
  equity(): Decimal {
    const { account, venue, equityAsset } = this;
    // Each group is built again only when its own amounts changed (a fill moves balances, a placement held amounts).
    const rebuilt = [this.balancesNow(), this.lockedNow(), this.flexNow()].some((fresh) => fresh);
    if (rebuilt) this.prices = undefined;
    else if (account.positions.size === 0 && this.pricesUnmoved()) return this.last;
    const [balances, locked, flex] = this.groups();
    this.last = plus(plus(plus(total(balances), total(locked)), positionsValue(venue, account, equityAsset)), total(flex));
    this.prices = this.pricesNow();
    return this.last;
  }

  /** True when the balances' terms had to be built again. */
  private balancesNow(): boolean {
    const map = this.account.balances;
    if (this.balances !== undefined && sameEntries(map, this.balances.seen)) return false;
    this.balances = { seen: entriesOf(map), terms: termsOf(this.venue, map, this.equityAsset) };
    return true;
  }

  private lockedNow(): boolean {
    const map = this.account.locked;
    if (this.locked !== undefined && sameEntries(map, this.locked.seen)) return false;
    this.locked = { seen: entriesOf(map), terms: termsOf(this.venue, map, this.equityAsset) };
    return true;
  }

  private flexNow(): boolean {
    const seen = flexOf(this.account);
    if (this.flex !== undefined && sameList(seen, this.flex.seen)) return false;
    this.flex = { seen, terms: termsOf(this.venue, activeFlex(this.account), this.equityAsset) };
    return true;
  }

  /** The terms of the balances, the held amounts and the flex investments, in the sum's order. */
  private groups(): [EquityTerm[], EquityTerm[], EquityTerm[]] {
    return [this.balances?.terms ?? [], this.locked?.terms ?? [], this.flex?.terms ?? []];
  }

  private pricesNow(): Decimal[] {
    const out: Decimal[] = [];
    for (const terms of this.groups()) for (const t of terms) if (t.market !== undefined) out.push(t.market.price);
    return out;
  }

  /** True when the last total was taken at the prices the terms' markets have now. */
  private pricesUnmoved(): boolean {
    const prices = this.prices;
    if (prices === undefined) return false;
    let i = 0;
    for (const terms of this.groups()) for (const t of terms) if (t.market !== undefined && t.market.price !== prices[i++]) return false;
    return i === prices.length;
  }
}
