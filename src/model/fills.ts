/**
 * Fills (executed deals): as the venue reports them (`Fill`), as the store keeps them with their
 * owner (`FillRecord`), and the fields the position fold reads (`PositionFill`). One deal, one
 * shape, narrowed or widened by name.
 */
import type { Decimal } from '../core/decimal.js';
import type { Side } from '../core/orders.js';

/** An executed deal (one fill), as the venue reports it. */
export interface Fill {
  /** Deal id, unique per venue: the de-duplication key. */
  dealId: number;
  orderId: number;
  /** Empty string when the order had none. */
  clientOrderId: string;
  market: string;
  side: Side;
  role: 'maker' | 'taker';
  timeMs: number;
  /** Base amount filled. */
  amount: Decimal;
  price: Decimal;
  /** Quote amount. */
  quote: Decimal;
  fee: Decimal;
  /** Asset the fee was paid in; absent on older deals. */
  feeAsset?: string;
}

/** A fill as stored: the venue's deal and the strategy and order it belongs to. */
export interface FillRecord extends Omit<Fill, 'feeAsset'> {
  /** Asset of the fee; empty string when the venue did not say. */
  feeAsset: string;
  /** Owner strategy, or null for a fill of an order the bot did not place (external). */
  strategyId: string | null;
  /** clientOrderId of our order this fill belongs to (null when external). */
  ownerClientOrderId: string | null;
}

/** The fields of a fill the position fold (src/engine/positions.ts) needs. */
export type PositionFill = Pick<
  FillRecord,
  'dealId' | 'strategyId' | 'market' | 'side' | 'timeMs' | 'amount' | 'price' | 'quote' | 'fee' | 'feeAsset'
>;

export interface ExecutedHistoryQuery {
  market?: string;
  clientOrderId?: string;
  /** Unix seconds, inclusive lower bound. */
  startDate?: number;
  /** Unix seconds, upper bound. */
  endDate?: number;
  /** ≥ 0, default 0. */
  offset?: number;
  /** 1..100, default 50. */
  limit?: number;
}

/** A range of executed fills by deal time. */
export interface FillRange {
  /** Inclusive lower bound, ms; absent: from the start of the history the venue serves. */
  fromMs?: number;
  /**
   * Inclusive upper bound, ms: the fixed anchor of one scan. A venue that bounds by whole
   * seconds widens the range to whole seconds, so a page may hold fills up to the end of this
   * second and from the start of `fromMs`'s second.
   */
  toMs: number;
}

/** One page of a fill scan (one request to the venue). */
export interface FillPage {
  /** Fills not yielded by an earlier page of the same scan, newest first. */
  fills: Fill[];
  /** Fills of this page an earlier page already yielded (arrivals while paging shift pages). */
  repeated: number;
}
