/**
 * Doubles that decide a price comparison where they provably can, so that a price step whose path
 * reaches no resting order is told apart without decimal.js (each of its comparisons builds a
 * Decimal, each sum two): the exact comparison is made only when the doubles are too close to
 * tell. No figure is ever taken from a double.
 */
import type { Decimal } from '../core/decimal.js';

/**
 * A generous bound on the relative error one double operation (or reading a decimal as the
 * nearest double) adds: 8 × 2⁻⁵³ (as src/backtest/book-stretch.ts).
 */
export const NEAR_ERR = 2 ** -50;

/** 10^0 … 10^22: the powers of ten a double holds exactly. */
const TENS = Array.from({ length: 23 }, (_, i) => Number(`1e${i}`));

/**
 * The double nearest `d`, found without printing it, when `d` has at most 15 significant digits:
 * those digits as a whole number m < 10^15 < 2^53, times or divided by one exact power of ten,
 * round once, to the double nearest `d` (so no other such decimal is the same double, and the
 * double's shortest text is `d`'s digits). Undefined for any other value (zero too: its sign).
 */
export function shortDouble(d: Decimal): number | undefined {
  // decimal.js keeps the digits in base-10^7 words, the first without leading zeros, the last not zero.
  const words = d.d;
  const last = words.length - 1;
  if (last > 2 || words[0] === 0) return undefined;
  let m = words[0] as number;
  if (last > 0) {
    let tail = words[last] as number;
    let places = 7;
    while (tail % 10 === 0) {
      tail /= 10;
      places--;
    }
    for (let i = 1; i < last; i++) m = m * 1e7 + (words[i] as number);
    m = m * (TENS[places] as number) + tail;
  }
  if (m >= 1e15) return undefined;
  let digits = 1;
  while ((TENS[digits] as number) <= m) digits++;
  const p = d.e - digits + 1;
  if (p < -22 || p > 22) return undefined;
  const n = p >= 0 ? m * (TENS[p] as number) : m / (TENS[-p] as number);
  return d.s < 0 ? -n : n;
}

/** A span's ends as doubles, each within its `Err` of the exact end (Market.nearReachOf). */
export interface NearSpan {
  low: number;
  lowErr: number;
  high: number;
  highErr: number;
}

/**
 * The sign of `x - d`, where `x` is a double within `xErr` of an exact value: 1 or -1 when the
 * doubles prove it, 0 when they are too close to tell (or `d` has no short double): then only
 * the exact comparison can say.
 */
export function nearSign(x: number, xErr: number, d: Decimal): -1 | 0 | 1 {
  const y = shortDouble(d);
  if (y === undefined) return 0;
  const gap = x - y;
  // x's own error, y's rounding (at most NEAR_ERR·|y|) and the subtraction's.
  const err = xErr + NEAR_ERR * (Math.abs(x) + Math.abs(y));
  return gap > err ? 1 : gap < -err ? -1 : 0;
}

/**
 * The ends `low` and `high` (exact doubles of decimals, or undefined) moved by `shift` towards
 * each other (`low + shift`, `high - shift`; none: 0), with the error each then carries.
 */
export function nearEnds(low: number | undefined, high: number | undefined, shift: number | undefined): NearSpan | undefined {
  if (low === undefined || high === undefined || shift === undefined) return undefined;
  const lo = low + shift;
  const hi = high - shift;
  return { low: lo, lowErr: NEAR_ERR * (Math.abs(low) + shift + Math.abs(lo)), high: hi, highErr: NEAR_ERR * (Math.abs(high) + shift + Math.abs(hi)) };
}
