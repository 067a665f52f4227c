/**
 * The orders kept in memory (live-orders.ts) and the strategies' kept state values
 * (strategy-state-repo.ts) against SQLite: after every write, inside a transaction or not, and
 * after a rolled-back one, what they answer is what the table holds (`all()` reads the table).
 */
import { describe, expect, it } from 'vitest';
import { Decimal } from '../../../src/core/decimal.js';
import type { OrderState } from '../../../src/core/orders.js';
import type { Store } from '../../../src/store/index.js';
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
