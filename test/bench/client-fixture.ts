/** The requests and replies of the client bench, shared by the bench and its server process. */
import { dec } from '../../src/core/decimal.js';
import type { LimitOrderRequest } from '../../src/model/venue-orders.js';
import { wireOrder } from '../support/fixture-client.js';

export const BALANCE_PATH = '/api/v4/main-account/balance';
export const BULK_PATH = '/api/v4/order/bulk';

export const orders: LimitOrderRequest[] = Array.from({ length: 20 }, (_, i) => ({
  market: 'BTC_USDT',
  side: 'buy',
  amount: dec('0.01'),
  price: dec(String(40000 + i)),
  clientOrderId: `bench-${i}`,
}));

/** The wire items the client builds for `orders` (the floor sends the same body). */
export const wireOrders = orders.map((o) => ({
  market: o.market,
  side: o.side,
  amount: o.amount.toFixed(),
  price: o.price.toFixed(),
  postOnly: false,
  ioc: false,
  clientOrderId: o.clientOrderId,
}));

export const bulkReply = JSON.stringify(orders.map((o, i) => ({ result: wireOrder({ orderId: 1000 + i, clientOrderId: o.clientOrderId }), error: null })));

export const balanceReply = JSON.stringify({
  USDT: { main_balance: '10000.5' },
  BTC: { main_balance: '1.25' },
  ETH: { main_balance: '0' },
});
