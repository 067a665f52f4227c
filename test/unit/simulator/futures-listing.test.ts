/**
 * The in-process venue answers the futures listing with the simulator's own model of it
 * (`futuresListing`, src/simulator/routes/public.ts) instead of building the wire reply and
 * parsing it back. It must be exactly what the client reads from the wire reply (`futures`, sent
 * as JSON text, through the client's `parseFutures`), whatever the venue went through: random
 * orders, brackets, cancels, price moves and steps on a real venue, positions open or not.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { Decimal } from '../../../src/core/decimal.js';
import { parseFutures } from '../../../src/exchange/parse-account.js';
import type { FuturesMarket } from '../../../src/model/markets.js';
import { SimHttpError } from '../../../src/simulator/errors.js';
import { futures, futuresListing } from '../../../src/simulator/routes/public.js';
import { Venue } from '../../../src/simulator/venue.js';
import { apply, MARKETS, op } from '../../support/venue-ops.js';

/** A listing as text: every Decimal as its exact digits, every other field as it is, key by key. */
function asText(listing: readonly FuturesMarket[]): string {
  return JSON.stringify(listing, (_key, v: unknown) => (v instanceof Decimal ? `dec:${v.toFixed()}` : v));
}

function fromWire(venue: Venue): FuturesMarket[] {
  return parseFutures('futures', JSON.parse(JSON.stringify(futures(venue))));
}

describe('the futures listing in process', () => {
  it('property: equals the parsed wire reply after any sequence of venue operations', () => {
    let withInterest = 0;
    fc.assert(
      fc.property(fc.array(op, { minLength: 0, maxLength: 30 }), fc.integer({ min: 0, max: 1000 }), (ops, seed) => {
        const clock = new ManualClock(1_700_000_000_000 + seed * 61_000);
        const venue = new Venue(clock, seed, MARKETS, 1000);
        const account = venue.addAccount({ apiKey: 'k', apiSecret: 's', balances: { USDT: '1000000', BTC: '100' } });
        ops.forEach((o, n) => {
          try {
            apply(venue, account, o, n);
          } catch (err) {
            if (!(err instanceof SimHttpError)) throw err;
          }
          const direct = futuresListing(venue);
          expect(asText(direct)).toBe(asText(fromWire(venue)));
          if (direct.some((f) => f.openInterest?.gt(0) === true)) withInterest++;
        });
      }),
      { numRuns: 100 },
    );
    expect(withInterest).toBeGreaterThan(0); // positions were open in some of the listings compared
  });

  it('lists the perpetuals only, with every field the wire reply carries', () => {
    const venue = new Venue(new ManualClock(1_700_000_000_000), 1, MARKETS, 1000);
    const [perp] = futuresListing(venue);
    expect(futuresListing(venue).map((f) => f.tickerId)).toEqual(['BTC_PERP']);
    expect(Object.keys(perp ?? {}).sort()).toEqual(Object.keys(fromWire(venue)[0] ?? {}).sort());
    expect(perp?.bid.toFixed()).toBe('99.99');
    expect(perp?.ask.toFixed()).toBe('100.01');
  });

  it('hands every listing the same frozen brackets of a market, cut to its leverage', () => {
    const venue = new Venue(new ManualClock(1_700_000_000_000), 1, MARKETS, 1000);
    const first = futuresListing(venue)[0]?.brackets;
    const second = futuresListing(venue)[0]?.brackets;
    expect(second).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    expect(first).toEqual(fromWire(venue)[0]?.brackets);
  });
});
