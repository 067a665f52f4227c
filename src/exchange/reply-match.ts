/**
 * Whether an order in a write's reply is the order the write was about. A 2xx carrying some other
 * order (another clientOrderId, orderId, market or side) proves nothing about ours: reading it as
 * ours would report a placement or a cancel that did not happen, so the outcome stays unknown.
 */
import type { Decimal } from '../core/decimal.js';
import type { Side } from '../core/orders.js';
import type { VenueOrder } from '../model/venue-orders.js';

/** What the request pins down; absent fields are not compared. */
export interface OrderIdentity {
  market: string;
  side?: Side;
  /** `''` when the order has none: the reply must then carry none either. */
  clientOrderId?: string;
  orderId?: number;
  amount?: Decimal;
  price?: Decimal;
}

type Check = readonly [field: string, differs: (v: VenueOrder, want: OrderIdentity) => boolean];

const CHECKS: readonly Check[] = [
  ['clientOrderId', (v, w) => w.clientOrderId !== undefined && v.clientOrderId !== w.clientOrderId],
  ['orderId', (v, w) => w.orderId !== undefined && v.orderId !== w.orderId],
  ['market', (v, w) => v.market !== w.market],
  ['side', (v, w) => w.side !== undefined && v.side !== w.side],
  ['amount', (v, w) => w.amount !== undefined && !v.amount.eq(w.amount)],
  ['price', (v, w) => w.price !== undefined && !v.price.eq(w.price)],
];

/** The first field where the reply's order is not the requested one, or undefined when it is. */
export function mismatchedField(v: VenueOrder, want: OrderIdentity): string | undefined {
  return CHECKS.find(([, differs]) => differs(v, want))?.[0];
}

/**
 * The identity of a placed order: its clientOrderId, market and side; without a clientOrderId
 * nothing else names it, so its amount and price too.
 */
export function placementIdentity(o: { market: string; side: Side; clientOrderId?: string | undefined; amount: Decimal; price: Decimal }): OrderIdentity {
  const clientOrderId = o.clientOrderId ?? '';
  const base = { market: o.market, side: o.side, clientOrderId };
  return clientOrderId === '' ? { ...base, amount: o.amount, price: o.price } : base;
}
