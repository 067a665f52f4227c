/**
 * The price recorder folds each listed price into its market's open minute and into the one
 * configured market the listing does not list under its own name (its alias: the same base and
 * quote), working out the aliases again only when the listing lists other markets or in another
 * order (src/daemon/price-recorder.ts): over random listings, the folds are those of working them
 * out at every read.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { dec } from '../../../src/core/decimal.js';
import { recordingPrices } from '../../../src/daemon/price-recorder.js';
import type { FuturesMarket } from '../../../src/model/markets.js';
import { silentLogger } from '../../../src/observability/logger.js';
import type { Store } from '../../../src/store/index.js';

const CONFIGURED = ['BTC_USDT', 'ETH_USDT', 'BTC_PERP', 'SOL_USDC'];
const LISTABLE: [string, string, string][] = [
  ['BTC_PERP', 'BTC', 'USDT'],
  ['BTC_PERP2', 'BTC', 'USDT'],
  ['ETH_PERP', 'ETH', 'USDT'],
  ['ETH_USDT', 'ETH', 'USDT'],
  ['SOL_PERP', 'SOL', 'USDC'],
];

/** The folds of one read, worked out from scratch as the recorder did at every read. */
function expectedFolds(futures: readonly FuturesMarket[]): string[] {
  const listed = new Set(futures.map((f) => f.tickerId));
  const aliases = new Set(CONFIGURED.filter((m) => !listed.has(m)));
  return futures.flatMap((f) => {
    const spot = `${f.base}_${f.quote}`;
    return aliases.delete(spot) ? [`${f.tickerId}@${f.lastPrice.toFixed()}`, `${spot}@${f.lastPrice.toFixed()}`] : [`${f.tickerId}@${f.lastPrice.toFixed()}`];
  });
}

describe('the price recorder and its aliases', () => {
  it('folds what working the aliases out at every read folds, whatever the listings', async () => {
    const listing = fc.uniqueArray(fc.constantFrom(...LISTABLE.keys()), { maxLength: LISTABLE.length }).map((ix) => ix.map((i) => LISTABLE[i] as [string, string, string]));
    await fc.assert(
      fc.asyncProperty(fc.array(listing, { minLength: 1, maxLength: 12 }), async (reads) => {
        const folds: string[] = [];
        const candles = { keepNoHistory: () => undefined, fold: (m: string, _at: number, p: { toFixed(): string }) => folds.push(`${m}@${p.toFixed()}`), closeEnded: () => undefined, forgetOpen: () => undefined };
        let current: FuturesMarket[] = [];
        const gateway = { markets: async () => current, balances: async () => new Map() };
        const recorder = recordingPrices(gateway, { candles } as unknown as Store, new ManualClock(0), silentLogger(), 30, CONFIGURED, false);
        let n = 0;
        for (const read of [...reads, ...reads]) {
          current = read.map(([tickerId, base, quote]) => ({ tickerId, base, quote, lastPrice: dec(String(++n)) }) as FuturesMarket);
          folds.length = 0;
          await recorder.markets();
          expect(folds).toEqual(expectedFolds(current));
        }
      }),
      { numRuns: 200 },
    );
  });
});
