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
  return keptBy(length, max, (lo, hi) => {
    let minI = lo;
    let maxI = lo;
    for (let i = lo + 1; i < hi; i++) {
      if (compare(i, minI) < 0) minI = i;
      else if (compare(i, maxI) > 0) maxI = i;
    }
    return [minI, maxI];
  });
}

/**
 * keptIndexes of a series of doubles compared as such (a sample column held all as numbers,
 * DecimalColumn.numbers: the same order as its decimals'), without a call per comparison.
 */
export function keptNumberIndexes(values: Float64Array, max: number): number[] {
  return keptBy(values.length, max, (lo, hi) => {
    let minI = lo;
    let maxI = lo;
    let min = values[lo] as number;
    let maxV = min;
    for (let i = lo + 1; i < hi; i++) {
      const v = values[i] as number;
      if (v < min) {
        minI = i;
        min = v;
      } else if (v > maxV) {
        maxI = i;
        maxV = v;
      }
    }
    return [minI, maxI];
  });
}

/** The buckets' extremes (`extremes` of [lo, hi), lo < hi: the lowest's and the highest's index) between the first and the last. */
function keptBy(length: number, max: number, extremes: (lo: number, hi: number) => [number, number]): number[] {
  if (!Number.isInteger(max) || max < 2) throw new RangeError(`downsample: max must be an integer ≥ 2, got ${max}`);
  if (length <= max) return Array.from({ length }, (_, i) => i);
  const inner = length - 2;
  const buckets = Math.floor((max - 2) / 2);
  const out: number[] = [0];
  for (let b = 0; b < buckets; b++) {
    const lo = 1 + Math.floor((b * inner) / buckets);
    const hi = 1 + Math.floor(((b + 1) * inner) / buckets);
    if (hi <= lo) continue;
    // Ascending, one index when they coincide.
    const [minI, maxI] = extremes(lo, hi);
    if (minI === maxI) out.push(minI);
    else out.push(Math.min(minI, maxI), Math.max(minI, maxI));
  }
  out.push(length - 1);
  return out;
}

export function downsampleEquity(points: readonly EquityPoint[], max: number): EquityPoint[] {
  return downsample(points, max, (p) => p.equity);
}

export function downsamplePrices(points: readonly PricePoint[], max: number): PricePoint[] {
  return downsample(points, max, (p) => p.price);
}
