/**
 * Thinning of the equity and price series for the report (docs/backtest-metrics.md, "Series in the
 * report"). A year of one-minute points is too much for one HTML file, but a plain "every n-th
 * point" can skip the bottom of a drawdown. So: the first and the last point always, and between
 * them equal buckets (by index) each keeping its lowest and its highest point, in time order.
 * Deterministic: ties keep the earliest point.
 */
import type { Decimal } from '../core/decimal.js';
import { dec } from '../core/decimal.js';
import type { EquityPoint, PricePoint } from './result.js';

/** At most `max` points of `points` (max ≥ 2); the series itself when it is short enough. */
export function downsample<T>(points: readonly T[], max: number, valueOf: (p: T) => string): T[] {
  return keptIndexes(points.length, max, byValue((i) => dec(valueOf(points[i] as T)))).map((i) => points[i] as T);
}

/** Negative, zero or positive as the value at `i` is below, equal to or above the value at `j`. */
export type CompareAt = (i: number, j: number) => number;

/** The comparison of the values `valueAt` reads. */
export function byValue(valueAt: (i: number) => Decimal): CompareAt {
  return (i, j) => valueAt(i).cmp(valueAt(j));
}

/**
 * The indexes downsample keeps of a series of `length` values compared by `compare`, ascending:
 * the series need not be held as points, nor its values built (the run keeps its samples as
 * compact columns, which compare most values as the numbers they hold: DecimalColumn.compare).
 */
export function keptIndexes(length: number, max: number, compare: CompareAt): number[] {
  if (!Number.isInteger(max) || max < 2) throw new RangeError(`downsample: max must be an integer ≥ 2, got ${max}`);
  if (length <= max) return Array.from({ length }, (_, i) => i);
  const inner = length - 2;
  const buckets = Math.floor((max - 2) / 2);
  const out: number[] = [0];
  for (let b = 0; b < buckets; b++) {
    const lo = 1 + Math.floor((b * inner) / buckets);
    const hi = 1 + Math.floor(((b + 1) * inner) / buckets);
    out.push(...extremes(lo, hi, compare));
  }
  out.push(length - 1);
  return out;
}

/** Indexes of the lowest and highest value in [lo, hi), ascending, one index when they coincide. */
function extremes(lo: number, hi: number, compare: CompareAt): number[] {
  if (hi <= lo) return [];
  let minI = lo;
  let maxI = lo;
  for (let i = lo + 1; i < hi; i++) {
    if (compare(i, minI) < 0) minI = i;
    else if (compare(i, maxI) > 0) maxI = i;
  }
  if (minI === maxI) return [minI];
  return minI < maxI ? [minI, maxI] : [maxI, minI];
}

export function downsampleEquity(points: readonly EquityPoint[], max: number): EquityPoint[] {
  return downsample(points, max, (p) => p.equity);
}

export function downsamplePrices(points: readonly PricePoint[], max: number): PricePoint[] {
  return downsample(points, max, (p) => p.price);
}
