/**
 * The balance audit's fill book over a real store: it grows by the fills above the highest deal
 * id it counted, and counts again from scratch when something else changed (a late fill below
 * that id, a fill attributed to one of our orders afterwards, a new collateral market), always
 * equal to a count from scratch.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { Decimal } from '../../../src/core/decimal.js';
import { AuditFillBook } from '../../../src/engine/audit-fill-book.js';
import type { FillBook } from '../../../src/engine/kernels/books.js';
import { silentLogger } from '../../../src/observability/logger.js';
import { openStore, type Store } from '../../../src/store/index.js';
import { tempDir } from '../../support/temp-dir.js';

const cleanups: (() => void)[] = [];
afterEach(() => {
  while (cleanups.length > 0) cleanups.pop()?.();
});

const d = (s: string): Decimal => new Decimal(s);
const assetsOf = (m: string): { base: string; quote: string } => {
  const [base = '', quote = ''] = m.split('_');
  return { base, quote: quote === 'PERP' ? 'USDT' : quote };
};

function storeWithOrders(): Store {
  const dir = tempDir();
  const clock = new ManualClock(1_700_000_000_000);
  const store = openStore({ dataDir: dir, clock, logger: silentLogger() });
  cleanups.push(() => {
    store.close();
  });
  const order = (id: string, kind: 'limit' | 'collateral', market: string) =>
    store.orders.insertPending({ clientOrderId: id, strategyId: 'g', kind, market, side: 'buy', amount: d('1'), price: d('100'), postOnly: false, ioc: false, rpi: false }, clock.now());
  store.tx(() => {
    order('g-1', 'limit', 'BTC_USDT');
    order('g-2', 'collateral', 'BTC_PERP');
    order('g-3', 'collateral', 'ETH_PERP');
  });
  return store;
}

function addFill(store: Store, dealId: number, orderId: number, market: string, owner: string | null, side: 'buy' | 'sell' = 'buy'): void {
  store.tx(() =>
    store.fills.insert({
      ...{ dealId, orderId, clientOrderId: owner ?? '', market, side, role: 'maker', timeMs: dealId },
      ...{ amount: d('0.5'), price: d('100'), quote: d('50'), fee: d('0.05'), feeAsset: 'USDT', strategyId: owner === null ? null : 'g', ownerClientOrderId: owner },
    }),
  );
}

const text = (b: FillBook): string => JSON.stringify([Object.entries(b.totals).map(([k, v]) => [k, v.toFixed()]).sort(), Object.entries(b.positions).map(([k, v]) => [k, v.toFixed()]).sort()]);

describe('the audit fill book', () => {
  it('grows by new fills, recounts when an older fill arrives or a fill is attributed, and always equals a fresh count', () => {
    const store = storeWithOrders();
    const book = new AuditFillBook(store);
    const fresh = (): string => text(new AuditFillBook(store).current(assetsOf));
    addFill(store, 10, 1, 'BTC_USDT', 'g-1');
    addFill(store, 20, 2, 'BTC_PERP', 'g-2');
    expect(text(book.current(assetsOf))).toBe(fresh());
    expect(book.fillsRead).toBe(3); // two own fills, one of a collateral market

    expect(text(book.current(assetsOf))).toBe(fresh());
    expect(book.fillsRead).toBe(3); // nothing changed: nothing read

    addFill(store, 30, 1, 'BTC_USDT', 'g-1', 'sell');
    expect(text(book.current(assetsOf))).toBe(fresh());
    expect(book.fillsRead).toBe(4); // grown by the one new fill

    addFill(store, 15, 99, 'BTC_PERP', null, 'sell'); // late, below the highest id, not ours
    expect(text(book.current(assetsOf))).toBe(fresh());
    expect(book.fillsRead).toBe(4 + 5); // counted again: 3 own fills + 2 of the collateral markets
    expect(book.current(assetsOf).positions['BTC_PERP|BOTH']?.toFixed()).toBe('0');

    store.tx(() => store.fills.attribute(99, 'g', 'g-2')); // now ours
    const before = book.fillsRead;
    expect(text(book.current(assetsOf))).toBe(fresh());
    expect(book.fillsRead).toBeGreaterThan(before);
    expect(book.current(assetsOf).totals['BTC']?.toFixed()).toBe('0'); // 0.5 bought, 0.5 sold (collateral moves no base)
  });
});
