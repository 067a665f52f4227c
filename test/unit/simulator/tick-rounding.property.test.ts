/**
 * The shortcuts of the price step give the values of the arithmetic they replace:
 * - a market's price on its tick (Market.setPrice): rounding to a power-of-ten tick's decimal
 *   places equals `p / tick` rounded half to even, times the tick, never below one tick; a price
 *   already on the tick is kept as it is;
 * - a candle's legs (intrabar.ts): the span of a move is its lower and higher end, each moved by
 *   one tick under `through`, as `Decimal.min`/`Decimal.max` gave.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { candleLegs } from '../../../src/backtest/intrabar.js';
import { Decimal, dec } from '../../../src/core/decimal.js';
import { Market, tickPlacesOf } from '../../../src/simulator/market.js';

/** The rounding as the market did it before the shortcut. */
function reference(p: Decimal, tick: Decimal): Decimal {
  const rounded = p.div(tick).toDecimalPlaces(0, Decimal.ROUND_HALF_EVEN).mul(tick);
  return rounded.lt(tick) ? tick : rounded;
}

const TICKS = ['1', '0.1', '0.01', '0.0001', '0.5', '0.25', '5', '10'];

/** Prices with up to 8 decimal places, halves included (the half-to-even cases). */
const price = fc
  .tuple(fc.integer({ min: 0, max: 200_000 }), fc.integer({ min: 0, max: 99_999_999 }), fc.integer({ min: 0, max: 8 }))
  .map(([whole, frac, places]) => dec(`${whole}.${String(frac).padStart(8, '0').slice(0, Math.max(1, places))}`));

describe('price step shortcuts', () => {
  it('tickPlacesOf: the places of a power-of-ten tick, null for any other tick', () => {
    expect(['1', '0.1', '0.01', '0.0001'].map((t) => tickPlacesOf(dec(t)))).toEqual([0, 1, 2, 4]);
    expect(['0.5', '0.25', '5', '10', '0.02'].map((t) => tickPlacesOf(dec(t)))).toEqual([null, null, null, null, null]);
  });

  it('property: a price set on a market is the reference rounding to its tick', () => {
    fc.assert(
      fc.property(fc.constantFrom(...TICKS), price, (tick, p) => {
        const m = new Market({ name: 'BTC_USDT', startPrice: '100', tick, step: '0.001' }, 1);
        m.setPrice(p);
        expect(m.price.toFixed()).toBe(reference(p, dec(tick)).toFixed());
      }),
      { numRuns: 3000 },
    );
  });

  it('half to even at the tick, and a price on the tick kept as the same Decimal', () => {
    const m = new Market({ name: 'BTC_USDT', startPrice: '100', tick: '0.01', step: '0.001' }, 1);
    const cases: [string, string][] = [['10.005', '10'], ['10.015', '10.02'], ['10.0051', '10.01'], ['0.001', '0.01']];
    for (const [given, want] of cases) {
      m.setPrice(dec(given));
      expect(m.price.toFixed()).toBe(dec(want).toFixed());
    }
    const on = dec('123.45');
    m.setPrice(on);
    expect(m.price).toBe(on);
  });

  it('property: a candle leg spans its lower and higher end (moved one tick in under through)', () => {
    fc.assert(
      fc.property(fc.array(price, { minLength: 4, maxLength: 4 }), fc.constantFrom('through' as const, 'at' as const), (ps, touch) => {
        const [open, a, b, close] = ps as [Decimal, Decimal, Decimal, Decimal];
        const candle = { open, high: Decimal.max(open, a, b, close), low: Decimal.min(open, a, b, close) };
        const tick = dec('0.01');
        const legs = candleLegs(candle, close, tick, touch);
        const path = [legs[0]?.at, ...legs.slice(1).map((l) => l.at)] as Decimal[];
        legs.forEach((leg, i) => {
          const from = i === 0 ? (path[0] as Decimal) : (path[i - 1] as Decimal);
          const to = path[i] as Decimal;
          const lo = Decimal.min(from, to);
          const hi = Decimal.max(from, to);
          expect(leg.low.toFixed()).toBe((touch === 'at' ? lo : lo.plus(tick)).toFixed());
          expect(leg.high.toFixed()).toBe((touch === 'at' ? hi : hi.minus(tick)).toFixed());
          expect(leg.jumped).toBe(false);
        });
      }),
      { numRuns: 500 },
    );
  });
});
