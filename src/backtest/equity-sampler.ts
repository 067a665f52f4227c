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

/** What the kept terms were built from: each map's entries and each flex record's status and amount, in order. */
interface Seen {
  balances: unknown[];
  locked: unknown[];
  flex: unknown[];
}

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

/** Σ of the terms' values, in order (equity.ts `accountEquity`'s `sum`). */
function total(terms: readonly EquityTerm[]): Decimal {
  let sum = ZERO;
  for (const t of terms) sum = sum.plus(t.market === undefined ? t.fixed : t.amount.mul(t.market.price));
  return sum;
}

export class EquitySampler {
  private seen: Seen | undefined;
  private terms: { balances: EquityTerm[]; locked: EquityTerm[]; flex: EquityTerm[] } = { balances: [], locked: [], flex: [] };
  /** The prices the last total was taken at (each priced term's market, in term order). */
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
    if (!this.unchanged()) {
      this.seen = { balances: entriesOf(account.balances), locked: entriesOf(account.locked), flex: flexOf(account) };
      this.terms = {
        balances: termsOf(venue, account.balances, equityAsset),
        locked: termsOf(venue, account.locked, equityAsset),
        flex: termsOf(venue, activeFlex(account), equityAsset),
      };
      this.prices = undefined;
    } else if (account.positions.size === 0 && this.pricesUnmoved()) return this.last;
    const { balances, locked, flex } = this.terms;
    this.last = total(balances).plus(total(locked)).plus(positionsValue(venue, account, equityAsset)).plus(total(flex));
    this.prices = this.pricesNow();
    return this.last;
  }

  private unchanged(): boolean {
    const seen = this.seen;
    const a = this.account;
    return seen !== undefined && sameEntries(a.balances, seen.balances) && sameEntries(a.locked, seen.locked) && sameList(flexOf(a), seen.flex);
  }

  private pricedTerms(): EquityTerm[][] {
    return [this.terms.balances, this.terms.locked, this.terms.flex];
  }

  private pricesNow(): Decimal[] {
    const out: Decimal[] = [];
    for (const terms of this.pricedTerms()) for (const t of terms) if (t.market !== undefined) out.push(t.market.price);
    return out;
  }

  /** True when the last total was taken at the prices the terms' markets have now. */
  private pricesUnmoved(): boolean {
    const prices = this.prices;
    if (prices === undefined) return false;
    let i = 0;
    for (const terms of this.pricedTerms()) for (const t of terms) if (t.market !== undefined && t.market.price !== prices[i++]) return false;
    return i === prices.length;
  }
}
