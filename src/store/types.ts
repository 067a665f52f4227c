/**
 * Row shapes the store hands out, in domain words. Amounts are `Decimal` in memory and decimal
 * strings on disk; ids are safe integers; times are milliseconds since the Unix epoch.
 */
import type { Decimal } from '../core/decimal.js';
import type { OrderState, Side } from '../core/orders.js';

export type OrderKind = 'limit' | 'collateral';

/** A journaled order intent and what is known about it. */
export interface OrderRecord {
  /** ≤ 32 chars, `<prefix>-<base36 sequence>`; the primary key. */
  clientOrderId: string;
  strategyId: string;
  kind: OrderKind;
  market: string;
  side: Side;
  /** Base amount requested. */
  amount: Decimal;
  /** Limit price in quote. */
  price: Decimal;
  postOnly: boolean;
  ioc: boolean;
  rpi: boolean;
  stopLoss: Decimal | null;
  takeProfit: Decimal | null;
  positionSide: string | null;
  state: OrderState;
  /** Venue order id once known. */
  orderId: number | null;
  /** OTO id of a collateral order placed with stop-loss / take-profit. */
  otoId: number | null;
  /** Why the order is in its state (refusal code, resolver verdict, ...). */
  reason: string | null;
  /** Base amount filled: the sum of this order's distinct fills (derived, kept in step with them). */
  filledBase: Decimal;
  /**
   * The largest filled amount a placement or cancel reply reported (base and quote). Until the
   * deals arrive, what exceeds `filledBase` counts as a provisional fill in positions and risk.
   */
  reportedFilledBase: Decimal;
  reportedFilledQuote: Decimal;
  createdMs: number;
  updatedMs: number;
  /** When the order became UNKNOWN (ms), for the resolver's grace period. */
  unknownSinceMs: number | null;
  /** How many times the resolver looked without a verdict. */
  resolveLooks: number;
}

/** A fill (executed deal) as stored. */
export interface FillRecord {
  dealId: number;
  orderId: number;
  /** Empty string when the order had none. */
  clientOrderId: string;
  market: string;
  side: Side;
  role: 'maker' | 'taker';
  timeMs: number;
  /** Base amount. */
  amount: Decimal;
  price: Decimal;
  /** Quote amount. */
  quote: Decimal;
  fee: Decimal;
  /** Asset of the fee; empty string when the venue did not say. */
  feeAsset: string;
  /** Owner strategy, or null for a fill of an order the bot did not place (external). */
  strategyId: string | null;
  /** clientOrderId of our order this fill belongs to (null when external). */
  ownerClientOrderId: string | null;
}

/** Protective leg of a collateral order (OTO), or a leg of an OCO. */
export type ChildKind = 'stop_loss' | 'take_profit';
/**
 * - `armed`: waiting for the parent to fill (OTO record listed).
 * - `active`: the leg is live on the venue (OCO leg listed).
 * - `triggered`/`filled`: the leg executed; `cancelled`: the other leg executed or it was
 *   cancelled; `missing`: expected but absent from the listing with no evidence why (alert).
 */
export type ChildState = 'armed' | 'active' | 'filled' | 'cancelled' | 'missing';

export interface ChildRecord {
  id: number;
  parentClientOrderId: string;
  strategyId: string;
  otoId: number | null;
  kind: ChildKind;
  /** Trigger/limit price asked for. */
  price: Decimal;
  /** Venue order id of the leg once seen. */
  orderId: number | null;
  /** Venue id of the OCO record carrying the legs once seen. */
  ocoId: number | null;
  state: ChildState;
  updatedMs: number;
}

export interface FlexRecordRow {
  transactionId: string;
  createdAtMs: number;
  planId: string;
  investmentId: string;
  currency: string;
  amount: Decimal;
  actionType: string;
}

/** LOST: ambiguous close with no CLOSE_INVESTMENT in the history after the grace period. */
export type FlexIntentState = 'PENDING' | 'DONE' | 'REJECTED' | 'UNKNOWN' | 'LOST';

export interface FlexIntentRecord {
  id: string;
  strategyId: string;
  plan: string;
  state: FlexIntentState;
  transactionId: string | null;
  reason: string | null;
  createdMs: number;
  updatedMs: number;
}

export interface CreditSnapshot {
  atMs: number;
  active: boolean;
  asset: string | null;
  amount: Decimal | null;
  totalFunding: Decimal | null;
  currentLtv: Decimal | null;
  initialLtv: Decimal | null;
  marginCallLtv: Decimal | null;
  liquidationLtv: Decimal | null;
}

export interface AlertRecord {
  id: number;
  atMs: number;
  kind: string;
  subject: string;
  detail: string;
}

export interface OrderEventRecord {
  clientOrderId: string;
  from: OrderState | null;
  to: OrderState;
  reason: string | null;
  atMs: number;
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
export interface Candle {
  market: string;
  timeframe: Timeframe;
  /** Start of the bucket, ms (inclusive). */
  openMs: number;
  /** End of the bucket, ms (exclusive): `openMs` + the timeframe's length. */
  closeMs: number;
  open: Decimal;
  high: Decimal;
  low: Decimal;
  close: Decimal;
  /** Traded base volume; null when any minute of the bucket has none (live candles never do). */
  volume: Decimal | null;
  /** One-minute candles the bucket was built from: fewer than the timeframe holds over a gap. */
  minutes: number;
  /** False for the candle still being built (its bucket has not ended, or its last minute is open). */
  closed: boolean;
}
