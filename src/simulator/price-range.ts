/**
 * A market's 24 h price range (the highest and lowest price of the bucket), each end with its
 * double beside it (near.ts `shortDouble`). The range is compared with the price at every step,
 * and most prices fall inside it: compared by their doubles, no Decimal is built (decimal.js's
 * comparison copies its argument). Two decimals of at most 15 significant digits have distinct
 * nearest doubles in the same order (shortDouble), so such a comparison is exact; a value with
 * more digits, or zero, has no such double and is compared by decimal.js.
 */
import type { Decimal } from '../core/decimal.js';
import { shortDouble } from './near.js';

/** The sign of `a - b`, told from their doubles (`aNear`, `bNear`: shortDouble) when both have one. */
export function compareNear(a: Decimal, aNear: number | undefined, b: Decimal, bNear: number | undefined): number {
  if (aNear === undefined || bNear === undefined) return a.cmp(b);
  return aNear < bNear ? -1 : aNear > bNear ? 1 : 0;
}

export class PriceRange {
  private hi: Decimal;
  private hiNear: number | undefined;
  private lo: Decimal;
  private loNear: number | undefined;

  constructor(at: Decimal) {
    this.hi = at;
    this.lo = at;
    this.hiNear = this.loNear = shortDouble(at);
  }

  get high(): Decimal {
    return this.hi;
  }

  get low(): Decimal {
    return this.lo;
  }

  /** Both ends at `at` (a new bucket). */
  reset(at: Decimal): void {
    this.hi = this.lo = at;
    this.hiNear = this.loNear = shortDouble(at);
  }

  /** The ends as given (a restored state). */
  restore(high: Decimal, low: Decimal): void {
    this.hi = high;
    this.hiNear = shortDouble(high);
    this.lo = low;
    this.loNear = shortDouble(low);
  }

  /** True when `p` (its double `near`) is above the high. */
  above(p: Decimal, near: number | undefined): boolean {
    return compareNear(p, near, this.hi, this.hiNear) > 0;
  }

  /** True when `p` (its double `near`) is below the low. */
  below(p: Decimal, near: number | undefined): boolean {
    return compareNear(p, near, this.lo, this.loNear) < 0;
  }

  /** The high becomes `p` when above it. */
  raiseTo(p: Decimal, near = shortDouble(p)): void {
    if (this.above(p, near)) {
      this.hi = p;
      this.hiNear = near;
    }
  }

  /** The low becomes `p` when below it. */
  lowerTo(p: Decimal, near = shortDouble(p)): void {
    if (this.below(p, near)) {
      this.lo = p;
      this.loNear = near;
    }
  }
}
