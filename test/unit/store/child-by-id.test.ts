/** One leg read by its id: the row `all()` holds for it, in every state, and nothing for an id never written. */
import { describe, expect, it } from 'vitest';
import { Decimal } from '../../../src/core/decimal.js';
import { memoryStore } from '../../support/test-scope.js';

describe('children.byId', () => {
  it('reads the same leg as the whole table does, after each kind of write', () => {
    const store = memoryStore();
    for (const id of ['p', 'q']) {
      store.orders.insertPending(
        { clientOrderId: id, strategyId: `s-${id}`, kind: 'collateral', market: 'BTC_USDT', side: 'buy', amount: new Decimal('1'), price: new Decimal('10'), postOnly: false, ioc: false, rpi: false },
        1_000,
      );
      store.children.add(id, `s-${id}`, 'stop_loss', new Decimal('9'), 1_000);
      store.children.add(id, `s-${id}`, 'take_profit', new Decimal('11.5'), 1_000);
    }
    const same = () => {
      const all = store.children.all();
      expect(all).toHaveLength(4);
      for (const c of all) expect(store.children.byId(c.id)).toEqual(c);
    };
    same();
    const [first, second] = store.children.all();
    store.children.update(first?.id ?? 0, { state: 'active', orderId: 77, ocoId: 5 }, 1_001);
    store.children.update(second?.id ?? 0, { state: 'cancelled' }, 1_002);
    same();
    expect(store.children.byId(first?.id ?? 0)).toMatchObject({ state: 'active', orderId: 77, ocoId: 5, strategyId: 's-p', parentClientOrderId: 'p' });
    expect(store.children.byId(10_000)).toBeUndefined();
  });
});
