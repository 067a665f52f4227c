/**
 * Request bodies exactly as on the wire (spec section 4, service-notes 3). Money is a plain
 * decimal string, ids are integers, flags are booleans. `request` and `nonce` are added by signing.
 * Replies are validated field by field in parse.ts, so they are typed `unknown` until then.
 */

export interface WireOrderItem {
  market: string;
  side: 'buy' | 'sell';
  amount: string;
  price: string;
  postOnly: boolean;
  ioc: boolean;
  /** `''` when the order has none (spec 2.2: "may be empty"). */
  clientOrderId: string;
  rpi?: boolean;
}

export interface WireBulkBody {
  orders: WireOrderItem[];
  stopOnFail: boolean;
}

/** Without a clientOrderId the key is left out (spec 4.4 gives no empty form). */
export interface WireCollateralBody extends Omit<WireOrderItem, 'clientOrderId'> {
  clientOrderId?: string;
  stopLoss?: string;
  takeProfit?: string;
  positionSide?: 'LONG' | 'SHORT' | 'BOTH';
}

export type WireCancelBody = { market: string; orderId: number } | { market: string; clientOrderId: string };

export interface WireConditionalBody {
  market: string;
  offset?: number;
  limit?: number;
}

export interface WireExecutedHistoryBody {
  market?: string;
  clientOrderId?: string;
  startDate?: number;
  endDate?: number;
  offset?: number;
  limit?: number;
}

export interface WireBalanceBody {
  ticker?: string;
}

export interface WireFlexHistoryBody {
  limit?: number;
  offset?: number;
  plan?: string;
  investment?: string;
  transaction?: string;
  dateFrom?: number;
  dateTo?: number;
  actionTypes?: number[];
}

export interface WireFlexCloseBody {
  plan: string;
}
