/**
 * `FillsRepository.existing` answers from the deal ids it knows stored (inserted through it or
 * found by an earlier read) and reads only the others: on random sequences of inserts, reads and
 * rolled-back transactions it must give what a plain SQL read gives, a rolled-back insert never
 * counted as stored, and the known set bounded; a deal id above the newest stored one is taken as
 * not stored without a look-up, which must hold as deals arrive newest first, late or rolled back.
 * `attribute` runs its UPDATE only for an order id that unowned stored fills carry: it must change
 * exactly the rows a plain read finds unowned.
 */
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { dec } from '../../../src/core/decimal.js';
import { silentLogger } from '../../../src/observability/logger.js';
import { openStore, openStoreReadOnly, type Store } from '../../../src/store/index.js';
import { KNOWN_DEALS_MAX } from '../../../src/store/fills-repo.js';
import { Prng } from '../../../src/simulator/prng.js';
import { tempDir } from '../../support/temp-dir.js';
import { closeAfterTest } from '../../support/test-scope.js';

function insert(store: Store, dealId: number, owned = false): boolean {
  const orderId = dealId % 7;
  return store.fills.insert({
    dealId, orderId, clientOrderId: `c${orderId}`, market: 'BTC_USDT', side: 'buy', role: 'maker', timeMs: dealId,
    amount: dec('0.001'), price: dec('60000'), quote: dec('60'), fee: dec('0'), feeAsset: 'USDT',
    strategyId: owned ? 'grid1' : null, ownerClientOrderId: owned ? `c${orderId}` : null,
  });
}

/** A plain read of the stored fills of `orderId` without an owner. */
function unowned(dataDir: string, orderId: number): number {
  const reader = openStoreReadOnly(dataDir, new ManualClock());
  try {
    return reader.fills.byOrderId(orderId).filter((f) => f.ownerClientOrderId === null).length;
  } finally {
    reader.close();
  }
}

/** A plain read of the stored ids among `ids` (what `existing` must answer). */
function stored(dataDir: string, ids: readonly number[]): number[] {
  const reader = openStoreReadOnly(dataDir, new ManualClock());
  try {
    return ids.filter((id) => reader.fills.byDealIds([id]).length === 1);
  } finally {
    reader.close();
  }
}

describe('FillsRepository.existing with the deal ids it knows', () => {
  it('answers as a plain read through inserts, reads and rollbacks', () => {
    const dataDir = tempDir();
    const store = closeAfterTest(openStore({ dataDir, clock: new ManualClock(), logger: silentLogger() }));
    const prng = new Prng(11);
    const rnd = (): number => prng.next();
    const pick = (): number => 1 + Math.floor(rnd() * 60);
    for (let step = 0; step < 300; step++) {
      const r = rnd();
      if (r < 0.4) insert(store, pick());
      else if (r < 0.6) {
        const ids = [pick(), pick()];
        expect(() =>
          store.tx(() => {
            for (const id of ids) insert(store, id);
            store.fills.existing(ids);
            throw new Error('rolled back');
          }),
        ).toThrow('rolled back');
      } else if (r < 0.7) store.tx(() => insert(store, pick()));
      const ids = Array.from({ length: 8 }, pick);
      const want = stored(dataDir, ids);
      expect([...store.fills.existing(ids)].sort((a, b) => a - b)).toEqual([...new Set(want)].sort((a, b) => a - b));
    }
  });

  it('answers as a plain read when most deals are newer than every stored one (a scan), with late ones and rollbacks', () => {
    const dataDir = tempDir();
    const store = closeAfterTest(openStore({ dataDir, clock: new ManualClock(), logger: silentLogger() }));
    const prng = new Prng(23);
    const rnd = (): number => prng.next();
    let top = 0;
    // Mostly above the newest deal so far (where no look-up is needed), sometimes a late or a stored one.
    const next = (): number => (rnd() < 0.7 ? (top += 1 + Math.floor(rnd() * 3)) : 1 + Math.floor(rnd() * (top + 5)));
    for (let step = 0; step < 300; step++) {
      const r = rnd();
      if (r < 0.5) insert(store, next());
      else if (r < 0.7) {
        const ids = [next(), next()];
        expect(() =>
          store.tx(() => {
            for (const id of ids) insert(store, id);
            expect([...store.fills.existing(ids)].sort((a, b) => a - b)).toEqual([...new Set(ids)].sort((a, b) => a - b));
            throw new Error('rolled back');
          }),
        ).toThrow('rolled back');
      }
      const ids = [next(), next(), top, top + 1, 1 + Math.floor(rnd() * (top + 2))];
      const want = stored(dataDir, ids);
      expect([...store.fills.existing(ids)].sort((a, b) => a - b)).toEqual([...new Set(want)].sort((a, b) => a - b));
    }
  });

  it('a rolled-back insert is not taken as stored by the next read', () => {
    const dataDir = tempDir();
    const store = closeAfterTest(openStore({ dataDir, clock: new ManualClock(), logger: silentLogger() }));
    insert(store, 1);
    expect(() =>
      store.tx(() => {
        insert(store, 2);
        expect([...store.fills.existing([1, 2])]).toEqual([1, 2]);
        throw new Error('rolled back');
      }),
    ).toThrow('rolled back');
    expect([...store.fills.existing([1, 2])]).toEqual([1]);
  });

  it('stays right past the bound of known ids', () => {
    const dataDir = tempDir();
    const store = closeAfterTest(openStore({ dataDir, clock: new ManualClock(), logger: silentLogger() }));
    const n = KNOWN_DEALS_MAX + 50;
    // Read before the inserts: the newest stored deal is then kept with them.
    expect(store.fills.existing([1]).size).toBe(0);
    store.tx(() => {
      for (let id = 1; id <= n; id++) insert(store, id);
    });
    const ids = [1, 2, n - 1, n, n + 1];
    expect([...store.fills.existing(ids)].sort((a, b) => a - b)).toEqual([1, 2, n - 1, n]);
    expect(store.fills.existing([n + 2]).size).toBe(0);
  });

  it('attributes exactly the unowned fills a plain read finds, through inserts and rollbacks', () => {
    const dataDir = tempDir();
    const store = closeAfterTest(openStore({ dataDir, clock: new ManualClock(), logger: silentLogger() }));
    const prng = new Prng(5);
    const rnd = (): number => prng.next();
    let attributed = 0;
    for (let step = 0; step < 300; step++) {
      const r = rnd();
      const dealId = 1 + Math.floor(rnd() * 200);
      const orderId = Math.floor(rnd() * 7);
      if (r < 0.45) insert(store, dealId, rnd() < 0.3);
      else if (r < 0.6) {
        expect(() =>
          store.tx(() => {
            insert(store, dealId);
            store.fills.attribute(orderId, 's', `o${orderId}`);
            throw new Error('rolled back');
          }),
        ).toThrow('rolled back');
      } else {
        const want = unowned(dataDir, orderId);
        expect(store.fills.attribute(orderId, 's', `o${orderId}`)).toBe(want);
        expect(unowned(dataDir, orderId)).toBe(0);
        attributed += want;
      }
    }
    expect(attributed).toBeGreaterThan(10);
  });
});
