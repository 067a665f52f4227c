/**
 * What the writer answers from its own writes: `orders.marketsOfKindSince` from each strategy's
 * markets per kind kept with the inserts, `fills.byDealIds` from the records its inserts wrote.
 * Through random inserts, attributions and rolled-back transactions both must give what a plain
 * read through a read-only view gives (a rolled-back row never answered from memory).
 */
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { dec } from '../../../src/core/decimal.js';
import { silentLogger } from '../../../src/observability/logger.js';
import { openStore, openStoreReadOnly, type Store } from '../../../src/store/index.js';
import { WRITTEN_MAX } from '../../../src/store/fills-repo.js';
import type { OrderKind } from '../../../src/model/journal.js';
import { Prng } from '../../../src/simulator/prng.js';
import { tempDir } from '../../support/temp-dir.js';
import { closeAfterTest } from '../../support/test-scope.js';

const STRATEGIES = ['s', 't'];
const KINDS: OrderKind[] = ['limit', 'collateral'];
const MARKETS = ['BTC_PERP', 'ETH_PERP', 'BTC_USDT', 'XRP_USDT'];

function setup(seed: number): { store: Store; view: ReturnType<typeof openStoreReadOnly>; rnd: () => number; pick: <T>(xs: readonly T[]) => T } {
  const dataDir = tempDir();
  const store = closeAfterTest(openStore({ dataDir, clock: new ManualClock(1_000), logger: silentLogger() }));
  const view = closeAfterTest(openStoreReadOnly(dataDir, new ManualClock(1_000)));
  const prng = new Prng(seed);
  const rnd = (): number => prng.next();
  return { store, view, rnd, pick: <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)] as T };
}

describe('orders.marketsOfKindSince kept by the writer', () => {
  it('answers as a plain read through inserts and rollbacks', () => {
    const { store, view, rnd, pick } = setup(7);
    let n = 0;
    const place = (): void =>
      store.orders.insertPending(
        { clientOrderId: `c${n++}`, strategyId: pick(STRATEGIES), kind: pick(KINDS), market: pick(MARKETS), side: 'buy', amount: dec('1'), price: dec('2'), postOnly: false, ioc: false, rpi: false },
        1_000,
      );
    for (let step = 0; step < 300; step++) {
      const r = rnd();
      if (r < 0.5) place();
      else if (r < 0.65) {
        expect(() =>
          store.tx(() => {
            place();
            place();
            store.orders.marketsOfKindSince(pick(STRATEGIES), pick(KINDS), 0);
            throw new Error('rolled back');
          }),
        ).toThrow('rolled back');
      }
      const strategy = pick(STRATEGIES);
      const kind = pick(KINDS);
      const last = view.orders.marketsOfKindSince(strategy, kind, 0).lastRow;
      const after = Math.floor(rnd() * (last + 1));
      expect(store.orders.marketsOfKindSince(strategy, kind, after)).toEqual(view.orders.marketsOfKindSince(strategy, kind, after));
    }
  });
});

describe('fills.byDealIds of the writer own inserts', () => {
  it('answers as a plain read through inserts, attributions and rollbacks', () => {
    const { store, view, rnd, pick } = setup(13);
    const insert = (dealId: number): boolean => {
      const owned = rnd() < 0.5;
      const orderId = dealId % 5;
      return store.fills.insert({
        dealId, orderId, clientOrderId: `c${orderId}`, market: pick(MARKETS), side: pick(['buy', 'sell'] as const), role: 'maker',
        timeMs: 1_000 + Math.floor(rnd() * 50), amount: dec(`0.${dealId}0`), price: dec('60000.5'), quote: dec(`0.${dealId}`).mul('60000.5'),
        // Made by arithmetic, as a deal's are (the kept record holds the fill's own), and zeros of either sign.
        fee: pick([dec(`0.${dealId}`).mul('60000.5').mul('0.001'), dec('1').div(3), dec('0'), dec('0').neg(), dec('-0.5').plus('0.5')]),
        feeAsset: 'USDT', strategyId: owned ? pick(STRATEGIES) : null, ownerClientOrderId: owned ? `c${orderId}` : null,
      });
    };
    let top = 0;
    for (let step = 0; step < 300; step++) {
      const r = rnd();
      const fresh = [++top, ++top];
      if (r < 0.5) for (const id of fresh) insert(id);
      else if (r < 0.65) {
        expect(() =>
          store.tx(() => {
            for (const id of fresh) insert(id);
            expect(store.fills.byDealIds(fresh).map((f) => f.dealId).sort((a, b) => a - b)).toEqual(fresh);
            throw new Error('rolled back');
          }),
        ).toThrow('rolled back');
      } else if (r < 0.75) store.fills.attribute(Math.floor(rnd() * 5), pick(STRATEGIES), 'owner');
      else insert(1 + Math.floor(rnd() * top));
      const old = (): number => 1 + Math.floor(rnd() * top);
      // After an attribution: stored deals only (an id not kept sends the whole read to SQL).
      const ids = r >= 0.65 && r < 0.75 ? [old(), old()] : [...fresh, old()].slice(0, 1 + Math.floor(rnd() * 3));
      expect(store.fills.byDealIds(ids)).toEqual(view.fills.byDealIds(ids));
    }
  });

  it('stays right past the bound of kept records', () => {
    const { store, view } = setup(1);
    const n = WRITTEN_MAX + 10;
    store.tx(() => {
      for (let id = 1; id <= n; id++) {
        store.fills.insert({
          dealId: id, orderId: 1, clientOrderId: 'c', market: 'BTC_USDT', side: 'buy', role: 'taker', timeMs: n - id,
          amount: dec('1.50'), price: dec('2'), quote: dec('3'), fee: dec('0'), feeAsset: 'USDT', strategyId: 's', ownerClientOrderId: 'c',
        });
      }
    });
    for (const ids of [[1, 2], [n - 1, n], [n, 1], [WRITTEN_MAX, WRITTEN_MAX + 1]]) expect(store.fills.byDealIds(ids)).toEqual(view.fills.byDealIds(ids));
  });

  it('hands every reader the same kept record, frozen so that none can change it for the others', () => {
    const { store } = setup(2);
    store.fills.insert({
      dealId: 7, orderId: 1, clientOrderId: 'c', market: 'BTC_USDT', side: 'buy', role: 'taker', timeMs: 5,
      amount: dec('1'), price: dec('2'), quote: dec('2'), fee: dec('0'), feeAsset: 'USDT', strategyId: 's', ownerClientOrderId: 'c',
    });
    const [first] = store.fills.byDealIds([7]);
    expect(store.fills.byDealIds([7])[0]).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
  });
});
