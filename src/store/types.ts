/**
 * Row shapes only the store hands out. The domain records it keeps (orders, fills, protective
 * legs, flex and credit) are declared once in src/model/.
 */

import type { Decimal } from '../core/decimal.js';
import type { Ohlcv, Timeframe } from '../model/candles.js';

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

/** The timeframes, shared with the strategies' candle windows (src/model/candles.ts). */
export { TIMEFRAMES, TIMEFRAME_MS, type Timeframe } from '../model/candles.js';
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
