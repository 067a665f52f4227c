/**
 * The grid finds the level nearest the price and each level's side from the levels next to the
 * price (nearestLevel), not from every level's distance: the same answers as the scan of every
 * distance (nearestByScan) and the per-level comparison with the price, on random ladders and
 * prices, including prices on a level, half-way between two and outside the ladder, and ladders
 * with equal levels.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Decimal } from '../../../src/core/decimal.js';
import { BufferedState, buildContext, parseIntents, type OrderView, type Side } from '../../../src/strategy-api/host.js';
import { ladder, maintainGrid, nearestByScan, nearestLevel, spotGridParams } from '../../../strategies/spot-grid.js';
import { MemoryState, price, quietLog, snapshot } from '../../support/daemon-ctx.js';

const decimal = (min: number, max: number, places: number): fc.Arbitrary<Decimal> =>
  fc.integer({ min: min * 10 ** places, max: max * 10 ** places }).map((n) => new Decimal(n).div(10 ** places));

/** A price near the ladder: on a level, half-way between two, or anywhere around it. */
function pricesAround(levels: readonly Decimal[]): fc.Arbitrary<Decimal> {
  const first = levels[0] as Decimal;
  const last = levels[levels.length - 1] as Decimal;
  const span = last.minus(first).plus(1);
  const index = fc.nat({ max: levels.length - 1 });
  return fc.oneof(
    index.map((i) => levels[i] as Decimal),
    index.map((i) => (levels[i] as Decimal).plus(levels[Math.min(i + 1, levels.length - 1)] as Decimal).div(2)),
    fc.integer({ min: -1000, max: 2000 }).map((n) => first.minus(span.div(2)).plus(span.mul(2).mul(n).div(1000))),
  );
}

/** The side each level gets, as the grid decided it before: compared with the price. */
const sidesByComparison = (levels: readonly Decimal[], p: Decimal): Side[] => levels.map((lvl) => (lvl.lt(p) ? 'buy' : 'sell'));

describe('spot-grid: the nearest level from its neighbours', () => {
  it('property: nearestLevel equals the scan of every distance on ascending ladders, equal levels included', () => {
    const ladders = fc.oneof(
      fc.tuple(decimal(1, 100_000, 2), fc.integer({ min: 1, max: 20 }), decimal(0, 49, 3)).map(([c, n, s]) => ladder(c, n, s.plus('0.001'))),
      fc.array(decimal(1, 50, 0), { minLength: 1, maxLength: 12 }).map((xs) => xs.sort((a, b) => a.comparedTo(b))),
    );
    fc.assert(
      fc.property(
        ladders.chain((levels) => fc.tuple(fc.constant(levels), pricesAround(levels))),
        ([levels, p]) => {
          const below = levels.filter((lvl) => lvl.lt(p)).length;
          expect(nearestLevel(levels, p, below)).toBe(nearestByScan(levels, p));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('property: the intents equal those of every distance and every comparison, with random open orders', () => {
    const cases = fc.record({
      centre: decimal(100, 90_000, 2),
      levels: fc.integer({ min: 1, max: 8 }),
      spacing: decimal(0, 5, 3).map((s) => s.plus('0.01')),
      taken: fc.array(fc.nat({ max: 16 }), { maxLength: 6 }),
      at: fc.integer({ min: -1200, max: 1200 }),
    });
    fc.assert(
      fc.property(cases, (c) => {
        const params = spotGridParams.parse({ market: 'BTC_USDT', levels: c.levels, spacingPct: c.spacing.toFixed(), orderAmount: '0.01' });
        const levels = ladder(c.centre, c.levels, params.spacingPct);
        // A price within the re-centring bounds most of the time, on or between levels.
        const p = c.centre.mul(params.spacingPct.mul(c.at).div(100_000).plus(1)).toDecimalPlaces(2);
        const open: OrderView[] = c.taken.flatMap((i) => {
          const lvl = levels[i % levels.length] as Decimal;
          const d = new Decimal('0.01');
          return [{ clientOrderId: `o${i}`, market: 'BTC_USDT', side: 'buy', kind: 'limit', state: 'OPEN', amount: d, price: lvl, filled: new Decimal(0), remaining: d, createdMs: 0 }];
        });
        const state = new MemoryState();
        state.set('centre', c.centre.toFixed());
        const data = snapshot({ prices: { BTC_USDT: price('BTC_USDT', p.toFixed()) }, openOrders: open });
        const got = parseIntents(maintainGrid(buildContext('g', params, data, new BufferedState(state), quietLog)), 'g');
        const first = got[0];
        if (first?.type !== 'placeLimits') return;
        const nearest = nearestByScan(levels, p);
        const sides = sidesByComparison(levels, p);
        for (const o of first.orders) {
          const i = levels.findIndex((lvl) => lvl.eq(o.price));
          expect(i).not.toBe(nearest);
          expect(o.side).toBe(sides[i]);
        }
        const expected = levels.filter((lvl, i) => i !== nearest && !open.some((o) => o.price.minus(lvl).abs().lte(c.centre.mul(params.spacingPct).div(200))));
        expect(first.orders.map((o) => o.price.toFixed())).toEqual(expected.map((lvl) => lvl.toFixed()));
      }),
      { numRuns: 500 },
    );
  });

  it('a price half-way between two levels takes the lower one as nearest, as the scan does', () => {
    const levels = ladder(new Decimal(100), 2, new Decimal(1));
    const half = new Decimal('99.5');
    expect(nearestByScan(levels, half)).toBe(1);
    expect(nearestLevel(levels, half, 2)).toBe(1);
    const equal = [98, 99, 99, 99, 101].map((n) => new Decimal(n));
    expect(nearestLevel(equal, new Decimal(100), 4)).toBe(nearestByScan(equal, new Decimal(100)));
    expect(nearestByScan(equal, new Decimal(100))).toBe(1);
  });
});
