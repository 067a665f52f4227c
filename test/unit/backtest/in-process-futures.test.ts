/**
 * The in-process futures listing keeps each market's entry while what it is built from stands
 * still (src/backtest/in-process-futures.ts). A kept listing must be the listing the route builds
 * afresh (`futuresListing`) to the last digit, right after each kind of change: orders placed,
 * filled and cancelled, price moves and steps, a position opened by another account (open
 * interest without a change of the market), the clock crossing a funding instant, the market
 * halted and reopened; and asked again with nothing changed, it hands out the very same frozen
 * entries in a new array.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { Decimal } from '../../../src/core/decimal.js';
import { KeptFutures } from '../../../src/backtest/in-process-futures.js';
import type { FuturesMarket } from '../../../src/model/markets.js';
import { SimHttpError } from '../../../src/simulator/errors.js';
import { applyPositionFill } from '../../../src/simulator/positions.js';
import { futuresListing } from '../../../src/simulator/routes/public.js';
import { Venue } from '../../../src/simulator/venue.js';
import { apply, MARKETS, op, type Op } from '../../support/venue-ops.js';

function asText(listing: readonly FuturesMarket[]): string {
  return JSON.stringify(listing, (_key, v: unknown) => (v instanceof Decimal ? `dec:${v.toFixed()}` : v));
}

type Change = Op | { kind: 'clock'; minutes: number } | { kind: 'other'; buy: boolean } | { kind: 'halt' } | { kind: 'same' };

const change: fc.Arbitrary<Change> = fc.oneof(
  op,
  fc.record({ kind: fc.constant('clock' as const), minutes: fc.integer({ min: 0, max: 600 }) }),
  fc.record({ kind: fc.constant('other' as const), buy: fc.boolean() }),
  fc.constant({ kind: 'halt' as const }),
  fc.constant({ kind: 'same' as const }),
);

function setUp(seed: number): { venue: Venue; clock: ManualClock; kept: KeptFutures } {
  const clock = new ManualClock(1_700_000_000_000 + seed * 61_000);
  const venue = new Venue(clock, seed, MARKETS, 1000);
  return { venue, clock, kept: new KeptFutures(venue) };
}

describe('the kept futures listing', () => {
  it('property: equals the listing built afresh after any change, and repeats its entries while nothing moved', () => {
    let repeated = 0;
    fc.assert(
      fc.property(fc.array(change, { minLength: 1, maxLength: 30 }), fc.integer({ min: 0, max: 1000 }), (changes, seed) => {
        const { venue, clock, kept } = setUp(seed);
        const account = venue.addAccount({ apiKey: 'k', apiSecret: 's', balances: { USDT: '1000000', BTC: '100' } });
        const other = venue.addAccount({ apiKey: 'k2', apiSecret: 's2', balances: { USDT: '1000' } });
        const perp = venue.requireMarket('BTC_PERP');
        changes.forEach((c, n) => {
          try {
            if (c.kind === 'clock') clock.advance(c.minutes * 60_000);
            else if (c.kind === 'other') applyPositionFill(other, perp, 'BOTH', c.buy ? 'buy' : 'sell', new Decimal('0.2'), perp.price);
            else if (c.kind === 'halt') perp.available = !perp.available;
            else if (c.kind !== 'same') apply(venue, account, c, n);
          } catch (err) {
            if (!(err instanceof SimHttpError)) throw err;
          }
          const first = kept.read();
          expect(asText(first)).toBe(asText(futuresListing(venue)));
          const again = kept.read();
          expect(again).not.toBe(first);
          expect(again.length).toBe(first.length);
          again.forEach((entry, i) => {
            expect(entry).toBe(first[i]);
            expect(Object.isFrozen(entry)).toBe(true);
          });
          repeated += again.length;
        });
      }),
      { numRuns: 150 },
    );
    expect(repeated).toBeGreaterThan(0);
  });

  it('builds an entry afresh when only another account\'s position or the funding instant moved', () => {
    const { venue, clock, kept } = setUp(1);
    const other = venue.addAccount({ apiKey: 'k2', apiSecret: 's2', balances: { USDT: '1000' } });
    const perp = venue.requireMarket('BTC_PERP');
    const [before] = kept.read();
    applyPositionFill(other, perp, 'BOTH', 'buy', new Decimal('0.5'), perp.price);
    const [afterPosition] = kept.read();
    expect(afterPosition).not.toBe(before);
    expect(afterPosition?.openInterest?.toFixed()).toBe('0.5');
    clock.advance(8 * 60 * 60_000);
    const [afterFunding] = kept.read();
    expect(afterFunding?.nextFundingRateTimestampMs).toBeGreaterThan(afterPosition?.nextFundingRateTimestampMs ?? Infinity);
    expect(asText([afterFunding as FuturesMarket])).toBe(asText(futuresListing(venue)));
  });
});
