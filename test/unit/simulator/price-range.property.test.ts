/**
 * A market's 24 h range compared by doubles (src/simulator/price-range.ts) and its price on the
 * tick without a comparison (Market.onTick): `compareNear` gives decimal.js's `cmp` for any two
 * values, and a market's price, high and low after random prices set, passed through and days
 * reset are those of decimal.js's comparisons and the reference rounding (the very same objects
 * where only prices set moved the range). Values with more digits than a double holds, zeros,
 * negatives, values below the tick and far exponents included.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Decimal, dec } from '../../../src/core/decimal.js';
import { Market } from '../../../src/simulator/market.js';
import { shortDouble } from '../../../src/simulator/near.js';
import { compareNear } from '../../../src/simulator/price-range.js';

/** A decimal: sign, digits (up to 20, more than a double holds) and an exponent, often near 0 (close values), else from tiny to huge. */
const value = fc
  .tuple(fc.boolean(), fc.stringMatching(/^[0-9]{1,20}$/), fc.integer({ min: -30, max: 30 }), fc.boolean())
  .map(([neg, digits, exp, near]) => new Decimal(`${neg ? '-' : ''}${digits}e${near ? exp % 4 : exp}`));

/** A price around 100 with up to 20 decimal places (on and off the tick), sometimes zero, below the tick or negative. */
const price = fc.oneof(
  { weight: 6, arbitrary: fc.tuple(fc.integer({ min: 90, max: 110 }), fc.stringMatching(/^[0-9]{0,20}$/)).map(([w, f]) => dec(f === '' ? String(w) : `${w}.${f}`)) },
  { weight: 1, arbitrary: fc.constantFrom(dec('0'), dec('-0'), dec('0.001'), dec('-5'), dec('0.004999'), new Decimal('1e-30')) },
);

const TICKS = ['0.01', '0.1', '1', '0.5', '0.25'];

/** The rounding to the tick as the market did it before any shortcut. */
function onTick(p: Decimal, tick: Decimal): Decimal {
  const rounded = p.div(tick).toDecimalPlaces(0, Decimal.ROUND_HALF_EVEN).mul(tick);
  return rounded.lt(tick) ? tick : rounded;
}

class OpenMarket extends Market {
  pass(p: Decimal): void {
    this.passThrough(p);
  }
}

type Move = { kind: 'set' | 'pass'; p: Decimal } | { kind: 'reset' };

const move: fc.Arbitrary<Move> = fc.oneof(
  { weight: 5, arbitrary: price.map((p) => ({ kind: 'set' as const, p })) },
  { weight: 3, arbitrary: price.map((p) => ({ kind: 'pass' as const, p })) },
  { weight: 1, arbitrary: fc.constant({ kind: 'reset' as const }) },
);

describe('a price range compared by doubles', () => {
  it('compareNear is cmp, for any two decimals', () => {
    fc.assert(
      fc.property(value, value, (a, b) => {
        expect(compareNear(a, shortDouble(a), b, shortDouble(b))).toBe(a.cmp(b));
        expect(compareNear(a, shortDouble(a), a, shortDouble(a))).toBe(0);
      }),
      { numRuns: 5000 },
    );
  });

  it("a market's price, high and low are those of decimal.js's comparisons", () => {
    fc.assert(
      fc.property(fc.constantFrom(...TICKS), fc.array(move, { minLength: 1, maxLength: 40 }), (tickText, moves) => {
        const tick = dec(tickText);
        const m = new OpenMarket({ name: 'BTC_USDT', startPrice: '100', tick: tickText, step: '0.001', volatility: '0' }, 1);
        let high = m.price;
        let low = m.price;
        // Only prices set moved the range since the last reset: the ends are the very objects set.
        let same = true;
        for (const mv of moves) {
          if (mv.kind === 'reset') {
            m.resetDay();
            high = low = m.price;
            same = true;
          } else if (mv.kind === 'set') {
            m.setPrice(mv.p);
            expect(m.price.eq(onTick(mv.p, tick))).toBe(true);
            if (m.price.gt(high)) high = m.price;
            if (m.price.lt(low)) low = m.price;
          } else {
            m.pass(mv.p);
            const q = onTick(mv.p, tick);
            if (q.gt(high)) high = q;
            if (q.lt(low)) low = q;
            same = false;
          }
          expect([m.high.toFixed(), m.low.toFixed()]).toEqual([high.toFixed(), low.toFixed()]);
          if (same) {
            expect(m.high).toBe(high);
            expect(m.low).toBe(low);
          }
        }
      }),
      { numRuns: 1000 },
    );
  });
});
