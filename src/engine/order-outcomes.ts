/**
 * Types the order manager returns, and the classification of a venue reply into a local state.
 */
import type { Decimal } from '../core/decimal.js';
import { AmbiguousOutcomeError, AuthError, BotError, ConfigError, InvalidOrderError, InvalidRequestError, NonceError, TransientError } from '../core/errors.js';
import type { PositionSide, VenueOrder } from '../model/venue-orders.js';
import type { OrderState, Side } from '../core/orders.js';
import type { OrderPatch } from '../store/index.js';
import type { OrderRecord } from '../model/journal.js';
import { canTransition } from './order-state.js';

/** A limit order as a strategy asks for it (domain words; amounts on step, prices on tick). */
export interface LimitOrderSpec {
  market: string;
  side: Side;
  /** Base amount. */
  amount: Decimal;
  /** Limit price in quote. */
  price: Decimal;
  postOnly?: boolean;
  ioc?: boolean;
  rpi?: boolean;
}

/** A collateral limit order, optionally protected by an OTO stop-loss / take-profit. */
export interface CollateralOrderSpec extends LimitOrderSpec {
  stopLoss?: Decimal;
  takeProfit?: Decimal;
  positionSide?: PositionSide;
}

/**
 * The outcome of one placement:
 * - `placed`: accepted; `state` is OPEN, PARTIALLY_FILLED, FILLED or CANCELLED (IOC remainder).
 * - `rejected`: the venue provably refused it (state REJECTED).
 * - `not_sent`: provably never applied (rate limit, nonce, auth, local validation); state
 *   REJECTED with reason `not_sent:<code>`. It is not retried: the strategy decides again.
 * - `unknown`: ambiguous; state UNKNOWN until the resolver settles it.
 */
export type PlaceOutcome =
  | { status: 'placed'; clientOrderId: string; orderId: number; state: OrderState; otoId?: number }
  | { status: 'rejected'; clientOrderId: string; code: string; message: string }
  | { status: 'not_sent'; clientOrderId: string; code: string; message: string }
  | { status: 'unknown'; clientOrderId: string; message: string };

/**
 * The outcome of one cancel:
 * - `cancelled` / `filled`: settled (venue reply or executed-history evidence).
 * - `pending`: PENDING_CANCEL stays until evidence (ambiguous reply, or "not found" without fills).
 * - `rejected`: the venue refused the cancel; the order keeps its previous state.
 * - `skipped`: nothing to do (terminal already, still PENDING, UNKNOWN: the resolver owns it).
 */
export type CancelOutcome =
  | { status: 'cancelled' | 'filled'; clientOrderId: string }
  | { status: 'pending'; clientOrderId: string; message: string }
  | { status: 'rejected'; clientOrderId: string; code: string; message: string }
  | { status: 'skipped'; clientOrderId: string; state: OrderState | 'missing' };

/**
 * The filled amount a reply reports, when it is more than the journal already holds: it counts
 * at once as a provisional fill (positions, risk) until the deals arrive.
 */
export function reportedPatch(o: OrderRecord, v: VenueOrder): OrderPatch {
  return v.filledBase.gt(o.reportedFilledBase) ? { reported: { base: v.filledBase, quote: v.filledQuote } } : {};
}

/** Local state reported by a venue order reply. */
export function stateOfVenueOrder(o: VenueOrder): OrderState {
  switch (o.status) {
    case 'FILLED':
      return 'FILLED';
    case 'CANCELLED':
      return 'CANCELLED';
    case 'PARTIALLY_FILLED':
      return 'PARTIALLY_FILLED';
    case 'OPEN':
      return o.filledBase.gt(0) ? 'PARTIALLY_FILLED' : 'OPEN';
  }
}

const RANK: Record<OrderState, number> = {
  PENDING: 0,
  UNKNOWN: 0,
  OPEN: 1,
  PENDING_CANCEL: 2,
  PARTIALLY_FILLED: 2,
  FILLED: 3,
  CANCELLED: 3,
  REJECTED: 3,
};

/**
 * The state to move to when evidence says `target` and we are at `current`: only forward moves
 * (a late reply must not undo what fills already proved). Null when nothing should change.
 */
export function forwardTo(current: OrderState, target: OrderState): OrderState | null {
  if (current === target) return null;
  if (RANK[target] < RANK[current]) return null;
  return canTransition(current, target) ? target : null;
}

/** Classification of a thrown placement error. */
export type PlacementErrorClass = { kind: 'rejected' | 'not_sent' | 'unknown'; code: string; message: string };

/**
 * - A duplicate clientOrderId (code 36) on an id we never reused means an earlier attempt landed:
 *   ambiguous, not a refusal.
 * - Refusals before processing (nonce, auth, config, rate-limit 429) were provably not applied.
 * - Everything unexpected is ambiguous: never call an order rejected without proof.
 */
export function classifyPlacementError(err: unknown): PlacementErrorClass {
  const code = err instanceof BotError ? err.code : 'UNEXPECTED';
  const message = err instanceof Error ? err.message : String(err);
  if (err instanceof InvalidOrderError && err.kind === 'duplicate_client_order_id') return { kind: 'unknown', code, message };
  if (err instanceof AmbiguousOutcomeError) return { kind: 'unknown', code, message };
  if (err instanceof InvalidRequestError) return { kind: 'rejected', code, message };
  if (err instanceof NonceError || err instanceof AuthError || err instanceof ConfigError) return { kind: 'not_sent', code, message };
  if (err instanceof TransientError && err.kind === 'rate_limited') return { kind: 'not_sent', code, message };
  return { kind: 'unknown', code, message };
}
