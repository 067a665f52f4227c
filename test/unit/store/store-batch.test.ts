/**
 * The scratch store's batch (index.ts `StoreBatch`): many `tx` calls committed as one
 * transaction. Reads outside a `tx` inside the batch are kept by the repositories' caches (the
 * batch never rolls back while the store lives: tx-state.ts); a `tx` inside it is a savepoint that
 * rolls back alone, and nothing it read or wrote is kept. The daemon's store has no batch.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { Decimal } from '../../../src/core/decimal.js';
import { StoreError } from '../../../src/core/errors.js';
import { silentLogger } from '../../../src/observability/logger.js';
import { openScratchStore, openStore, type ScratchStore, type Store } from '../../../src/store/index.js';
import { tempDir } from '../../support/temp-dir.js';
import { boom } from '../../support/attempt.js';

const d = (s: string): Decimal => new Decimal(s);
const stores: Store[] = [];
afterEach(() => {
  for (const s of stores.splice(0)) s.close();
});

function scratch(): ScratchStore {
  const s = openScratchStore({ clock: new ManualClock(1_000), logger: silentLogger() });
  stores.push(s);
  return s;
}

const place = (store: Store, cid: string): void =>
  store.orders.insertPending(
    { clientOrderId: cid, strategyId: 's', kind: 'limit', market: 'BTC_USDT', side: 'buy', amount: d('0.01'), price: d('50000'), postOnly: false, ioc: false, rpi: false },
    1_000,
  );

describe('the scratch store batch', () => {
  it('commits many tx calls at once; inside it only a tx counts as a transaction that can roll back', () => {
    const s = scratch();
    s.batch.begin();
    expect(s.batch.open).toBe(true);
    expect(s.fills.inTransaction).toBe(false);
    s.tx(() => {
      expect(s.fills.inTransaction).toBe(true);
      s.tx(() => expect(s.fills.inTransaction).toBe(true));
      s.meta.set('a', '1');
    });
    expect(s.fills.inTransaction).toBe(false);
    s.meta.set('b', '2');
    s.batch.commit();
    expect(s.batch.open).toBe(false);
    s.batch.commit();
    expect([s.meta.get('a'), s.meta.get('b')]).toEqual(['1', '2']);
    // Without the batch a tx is the transaction, as in the daemon's store.
    s.tx(() => expect(s.fills.inTransaction).toBe(true));
  });

  it('keeps what is read outside a tx inside the batch (the caches stay on)', () => {
    const s = scratch();
    place(s, 'a');
    s.batch.begin();
    // A final order is not in the live index: its record comes from the record cache.
    s.orders.setState('a', 'PENDING', 'REJECTED', null, 2_000);
    expect(s.orders.get('a')).toBe(s.orders.get('a'));
    s.children.add('a', 's', 'stop_loss', d('1'), 2);
    expect(s.children.live()[0]).toBe(s.children.live()[0]);
    s.batch.commit();
  });

  it('a tx that throws inside the batch rolls back to its savepoint and no cache keeps what it wrote or read', () => {
    const s = scratch();
    s.batch.begin();
    place(s, 'a');
    const before = s.orders.get('a');
    s.flex.insertIntent('i', 'treasury', 'p', 1);
    const intents = JSON.stringify(s.flex.intents());
    const live = JSON.stringify(s.children.live());
    expect(() =>
      s.tx(() => {
        s.orders.setState('a', 'PENDING', 'OPEN', null, 2_000, { orderId: 7 });
        // Read inside the savepoint: seen there, never kept.
        expect(s.orders.get('a')?.state).toBe('OPEN');
        s.flex.setIntent('i', 'DONE', { transactionId: 't' }, 2);
        expect(s.flex.intents()[0]?.state).toBe('DONE');
        s.children.add('a', 's', 'stop_loss', d('1'), 2);
        expect(s.children.live()).toHaveLength(1);
        s.meta.set('x', '1');
        boom();
      }),
    ).toThrow(StoreError);
    expect(s.batch.open).toBe(true);
    expect(s.orders.get('a')?.state).toBe('PENDING');
    expect(JSON.stringify(s.orders.get('a'))).toBe(JSON.stringify(before));
    expect(JSON.stringify(s.flex.intents())).toBe(intents);
    expect(JSON.stringify(s.children.live())).toBe(live);
    expect(s.meta.get('x')).toBeUndefined();
    // The batch goes on and commits what was written outside the failed tx.
    s.meta.set('y', '1');
    s.batch.commit();
    expect([s.orders.get('a')?.state, s.flex.intents()[0]?.state, s.meta.get('y')]).toEqual(['PENDING', 'PENDING', '1']);
  });

  it('refuses to open inside a transaction or twice', () => {
    const s = scratch();
    expect(() => s.tx(() => s.batch.begin())).toThrow(/already open/);
    s.batch.begin();
    expect(() => s.batch.begin()).toThrow(/already open/);
    s.batch.commit();
  });

  it('a store closed with its batch open discards it (a failed run)', () => {
    const s = scratch();
    s.batch.begin();
    s.meta.set('a', '1');
    s.close();
    expect(s.batch.open).toBe(true);
  });

  it('is not offered by the daemon\'s store, whose inTransaction is SQLite\'s', () => {
    const s = openStore({ dataDir: tempDir(), clock: new ManualClock(0), logger: silentLogger() });
    stores.push(s);
    expect('batch' in s).toBe(false);
    expect(s.fills.inTransaction).toBe(false);
    s.tx(() => expect(s.fills.inTransaction).toBe(true));
  });
});
