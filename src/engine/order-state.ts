/**
 * The order state machine of docs/architecture.md §8.5, as pure functions. Only the transitions listed
 * here are legal; everything else is a programming error surfaced as `IllegalTransitionError`.
 *
 * PENDING (journaled, maybe sent) → OPEN / PARTIALLY_FILLED / FILLED / CANCELLED (placed; IOC
 *   remainder cancelled) / REJECTED (provable refusal, or provably never sent) / UNKNOWN (ambiguous).
 * OPEN → PARTIALLY_FILLED / FILLED / CANCELLED / PENDING_CANCEL.
 * PARTIALLY_FILLED → FILLED / CANCELLED / PENDING_CANCEL.
 * PENDING_CANCEL → CANCELLED / FILLED / OPEN / PARTIALLY_FILLED (the cancel provably failed and
 *   the order is still live) / UNKNOWN (the cancel reply was ambiguous and the order is gone from
 *   our certainty).
 * UNKNOWN → OPEN / PARTIALLY_FILLED / FILLED / CANCELLED. Never REJECTED: an ambiguous order
 *   may exist, so it is settled from evidence only (the resolver's "lost" verdict is CANCELLED
 *   with reason `lost`, and such an order still receives its fills).
 * FILLED, CANCELLED, REJECTED: terminal.
 */
import type { OrderState } from '../core/orders.js';

const LEGAL: Readonly<Record<OrderState, readonly OrderState[]>> = {
  PENDING: ['OPEN', 'PARTIALLY_FILLED', 'FILLED', 'CANCELLED', 'REJECTED', 'UNKNOWN'],
  OPEN: ['PARTIALLY_FILLED', 'FILLED', 'CANCELLED', 'PENDING_CANCEL'],
  PARTIALLY_FILLED: ['FILLED', 'CANCELLED', 'PENDING_CANCEL'],
  PENDING_CANCEL: ['CANCELLED', 'FILLED', 'OPEN', 'PARTIALLY_FILLED', 'UNKNOWN'],
  UNKNOWN: ['OPEN', 'PARTIALLY_FILLED', 'FILLED', 'CANCELLED'],
  FILLED: [],
  CANCELLED: [],
  REJECTED: [],
};

export class IllegalTransitionError extends Error {
  constructor(
    readonly from: OrderState,
    readonly to: OrderState,
  ) {
    super(`illegal order transition ${from} → ${to}`);
    this.name = 'IllegalTransitionError';
  }
}

/** True when `from → to` is a legal transition (a state never transitions to itself). */
export function canTransition(from: OrderState, to: OrderState): boolean {
  return LEGAL[from].includes(to);
}

/** Returns `to` when legal, else throws `IllegalTransitionError`. */
export function transition(from: OrderState, to: OrderState): OrderState {
  if (!canTransition(from, to)) throw new IllegalTransitionError(from, to);
  return to;
}

/** No further transition possible. */
export function isTerminal(s: OrderState): boolean {
  return LEGAL[s].length === 0;
}

/** States in which the order may still rest on the venue (they count against open-order limits). */
export const LIVE_STATES: readonly OrderState[] = ['PENDING', 'OPEN', 'PARTIALLY_FILLED', 'PENDING_CANCEL', 'UNKNOWN'];

/** States whose fills still move the order (fills on terminal orders count but do not move it). */
export function acceptsFillTransition(s: OrderState): boolean {
  return s === 'OPEN' || s === 'PARTIALLY_FILLED' || s === 'PENDING_CANCEL' || s === 'PENDING';
}
