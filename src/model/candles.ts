/**
 * The OHLCV candle in domain words (docs/market-data.md): one shape for a file's row, a stored
 * minute and an aggregated bucket, which add what they know beside it.
 */
import type { Decimal } from '../core/decimal.js';

export interface Ohlcv {
  /** Start of the candle, ms (inclusive). */
  openMs: number;
  open: Decimal;
  high: Decimal;
  low: Decimal;
  close: Decimal;
  /** Traded base volume; null when the source gives none (live candles never do). */
  volume: Decimal | null;
}

/** Candle lengths served (stored minutes, aggregated reads, strategies' windows); longer ones are aggregated from one-minute candles. */
export const TIMEFRAMES = ['1m', '5m', '15m', '1h', '4h', '1d'] as const;
export type Timeframe = (typeof TIMEFRAMES)[number];

/** Length of each timeframe, ms. Buckets start at multiples of it since the Unix epoch (UTC). */
export const TIMEFRAME_MS: Readonly<Record<Timeframe, number>> = {
  '1m': 60_000,
  '5m': 300_000,
  '15m': 900_000,
  '1h': 3_600_000,
  '4h': 14_400_000,
  '1d': 86_400_000,
};

export function isTimeframe(s: unknown): s is Timeframe {
  return typeof s === 'string' && (TIMEFRAMES as readonly string[]).includes(s);
}
