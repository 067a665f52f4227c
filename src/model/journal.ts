/**
 * Orders as the bot journals them: the intent (`NewOrder`) and the record of what is known about
 * it (`OrderRecord`), with its state history (`OrderEventRecord`). Legal transitions are decided
 * by src/engine/order-state.ts.
 */
import type { Decimal } from '../core/decimal.js';
import type { OrderState, Side } from '../core/orders.js';

export type OrderKind = 'limit' | 'collateral';

/** The fields every journaled order has from the start. */
export interface OrderIntent {
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
}

/** What the order manager journals for a new intent. */
export interface NewOrder extends OrderIntent {
  stopLoss?: Decimal | undefined;
  takeProfit?: Decimal | undefined;
  positionSide?: string | undefined;
}

/** A journaled order intent and what is known about it. */
export interface OrderRecord extends OrderIntent {
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

/** One state change of a journaled order. */
export interface OrderEventRecord {
  clientOrderId: string;
  from: OrderState | null;
  to: OrderState;
  reason: string | null;
  atMs: number;
}
