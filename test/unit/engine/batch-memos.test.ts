/**
 * The engine's kept reads inside a backtest's batch (src/store/index.ts `StoreBatch`, one commit
 * per price step): they stay on outside a `store.tx` (reads there are final), and a `store.tx`
 * that throws inside the batch rolls back to its savepoint with nothing of it kept.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { Decimal } from '../../../src/core/decimal.js';
import { ReadModels } from '../../../src/engine/read-models.js';
import type { FillRecord } from '../../../src/model/fills.js';
import { silentLogger } from '../../../src/observability/logger.js';
import { openScratchStore, type ScratchStore } from '../../../src/store/index.js';

const stores: ScratchStore[] = [];
afterEach(() => {
  for (const s of stores.splice(0)) s.close();
});

function fill(dealId: number, amount: string): FillRecord {
  const a = new Decimal(amount);
  const price = new Decimal(100);
  return {
    dealId,
    orderId: 1,
    clientOrderId: 'a-1',
    market: 'BTC_USDT',
    side: 'buy',
    role: 'maker',
    timeMs: dealId,
    amount: a,
    price,
    quote: a.mul(price),
    fee: new Decimal(0),
    feeAsset: 'USDT',
    strategyId: 'a',
    ownerClientOrderId: 'a-1',
  };
}

describe('the engine\'s kept reads inside the batch', () => {
  it('are kept outside a store.tx; a store.tx that throws leaves nothing kept', () => {
    const store = openScratchStore({ clock: new ManualClock(0), logger: silentLogger() });
    stores.push(store);
    const read = new ReadModels(store);
    const fromSql = vi.spyOn(store.fills, 'byStrategy');
    store.batch.begin();
    store.fills.insert(fill(1, '1'));
    expect(read.positions('a')[0]?.base.toFixed()).toBe('1');
    store.fills.insert(fill(2, '2'));
    expect(read.positions('a')[0]?.base.toFixed()).toBe('3');
    // Folded fill by fill from the insert log: the whole list was never read again.
    expect(fromSql).not.toHaveBeenCalled();
    expect(() =>
      store.tx(() => {
        store.fills.insert(fill(3, '4'));
        expect(read.positions('a')[0]?.base.toFixed()).toBe('7');
        expect(read.recentFills('a').map((f) => f.dealId)).toEqual([3, 2, 1]);
        throw new Error('rolled back on purpose');
      }),
    ).toThrow();
    expect(fromSql).toHaveBeenCalledTimes(1);
    expect(store.batch.open).toBe(true);
    expect(read.positions('a')[0]?.base.toFixed()).toBe('3');
    expect(read.recentFills('a').map((f) => f.dealId)).toEqual([2, 1]);
    store.batch.commit();
    expect(read.positions('a')[0]?.base.toFixed()).toBe('3');
    expect(store.fills.all().map((f) => f.dealId)).toEqual([1, 2]);
  });
});
