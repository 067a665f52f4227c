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
  clientOrderId: string;
  rpi?: boolean;
}

export interface WireBulkBody {
  orders: WireOrderItem[];
  stopOnFail: boolean;
}

export interface WireCollateralBody extends WireOrderItem {
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
