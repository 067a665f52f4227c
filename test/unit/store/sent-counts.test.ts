/**
 * OrdersRepository.sentCounts (what a backtest's result counts as orders sent, without reading
 * every order into records): per strategy, the orders that carry a venue order id, as counting
 * the full list gives.
 */
import { describe, expect, it } from 'vitest';
import { Decimal } from '../../../src/core/decimal.js';
import { memoryStore } from '../../support/test-scope.js';

describe('orders sent, counted per strategy', () => {
  it('counts the orders with a venue order id per strategy, as the full list does', () => {
    const store = memoryStore();
    const place = (cid: string, strategyId: string, orderId: number | null): void => {
      store.orders.insertPending(
        { clientOrderId: cid, strategyId, kind: 'limit', market: 'BTC_USDT', side: 'buy', amount: new Decimal('0.01'), price: new Decimal('50000'), postOnly: false, ioc: false, rpi: false },
        1_000,
      );
      if (orderId !== null) store.orders.setState(cid, 'PENDING', 'OPEN', null, 2_000, { orderId });
    };
    place('a1', 'a', 1);
    place('a2', 'a', 2);
    place('a3', 'a', null);
    place('b1', 'b', 3);
    place('b2', 'b', null);
    place('c1', 'c', null);
    const counted = store.orders.sentCounts();
    expect(counted).toEqual(new Map([['a', 2], ['b', 1]]));
    const byList = new Map<string, number>();
    for (const o of store.orders.all()) if (o.orderId !== null) byList.set(o.strategyId, (byList.get(o.strategyId) ?? 0) + 1);
    expect(counted).toEqual(byList);
  });
});
