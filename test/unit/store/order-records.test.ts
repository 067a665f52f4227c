/**
 * Order records kept between reads (record-cache.ts) against the row in SQLite: every write is
 * seen by the next read, a rolled-back write is never kept, and every read path agrees.
 */
import { describe, expect, it } from 'vitest';
import { Decimal } from '../../../src/core/decimal.js';
import type { Store } from '../../../src/store/index.js';
import { MAX_CACHED_RECORDS } from '../../../src/store/record-cache.js';
import { memoryStore } from '../../support/test-scope.js';

const d = (s: string): Decimal => new Decimal(s);

const place = (store: Store, cid: string): void =>
  store.orders.insertPending(
    { clientOrderId: cid, strategyId: 's', kind: 'limit', market: 'BTC_USDT', side: 'buy', amount: d('0.01'), price: d('50000'), postOnly: false, ioc: false, rpi: false },
    1_000,
  );

/** What every read path says of `cid`: get, by order id, by state, by strategy, all. */
function views(store: Store, cid: string): string[] {
  const o = store.orders.get(cid);
  const byId = o?.orderId === null || o === undefined ? undefined : store.orders.getByOrderId(o.orderId);
  const pick = (list: { clientOrderId: string }[]) => list.find((x) => x.clientOrderId === cid);
  return [o, byId ?? o, pick(store.orders.listByState(['OPEN', 'PENDING', 'FILLED'])), pick(store.orders.listByStrategy('s')), pick(store.orders.all())].map(
    (x) => JSON.stringify(x),
  );
}

describe('order records kept between reads', () => {
  it('a write between two reads is seen by every read path', () => {
    const store = memoryStore();
    place(store, 'a');
    const first = store.orders.get('a');
    expect(first?.state).toBe('PENDING');
    store.orders.setState('a', 'PENDING', 'OPEN', null, 2_000, { orderId: 7 });
    expect(new Set(views(store, 'a')).size).toBe(1);
    expect(store.orders.get('a')?.state).toBe('OPEN');
    store.orders.patch('a', { filledBase: d('0.004') }, 3_000);
    expect(store.orders.get('a')?.filledBase.toFixed()).toBe('0.004');
    expect(new Set(views(store, 'a')).size).toBe(1);
    expect(first?.state).toBe('PENDING');
    expect(Object.isFrozen(store.orders.get('a'))).toBe(true);
  });

  it('a write inside a transaction is seen there, and after its rollback the committed row is read again', () => {
    const store = memoryStore();
    place(store, 'a');
    expect(store.orders.get('a')?.state).toBe('PENDING');
    expect(() =>
      store.tx(() => {
        store.orders.setState('a', 'PENDING', 'OPEN', null, 2_000);
        expect(store.orders.get('a')?.state).toBe('OPEN');
        expect(store.orders.listByStrategy('s')[0]?.state).toBe('OPEN');
        throw new Error('rolled back on purpose');
      }),
    ).toThrow();
    expect(views(store, 'a').map((v) => JSON.parse(v).state)).toEqual(Array(5).fill('PENDING'));
  });

  it('past the bound, reads still give every row as stored', () => {
    const store = memoryStore();
    const n = MAX_CACHED_RECORDS + 5;
    store.tx(() => {
      for (let i = 0; i < n; i++) place(store, `o${i}`);
    });
    expect(store.orders.all()).toHaveLength(n);
    store.orders.setState('o3', 'PENDING', 'OPEN', null, 2_000);
    expect(store.orders.get('o3')?.state).toBe('OPEN');
    expect(store.orders.listByState(['OPEN']).map((o) => o.clientOrderId)).toEqual(['o3']);
  });
});
