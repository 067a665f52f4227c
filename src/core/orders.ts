/**
 * The order vocabulary every layer shares: which way an order goes and the states the engine
 * journals. One definition, so the venue's parser, the store, the engine and the strategy
 * surface cannot drift apart.
 */

/** Which way an order trades the base asset. */
export type Side = 'buy' | 'sell';

/** Order states of the lifecycle (the legal moves live in src/engine/order-state.ts). */
export type OrderState =
  | 'PENDING'
  | 'OPEN'
  | 'PARTIALLY_FILLED'
  | 'FILLED'
  | 'CANCELLED'
  | 'REJECTED'
  | 'UNKNOWN'
  | 'PENDING_CANCEL';

export const ORDER_STATES: readonly OrderState[] = [
  'PENDING',
  'OPEN',
  'PARTIALLY_FILLED',
  'FILLED',
  'CANCELLED',
  'REJECTED',
  'UNKNOWN',
  'PENDING_CANCEL',
];
