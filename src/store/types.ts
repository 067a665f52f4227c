/**
 * Row shapes only the store hands out. The domain records it keeps (orders, fills, protective
 * legs, flex and credit) are declared once in src/model/.
 */

import type { Decimal } from '../core/decimal.js';
import type { Ohlcv } from '../model/candles.js';

export interface AlertRecord {
  id: number;
  atMs: number;
  kind: string;
  subject: string;
  detail: string;
}

/** Where one asset's balance-audit window starts; balance and books are null while it waits for its first accountable audit. */
export interface AuditBaselineRow {
  asset: string;
  balance: Decimal | null;
  books: Decimal | null;
  atMs: number | null;
}

/** One balance audit's result (docs/balance-audit.md); `detail` is the JSON the audit wrote. */
export interface BalanceAuditRecord {
  id: number;
  atMs: number;
  /** `clean`, `unexplained`, `unsettled` or `started`. */
  outcome: string;
  /** Start of the oldest window judged, null when none was. */
  fromMs: number | null;
  detail: unknown;
}

/** Candle lengths the store serves; longer ones are aggregated from one-minute candles. */
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

/** One OHLCV candle of a market (docs/market-data.md). Prices are exact decimals. */
export interface Candle extends Ohlcv {
  market: string;
  timeframe: Timeframe;
  /** End of the bucket, ms (exclusive): `openMs` + the timeframe's length. Volume is null when any minute of the bucket has none. */
  closeMs: number;
  /** One-minute candles the bucket was built from: fewer than the timeframe holds over a gap. */
  minutes: number;
  /** False for the candle still being built (its bucket has not ended, or its last minute is open). */
  closed: boolean;
}
