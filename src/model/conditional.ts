/**
 * Protective orders: the venue's conditional records (OTO while the parent rests, then the OCO
 * of its legs) and the store's journal of the legs the bot expects (`ChildRecord`).
 */
import type { Decimal } from '../core/decimal.js';
import type { Side } from '../core/orders.js';
import type { PositionSide, VenueOrderStatus } from './venue-orders.js';

/** One leg or parent inside a conditional record. */
export interface ConditionalLeg {
  orderId: number;
  clientOrderId: string;
  market: string;
  side: Side;
  /** Normalised: `limit` or `stop limit` (the live `margin ` prefix is removed). */
  type: string;
  rawType: string;
  status: VenueOrderStatus | null;
  amount: Decimal;
  price: Decimal;
  filledBase: Decimal;
  filledQuote: Decimal;
  remaining: Decimal;
  fee: Decimal;
  timestampMs: number;
  modifiedMs?: number;
  positionSide?: PositionSide;
  activationPrice?: Decimal;
  activationCondition?: string;
  /** The trigger was reached; set only when the venue sent 0/1 (or a boolean). */
  activated?: boolean;
  /** `activated` as sent: the spec's integer (a boolean is given as 1 or 0). */
  rawActivated?: number;
  /** Fee rates (`takerFee`, `makerFee`; docs/api-v4.md §2.5, not sent live). Signed: a maker rebate is negative. */
  takerFeeRate?: Decimal;
  makerFeeRate?: Decimal;
  /** `post_only` (spec, OCO legs) or `postOnly` (live). */
  postOnly?: boolean;
  /** Self-trade prevention mode as sent (`no`, `cb`, `cn`, `co`). */
  stp?: string;
}

export interface OcoRecord {
  kind: 'oco';
  id: number;
  /** Absent for a take-profit-only bracket. */
  stopLoss?: ConditionalLeg;
  /** Absent for a stop-loss-only bracket. */
  takeProfit?: ConditionalLeg;
}

export interface OtoRecord {
  kind: 'oto';
  /** Equals the parent's `otoId`. */
  id: number;
  stopLossPrice?: Decimal;
  takeProfitPrice?: Decimal;
  parent: ConditionalLeg;
}

export type ConditionalRecord = OcoRecord | OtoRecord;

export interface ConditionalPage {
  limit: number;
  offset: number;
  total: number;
  records: ConditionalRecord[];
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

/** A protective leg as the store journals it. */
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
