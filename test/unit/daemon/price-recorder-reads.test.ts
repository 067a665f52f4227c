/**
 * Without history (a backtest's throwaway store) the price recorder folds only the markets whose
 * open minute something reads (src/daemon/price-recorder.ts `readsOpen`, the declared candle
 * windows): over random listings, prices and instants, those markets' open minutes are the ones a
 * recorder folding every market builds, and the others are never folded. With history every
 * market is folded, whatever `readsOpen` says.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { dec } from '../../../src/core/decimal.js';
import { recordingPrices } from '../../../src/daemon/price-recorder.js';
import type { FuturesMarket } from '../../../src/model/markets.js';
import { silentLogger } from '../../../src/observability/logger.js';
import { openScratchStore } from '../../../src/store/index.js';
import { closeAfterTest } from '../../support/test-scope.js';

const CONFIGURED = ['BTC_USDT', 'BTC_PERP', 'ETH_USDT'];
const LISTED: [string, string, string][] = [
  ['BTC_PERP', 'BTC', 'USDT'],
  ['ETH_PERP', 'ETH', 'USDT'],
  ['ETH_USDT', 'ETH', 'USDT'],
];
const ALL = ['BTC_USDT', 'BTC_PERP', 'ETH_PERP', 'ETH_USDT'];

/** One read: how far the clock moves before it (ms) and each listed market's price in ticks (0: not listed). */
const read = fc.record({ moveMs: fc.integer({ min: 0, max: 150_000 }), ticks: fc.array(fc.integer({ min: 0, max: 40 }), { minLength: LISTED.length, maxLength: LISTED.length }) });

function recorder(clock: ManualClock, history: boolean, readsOpen?: (m: string) => boolean) {
  const store = closeAfterTest(openScratchStore({ clock, logger: silentLogger() }));
  let listing: FuturesMarket[] = [];
  const gateway = { markets: async () => listing, balances: async () => new Map() };
  const prices = recordingPrices(gateway, store, clock, silentLogger(), 30, CONFIGURED, history, readsOpen);
  return { store, prices, list: (l: FuturesMarket[]) => (listing = l) };
}

function listingOf(ticks: readonly number[]): FuturesMarket[] {
  const out: FuturesMarket[] = [];
  LISTED.forEach(([tickerId, base, quote], i) => {
    const t = ticks[i] as number;
    if (t > 0) out.push({ tickerId, base, quote, lastPrice: dec(`${100 + t}.5`) } as FuturesMarket);
  });
  return out;
}

describe('the price recorder without history', () => {
  it('folds the markets something reads as a recorder folding every market does, and no other', async () => {
    await fc.assert(
      fc.asyncProperty(fc.subarray(ALL), fc.array(read, { minLength: 1, maxLength: 30 }), async (watched, reads) => {
        const clock = new ManualClock(1_700_000_000_000);
        const every = recorder(clock, false);
        const some = recorder(clock, false, (m) => watched.includes(m));
        for (const r of reads) {
          clock.advance(r.moveMs);
          const l = listingOf(r.ticks);
          every.list(l);
          some.list(l);
          await every.prices.markets();
          await some.prices.markets();
          for (const m of ALL) expect(some.store.candles.openMinute(m)).toEqual(watched.includes(m) ? every.store.candles.openMinute(m) : undefined);
        }
      }),
      { numRuns: 100 },
    );
  });

  it('with history folds every market, whatever readsOpen says', async () => {
    const clock = new ManualClock(1_700_000_000_000);
    const r = recorder(clock, true, () => false);
    r.list(listingOf([3, 0, 7]));
    await r.prices.markets();
    expect(r.store.candles.openMinute('BTC_PERP')?.close).toBe('103.5');
    expect(r.store.candles.openMinute('BTC_USDT')?.close).toBe('103.5');
    expect(r.store.candles.openMinute('ETH_USDT')?.close).toBe('107.5');
  });
});
