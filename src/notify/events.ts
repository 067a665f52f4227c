/**
 * What the notifier tells the operator about (README › Notifications). Events carry money as
 * `Decimal`; the formatters turn it into exact decimal strings. The daemon builds these from the
 * engine's own event points (src/daemon/notifications.ts); this layer knows nothing of the engine.
 */
import type { Decimal } from '../core/decimal.js';

/** The names `NOTIFY_EVENTS` accepts, one per event family. */
export const NOTIFY_KINDS = ['fills', 'refusals', 'alerts', 'trading_state', 'quarantines', 'daily_summary'] as const;
export type NotifyKind = (typeof NOTIFY_KINDS)[number];

export interface FillEvent {
  type: 'fill';
  atMs: number;
  strategyId: string;
  market: string;
  side: 'buy' | 'sell';
  role: 'maker' | 'taker';
  price: Decimal;
  amount: Decimal;
  quote: Decimal;
  fee: Decimal;
  feeAsset: string;
  dealId: number;
  clientOrderId: string;
}

/** A risk-gate refusal; `suppressed` > 0 is the roll-up of the refusals held back in the window. */
export interface RefusalEvent {
  type: 'refusal';
  atMs: number;
  strategyId: string;
  code: string;
  detail: string;
  suppressed: number;
  windowMs: number;
}

export interface AlertEvent {
  type: 'alert';
  atMs: number;
  kind: string;
  subject: string;
  detail: string;
}

export interface TradingStateEvent {
  type: 'trading_state';
  atMs: number;
  from: string;
  to: string;
  reason: string;
}

export interface QuarantineEvent {
  type: 'quarantine';
  atMs: number;
  strategyId: string;
  reason: string;
}

/** Realised PnL of one quote asset over the day: gross, the fees paid in that asset, and net. */
export interface PnlLine {
  quote: string;
  realised: Decimal;
  fees: Decimal;
  realisedNetOfFees: Decimal;
}

/** The account's equity at the last check before the summary, by the one equity rule (docs/equity.md). */
export interface SummaryEquity {
  asset: string;
  /** When the check ran, ms. */
  atMs: number;
  total: Decimal;
  peak: Decimal;
  /** Available balances, held by open orders, collateral positions, flex: they sum to `total`. */
  parts: { balances: Decimal; held: Decimal; positions: Decimal; flex: Decimal } | null;
  /** Amounts left out for want of a price into `asset`. */
  unvalued: { asset: string; amount: Decimal }[];
}

export interface DailySummaryEvent {
  type: 'daily_summary';
  /** End of the 24 hours covered (the firing time). */
  atMs: number;
  /** Start of the 24 hours covered. */
  fromMs: number;
  /** UTC date the covered period ends on (`YYYY-MM-DD`; at 00:00 UTC: the day before). */
  day: string;
  tradingState: string;
  fills: number;
  openOrders: number;
  pnl: PnlLine[];
  /** Fees paid in an asset that is no market's quote here (not subtracted from any PnL line). */
  otherFees: { asset: string; amount: Decimal }[];
  alerts: { kind: string; count: number }[];
  /** Null before the daemon's first equity check. */
  equity: SummaryEquity | null;
}

export type NotifyEvent = FillEvent | RefusalEvent | AlertEvent | TradingStateEvent | QuarantineEvent | DailySummaryEvent;

const KIND_OF: Record<NotifyEvent['type'], NotifyKind> = {
  fill: 'fills',
  refusal: 'refusals',
  alert: 'alerts',
  trading_state: 'trading_state',
  quarantine: 'quarantines',
  daily_summary: 'daily_summary',
};

export function kindOf(e: NotifyEvent): NotifyKind {
  return KIND_OF[e.type];
}

/**
 * Queue priority: what the operator must act on first survives a full queue longest. Refusals
 * are the most frequent and least urgent, fills and summaries next.
 */
export function priorityOf(e: NotifyEvent): number {
  if (e.type === 'refusal') return 0;
  if (e.type === 'fill' || e.type === 'daily_summary') return 1;
  return 2;
}
