/**
 * Request bodies exactly as on the wire (docs/api-v4.md §4, docs/live-service.md §3). Money is a plain
 * decimal string, ids are integers, flags are booleans. `request` and `nonce` are added by signing.
 * Replies are validated field by field in parse.ts, so they are typed `unknown` until then.
 */
import type { Side } from '../core/orders.js';

export interface WireOrderItem {
  market: string;
  side: Side;
  amount: string;
  price: string;
  postOnly: boolean;
  ioc: boolean;
  /** `''` when the order has none (docs/api-v4.md §2.2: "may be empty"). */
  clientOrderId: string;
  rpi?: boolean;
}

/** Without a clientOrderId the key is left out (docs/api-v4.md §4.4 gives no empty form). */
export interface WireCollateralBody extends Omit<WireOrderItem, 'clientOrderId'> {
  clientOrderId?: string;
  stopLoss?: string;
  takeProfit?: string;
  positionSide?: 'LONG' | 'SHORT' | 'BOTH';
}
