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

/**
 * Compares two prices as stored: positive plain decimals written by `toWire` (no exponent, no
 * leading or trailing zeros), so the integer part's length, then the digits, decide. Exact, and
 * without building a Decimal per minute (a 1d read folds 1,440 minutes a candle).
 */
export function comparePrices(a: string, b: string): number {
  if (a === b) return 0;
  const ai = intLength(a);
  const bi = intLength(b);
  if (ai !== bi) return ai - bi;
  // Same integer length: the digits compare in order, and a missing fraction (".") sorts first.
  return a < b ? -1 : 1;
}

function intLength(s: string): number {
  const dot = s.indexOf('.');
  return dot === -1 ? s.length : dot;
}

/** A bucket being folded, prices kept as stored until it is done. */
export interface Acc {
  openMs: number;
  open: string;
  high: string;
  low: string;
  close: string;
  volume: Decimal | null;
  minutes: number;
}

export function start(r: MinuteRow, timeframe: Timeframe): Acc {
  const volume = r.volume === null ? null : dec(r.volume);
  return { openMs: bucketStart(r.open_ms, timeframe), open: r.open, high: r.high, low: r.low, close: r.close, volume, minutes: 1 };
}

/** Adds an older minute to the bucket: it becomes the open; high, low and volume widen. */
function addOlder(a: Acc, r: MinuteRow): void {
  a.open = r.open;
  widen(a, r);
}

/**
 * Adds a newer minute to the bucket (the in-memory windows fold minutes oldest first,
 * src/engine/candle-windows.ts): it becomes the close; high, low and volume widen.
 */
export function addNewer(a: Acc, r: MinuteRow): void {
  a.close = r.close;
  widen(a, r);
}

function widen(a: Acc, r: MinuteRow): void {
  if (comparePrices(r.high, a.high) > 0) a.high = r.high;
  if (comparePrices(r.low, a.low) < 0) a.low = r.low;
  a.volume = a.volume === null || r.volume === null ? null : a.volume.plus(dec(r.volume));
  a.minutes += 1;
}

export function finish(market: string, timeframe: Timeframe, a: Acc, closed: boolean): Candle {
  return {
    ...{ market, timeframe, openMs: a.openMs, closeMs: a.openMs + TIMEFRAME_MS[timeframe] },
    ...{ open: dec(a.open), high: dec(a.high), low: dec(a.low), close: dec(a.close), volume: a.volume, minutes: a.minutes, closed },
  };
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
  const out: Acc[] = [];
  if (count <= 0) return [];
  for (const r of rows) {
    const current = out.at(-1);
    if (current !== undefined && bucketStart(r.open_ms, timeframe) === current.openMs) {
      addOlder(current, r);
      continue;
    }
    if (out.length === count) break;
    out.push(start(r, timeframe));
  }
  return out.reverse().map((a) => finish(market, timeframe, a, closed));
}
