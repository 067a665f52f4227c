/** The live protective legs kept between reads: every write is seen by the next read, a rolled-back one never kept. */
import { describe, expect, it } from 'vitest';
import { Decimal } from '../../../src/core/decimal.js';
import { memoryStore } from '../../support/test-scope.js';

describe('children.live kept between reads', () => {
  it('sees each write, not a rolled-back one, and hands out copies of the list', () => {
    const store = memoryStore();
    const states = () => store.children.live().map((c) => `${c.kind}:${c.state}:${String(c.otoId)}`);
    store.orders.insertPending(
      { clientOrderId: 'p', strategyId: 's', kind: 'collateral', market: 'BTC_USDT', side: 'buy', amount: new Decimal('1'), price: new Decimal('10'), postOnly: false, ioc: false, rpi: false },
      1_000,
    );
    expect(states()).toEqual([]);
    store.children.add('p', 's', 'stop_loss', new Decimal('9'), 1_000);
    store.children.add('p', 's', 'take_profit', new Decimal('11'), 1_000);
    expect(states()).toEqual(['stop_loss:armed:null', 'take_profit:armed:null']);
    store.children.setOtoId('p', 5, 1_001);
    expect(states()).toEqual(['stop_loss:armed:5', 'take_profit:armed:5']);
    const [sl] = store.children.live();
    expect(() =>
      store.tx(() => {
        store.children.update(sl?.id ?? 0, { state: 'cancelled' }, 1_002);
        expect(states()).toEqual(['take_profit:armed:5']);
        throw new Error('rolled back on purpose');
      }),
    ).toThrow();
    expect(states()).toEqual(['stop_loss:armed:5', 'take_profit:armed:5']);
    store.children.update(sl?.id ?? 0, { state: 'filled' }, 1_003);
    expect(states()).toEqual(['take_profit:armed:5']);
    const list = store.children.live();
    list.pop();
    expect(states()).toHaveLength(1);
    expect(Object.isFrozen(store.children.live()[0])).toBe(true);
  });
});
