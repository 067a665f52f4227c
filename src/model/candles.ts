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
