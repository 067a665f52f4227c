/**
 * `orders.marketsOfKindSince` with the newest rowid kept by the repository (orders-repo.ts): a
 * caller that keeps the returned `lastRow` sees every order journaled after it, also when an
 * insert was rolled back and its rowid taken again by the next one; a read-only view reads anew.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { Decimal } from '../../../src/core/decimal.js';
import { silentLogger } from '../../../src/observability/logger.js';
import { openStore, openStoreReadOnly, type Store } from '../../../src/store/index.js';
import { tempDir } from '../../support/temp-dir.js';
import { memoryStore } from '../../support/test-scope.js';

const stores: { close(): void }[] = [];
afterEach(() => {
  for (const s of stores.splice(0)) s.close();
});

const place = (store: Store, cid: string, market: string): void =>
  store.orders.insertPending(
    { clientOrderId: cid, strategyId: 's', kind: 'collateral', market, side: 'buy', amount: new Decimal('0.01'), price: new Decimal('50000'), postOnly: false, ioc: false, rpi: false },
    1_000,
  );

describe('markets of a kind since a row', () => {
  it('a caller keeping lastRow sees every later order, across a rolled-back insert whose rowid is reused', () => {
    const store = memoryStore();
    let last = 0;
    const since = (): string[] => {
      const r = store.orders.marketsOfKindSince('s', 'collateral', last);
      last = r.lastRow;
      return r.markets;
    };
    expect(since()).toEqual([]);
    place(store, 'a', 'BTC_PERP');
    expect(since()).toEqual(['BTC_PERP']);
    expect(since()).toEqual([]);
    expect(last).toBe(1);
    expect(() =>
      store.tx(() => {
        place(store, 'b', 'ETH_PERP');
        expect(since()).toEqual(['ETH_PERP']);
        throw new Error('rolled back on purpose');
      }),
    ).toThrow();
    // The caller's kept row is now past the table's end; the row above is gone, so is the market.
    last = 1;
    expect(since()).toEqual([]);
    place(store, 'c', 'XRP_PERP');
    expect(since()).toEqual(['XRP_PERP']);
    expect(last).toBe(2);
    place(store, 'd', 'BTC_PERP');
    place(store, 'e', 'ETH_PERP');
    expect(since()).toEqual(['BTC_PERP', 'ETH_PERP']);
    expect(last).toBe(4);
  });

  it('a read-only view sees what the writer journaled after its last look', () => {
    const dir = tempDir();
    const store = openStore({ dataDir: dir, clock: new ManualClock(1_000), logger: silentLogger() });
    stores.push(store);
    const view = openStoreReadOnly(dir, new ManualClock(1_000));
    stores.push(view);
    place(store, 'a', 'BTC_PERP');
    const first = view.orders.marketsOfKindSince('s', 'collateral', 0);
    expect(first).toEqual({ markets: ['BTC_PERP'], lastRow: 1 });
    place(store, 'b', 'ETH_PERP');
    expect(view.orders.marketsOfKindSince('s', 'collateral', first.lastRow)).toEqual({ markets: ['ETH_PERP'], lastRow: 2 });
  });
});
