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
  if (!Number.isInteger(max) || max < 2) throw new RangeError(`downsample: max must be an integer ≥ 2, got ${max}`);
  if (points.length <= max) return [...points];
  const inner = points.length - 2;
  const buckets = Math.floor((max - 2) / 2);
  const out: T[] = [points[0] as T];
  for (let b = 0; b < buckets; b++) {
    const lo = 1 + Math.floor((b * inner) / buckets);
    const hi = 1 + Math.floor(((b + 1) * inner) / buckets);
    for (const i of extremes(points, lo, hi, valueOf)) out.push(points[i] as T);
  }
  out.push(points[points.length - 1] as T);
  return out;
}

/** Indexes of the lowest and highest value in [lo, hi), ascending, one index when they coincide. */
function extremes<T>(points: readonly T[], lo: number, hi: number, valueOf: (p: T) => string): number[] {
  if (hi <= lo) return [];
  let minI = lo;
  let maxI = lo;
  let min: Decimal = dec(valueOf(points[lo] as T));
  let max: Decimal = min;
  for (let i = lo + 1; i < hi; i++) {
    const v = dec(valueOf(points[i] as T));
    if (v.lt(min)) {
      min = v;
      minI = i;
    } else if (v.gt(max)) {
      max = v;
      maxI = i;
    }
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
