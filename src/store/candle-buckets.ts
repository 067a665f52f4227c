/**
 * Builds candles of any timeframe from one-minute rows (docs/market-data.md § Longer timeframes).
 * Rows arrive newest first (the index is read backwards from the end), so the first row of a
 * bucket is its close and the last its open. Over a gap a bucket is built from the minutes that
 * exist and counts them; a bucket with no minute never appears.
 */
import { dec, type Decimal } from '../core/decimal.js';
import { TIMEFRAME_MS, type Candle, type Timeframe } from './types.js';

/** A one-minute row as stored (decimal strings; volume NULL when unknown). */
export interface MinuteRow {
  open_ms: number;
  open: string;
  high: string;
  low: string;
  close: string;
  volume: string | null;
}

/** Start of the `timeframe` bucket holding `ms` (UTC, multiples of its length since the epoch). */
export function bucketStart(ms: number, timeframe: Timeframe): number {
  const len = TIMEFRAME_MS[timeframe];
  return Math.floor(ms / len) * len;
}

function fresh(market: string, timeframe: Timeframe, r: MinuteRow, closed: boolean): Candle {
  const openMs = bucketStart(r.open_ms, timeframe);
  return {
    ...{ market, timeframe, openMs, closeMs: openMs + TIMEFRAME_MS[timeframe] },
    ...{ open: dec(r.open), high: dec(r.high), low: dec(r.low), close: dec(r.close) },
    ...{ volume: r.volume === null ? null : dec(r.volume), minutes: 1, closed },
  };
}

function maxOf(a: Decimal, b: string): Decimal {
  const d = dec(b);
  return d.gt(a) ? d : a;
}

function minOf(a: Decimal, b: string): Decimal {
  const d = dec(b);
  return d.lt(a) ? d : a;
}

/** Adds an older minute to the bucket: it becomes the open; high, low and volume widen. */
function addOlder(c: Candle, r: MinuteRow): void {
  c.open = dec(r.open);
  c.high = maxOf(c.high, r.high);
  c.low = minOf(c.low, r.low);
  c.volume = c.volume === null || r.volume === null ? null : c.volume.plus(dec(r.volume));
  c.minutes += 1;
}

/**
 * Folds newest-first minute rows into at most `count` buckets, returned oldest first. Stops
 * reading as soon as a row would start bucket `count + 1`, so a read costs the minutes it returns.
 */
export function foldNewestFirst(
  market: string,
  timeframe: Timeframe,
  rows: Iterable<MinuteRow>,
  count: number,
  closed: boolean,
): Candle[] {
  const out: Candle[] = [];
  if (count <= 0) return out;
  for (const r of rows) {
    const current = out.at(-1);
    if (current !== undefined && bucketStart(r.open_ms, timeframe) === current.openMs) {
      addOlder(current, r);
      continue;
    }
    if (out.length === count) break;
    out.push(fresh(market, timeframe, r, closed));
  }
  return out.reverse();
}
