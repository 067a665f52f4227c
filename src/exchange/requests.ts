/**
 * What a library user of `createApiClient` may send beyond the gateway contract (the request
 * types of src/model/venue-orders.ts): the bot always journals a clientOrderId before sending and
 * always names a market, a library user need not. The model's types stay strict so the bot cannot
 * forget either by accident.
 */
import { toWire } from '../core/decimal.js';
import type { CollateralOrderRequest, LimitOrderRequest } from '../model/venue-orders.js';
import type { WireCollateralBody, WireOrderItem } from './wire.js';

/** A bulk item; without `clientOrderId` (or with `''`) the order has none. */
export type LimitOrderInput = Omit<LimitOrderRequest, 'clientOrderId'> & { clientOrderId?: string };

/** A collateral order; without `clientOrderId` (or with `''`) the order has none. */
export type CollateralOrderInput = Omit<CollateralOrderRequest, 'clientOrderId'> & { clientOrderId?: string };

/** The active conditional orders query (docs/api-v4.md §4.5); without `market` the venue lists every market. */
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

/** A bulk item on the wire; an order without clientOrderId sends `''` (docs/api-v4.md §2.2: "may be empty"). */
export function orderItem(o: LimitOrderInput): WireOrderItem {
  const item: WireOrderItem = {
    market: o.market,
    side: o.side,
    amount: toWire(o.amount),
    price: toWire(o.price),
    postOnly: o.postOnly ?? false,
    ioc: o.ioc ?? false,
    clientOrderId: cidOf(o),
  };
  if (o.rpi !== undefined) item.rpi = o.rpi;
  return item;
}

/** A collateral order body; without clientOrderId the key is left out (docs/api-v4.md §4.4 gives no empty form). */
export function collateralBody(o: CollateralOrderInput): WireCollateralBody {
  const { clientOrderId, ...rest } = orderItem(o);
  const body: WireCollateralBody = clientOrderId === '' ? rest : { ...rest, clientOrderId };
  if (o.stopLoss !== undefined) body.stopLoss = toWire(o.stopLoss);
  if (o.takeProfit !== undefined) body.takeProfit = toWire(o.takeProfit);
  if (o.positionSide !== undefined) body.positionSide = o.positionSide;
  return body;
}
