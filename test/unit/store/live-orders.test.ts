/**
 * The orders kept in memory (live-orders.ts) and the strategies' kept state values
 * (strategy-state-repo.ts) against SQLite: after every write, inside a transaction or not, and
 * after a rolled-back one, what they answer is what the table holds (`all()` reads the table).
 */
import { describe, expect, it } from 'vitest';
import { Decimal } from '../../../src/core/decimal.js';
import type { OrderState } from '../../../src/core/orders.js';
import type { Store } from '../../../src/store/index.js';
import { ENDED_MAX } from '../../../src/store/live-orders.js';
import { memoryStore } from '../../support/test-scope.js';

const d = (s: string): Decimal => new Decimal(s);
const LIVE: OrderState[] = ['PENDING', 'OPEN', 'PARTIALLY_FILLED', 'PENDING_CANCEL', 'UNKNOWN'];

const place = (store: Store, cid: string, strategyId = 's', atMs = 1_000): void =>
  store.orders.insertPending(
    { clientOrderId: cid, strategyId, kind: 'limit', market: 'BTC_USDT', side: 'buy', amount: d('0.01'), price: d('50000'), postOnly: false, ioc: false, rpi: false },
    atMs,
  );

const ids = (list: { clientOrderId: string }[]): string[] => list.map((o) => o.clientOrderId);

/** Every kept read next to the same read derived from the whole table. */
function expectInStep(store: Store): void {
  const table = store.orders.all();
  const inStates = (states: OrderState[], strategyId?: string): string[] =>
    ids(table.filter((o) => states.includes(o.state) && (strategyId === undefined || o.strategyId === strategyId)));
  expect(ids(store.orders.listByState(LIVE))).toEqual(inStates(LIVE));
  expect(ids(store.orders.listByState(['OPEN', 'PARTIALLY_FILLED']))).toEqual(inStates(['OPEN', 'PARTIALLY_FILLED']));
  expect(ids(store.orders.listByStrategy('s', LIVE))).toEqual(inStates(LIVE, 's'));
  expect(ids(store.orders.listByStrategy('t', ['PENDING']))).toEqual(inStates(['PENDING'], 't'));
  expect(ids(store.orders.listProvisional())).toEqual(ids(table.filter((o) => o.reportedFilledBase.gt(o.filledBase))));
  for (const o of table) expect(JSON.stringify(store.orders.get(o.clientOrderId))).toBe(JSON.stringify(o));
  // Live orders are found by venue id in memory, final ones in SQL: either way the table's row.
  for (const o of table) if (o.orderId !== null) expect(JSON.stringify(store.orders.getByOrderId(o.orderId))).toBe(JSON.stringify(o));
  // The provisional column as written says the same: the kept sets, dropped, are read again from SQL.
  store.orders.rolledBack();
  expect(ids(store.orders.listProvisional())).toEqual(ids(table.filter((o) => o.reportedFilledBase.gt(o.filledBase))));
}

describe('live orders kept in memory', () => {
  it('every write is seen by the next read, in the order SQL gives (created, then id)', () => {
    const store = memoryStore();
    expectInStep(store);
    place(store, 'b', 's', 2_000);
    place(store, 'a', 't', 2_000);
    place(store, 'c', 's', 1_500);
    expectInStep(store);
    expect(ids(store.orders.listByState(['PENDING']))).toEqual(['c', 'a', 'b']);
    store.orders.setState('a', 'PENDING', 'OPEN', 'placed', 3_000, { orderId: 1, reported: { base: d('0.004'), quote: d('200') } });
    expectInStep(store);
    expect(ids(store.orders.listProvisional())).toEqual(['a']);
    store.orders.patch('a', { filledBase: d('0.004') }, 3_100);
    expectInStep(store);
    expect(store.orders.listProvisional()).toEqual([]);
    store.orders.setState('b', 'PENDING', 'REJECTED', 'refused', 3_200);
    store.orders.setState('c', 'PENDING', 'UNKNOWN', 'ambiguous', 3_300, { unknownSinceMs: 3_300, resolveLooks: 0 });
    expectInStep(store);
    expect(ids(store.orders.listByState(LIVE))).toEqual(['c', 'a']);
    store.orders.setState('a', 'OPEN', 'FILLED', 'deals', 3_400, { filledBase: d('0.01'), reported: { base: d('0.02'), quote: d('1000') } });
    expectInStep(store);
    // Final but still provisional: the reply reported more than the deals applied.
    expect(ids(store.orders.listProvisional())).toEqual(['a']);
    expect(store.orders.get('a')?.state).toBe('FILLED');
  });

  it("a final order's record is the row as written after its move, in a tx or not, past the kept bound and after a rollback", () => {
    const store = memoryStore();
    expectInStep(store);
    const n = ENDED_MAX + 20;
    for (let i = 0; i < n; i++) place(store, `o${i}`, 's', 1_000 + i);
    for (let i = 0; i < n; i++) {
      // Alternately inside a transaction and not; the finals' records are read only after it commits.
      const end = (): void => store.orders.setState(`o${i}`, 'PENDING', i % 3 === 0 ? 'REJECTED' : 'CANCELLED', 'done', 5_000 + i, { orderId: 100 + i });
      if (i % 2 === 0) store.tx(end);
      else end();
    }
    expect(store.orders.get('o0')?.state).toBe('REJECTED');
    expect(() =>
      store.tx(() => {
        store.orders.patch(`o${n - 1}`, { resolveLooks: 9 }, 9_000);
        expect(store.orders.get(`o${n - 1}`)?.resolveLooks).toBe(9);
        throw new Error('boom');
      }),
    ).toThrow('boom');
    expect(store.orders.get(`o${n - 1}`)?.resolveLooks).toBe(0);
    store.orders.patch(`o${n - 2}`, { resolveLooks: 4 }, 9_100);
    expect(store.orders.get(`o${n - 2}`)?.resolveLooks).toBe(4);
    expectInStep(store);
  });

  it('a rolled-back transaction leaves no trace: the writes were seen inside it, not after', () => {
    const store = memoryStore();
    place(store, 'a');
    expectInStep(store);
    expect(() =>
      store.tx(() => {
        place(store, 'b');
        store.orders.setState('a', 'PENDING', 'OPEN', 'placed', 2_000, { orderId: 1, reported: { base: d('0.001'), quote: d('50') } });
        expect(ids(store.orders.listByState(['OPEN']))).toEqual(['a']);
        expect(ids(store.orders.listByState(['PENDING']))).toEqual(['b']);
        expect(ids(store.orders.listProvisional())).toEqual(['a']);
        expectInStep(store);
        throw new Error('boom');
      }),
    ).toThrow('boom');
    expectInStep(store);
    expect(ids(store.orders.listByState(LIVE))).toEqual(['a']);
    expect(store.orders.get('a')?.state).toBe('PENDING');
    expect(store.orders.get('b')).toBeUndefined();
    expect(store.orders.listProvisional()).toEqual([]);
    expect(store.orders.getByOrderId(1)).toBeUndefined();
  });

  it('an order is found by its venue id while live and after it is final, not by an id it never had', () => {
    const store = memoryStore();
    place(store, 'a');
    place(store, 'b');
    expectInStep(store);
    store.orders.setState('a', 'PENDING', 'OPEN', 'placed', 2_000, { orderId: 7 });
    store.orders.setState('b', 'PENDING', 'OPEN', 'placed', 2_000, { orderId: 8 });
    expect(store.orders.getByOrderId(7)?.clientOrderId).toBe('a');
    store.orders.setState('a', 'OPEN', 'FILLED', 'deals', 3_000, { filledBase: d('0.01') });
    expectInStep(store);
    expect(store.orders.getByOrderId(7)).toMatchObject({ clientOrderId: 'a', state: 'FILLED' });
    expect(store.orders.getByOrderId(8)).toMatchObject({ clientOrderId: 'b', state: 'OPEN' });
    expect(store.orders.getByOrderId(9)).toBeUndefined();
  });

  it('sequence numbers: each reservation follows the last committed one, also after a rolled-back reservation', () => {
    const store = memoryStore();
    expect(store.orders.reserveSequence('g', 3, 100)).toBe(100);
    expect(store.orders.reserveSequence('g', 2, 500)).toBe(103);
    expect(store.orders.reserveSequence('h', 1, 7)).toBe(7);
    expect(() =>
      store.tx(() => {
        expect(store.orders.reserveSequence('g', 4, 500)).toBe(105);
        throw new Error('boom');
      }),
    ).toThrow('boom');
    expect(store.orders.reserveSequence('g', 1, 500)).toBe(105);
    expect(store.orders.reserveSequence('g', 1, 500)).toBe(106);
  });

  it('a nested transaction that fails is rolled back alone; the outer one commits the rest', () => {
    const store = memoryStore();
    place(store, 'a');
    place(store, 'b');
    expectInStep(store);
    store.tx(() => {
      store.orders.setState('a', 'PENDING', 'OPEN', 'placed', 2_000, { orderId: 1 });
      try {
        store.tx(() => {
          store.orders.setState('b', 'PENDING', 'CANCELLED', 'gone', 2_000);
          throw new Error('inner');
        });
      } catch {
        // the inner part is undone; the outer goes on
      }
      expectInStep(store);
    });
    expectInStep(store);
    expect(store.orders.get('a')?.state).toBe('OPEN');
    expect(store.orders.get('b')?.state).toBe('PENDING');
  });
});

describe('strategy state values kept in memory', () => {
  it('reads see every write, unchanged writes change nothing, and a rolled-back write is not kept', () => {
    const store = memoryStore();
    const s = store.strategyState('s');
    const other = store.strategyState('s');
    expect(s.get('k')).toBeUndefined();
    s.set('k', { n: 1 });
    expect(other.get('k')).toEqual({ n: 1 });
    const got = s.get<{ n: number }>('k');
    if (got !== undefined) got.n = 99;
    // A caller's change to what it read is not the stored value.
    expect(s.get('k')).toEqual({ n: 1 });
    s.set('k', { n: 1 });
    expect(s.entries()).toEqual({ k: { n: 1 } });
    expect(() =>
      store.tx(() => {
        s.set('k', { n: 2 });
        s.delete('gone');
        expect(other.get('k')).toEqual({ n: 2 });
        throw new Error('boom');
      }),
    ).toThrow('boom');
    expect(s.get('k')).toEqual({ n: 1 });
    // The same value as before the rolled-back write: written again, not skipped as unchanged.
    store.tx(() => s.set('k', { n: 2 }));
    expect(s.entries()).toEqual({ k: { n: 2 } });
    s.delete('k');
    expect(s.get('k')).toBeUndefined();
    expect(s.entries()).toEqual({});
    expect(store.strategyState('t').get('k')).toBeUndefined();
  });
});
