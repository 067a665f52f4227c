/**
 * Parses the decimal strings of stored rows, reusing the Decimal of a string parsed recently.
 * A tick reads the same orders, fills and legs again and again, and the same amounts and prices
 * recur across rows; parsing them each time was a visible share of a backtest's CPU
 * (docs/backtesting.md § Speed). A Decimal is an immutable value, so handing the same one out
 * again is the same value. Bounded: when full it starts over.
 */
import { dec, type Decimal } from '../core/decimal.js';

export const MAX_CACHED_DECIMALS = 4096;

const parsed = new Map<string, Decimal>();

/** `dec(s)`, from the cache when `s` was parsed recently; a string `dec` refuses is never kept. */
export function storedDecimal(s: string): Decimal {
  let d = parsed.get(s);
  if (d === undefined) {
    d = dec(s);
    if (parsed.size >= MAX_CACHED_DECIMALS) parsed.clear();
    parsed.set(s, d);
  }
  return d;
}

/** How many strings are kept now (tests). */
export function cachedDecimalCount(): number {
  return parsed.size;
}
