/**
 * What a library user of `createApiClient` may send beyond the gateway contract (gateway.ts):
 * the bot always journals a clientOrderId before sending and always names a market, a library
 * user need not. The gateway types stay strict so the bot cannot forget either by accident.
 */
import type { CollateralOrderRequest, LimitOrderRequest } from './gateway.js';

/** A bulk item; without `clientOrderId` (or with `''`) the order has none. */
export type LimitOrderInput = Omit<LimitOrderRequest, 'clientOrderId'> & { clientOrderId?: string };

/** A collateral order; without `clientOrderId` (or with `''`) the order has none. */
export type CollateralOrderInput = Omit<CollateralOrderRequest, 'clientOrderId'> & { clientOrderId?: string };

/** The active conditional orders query (spec 4.5); without `market` the venue lists every market. */
export interface ConditionalQuery {
  market?: string;
  /** ≥ 0, default 0. */
  offset?: number;
  /** 1..100. */
  limit?: number;
}

/** The order's clientOrderId, `''` when it has none (the venue's own spelling of "none"). */
export function cidOf(o: { clientOrderId?: string | undefined }): string {
  return o.clientOrderId ?? '';
}

/** The clientOrderIds worth naming in an ambiguous outcome (orders without one are left out). */
export function namedCids(orders: readonly { clientOrderId?: string | undefined }[]): string[] {
  return orders.map(cidOf).filter((c) => c !== '');
}
