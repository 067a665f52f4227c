/**
 * The dashboard's display forms (src/web/browser/format.ts, browser code with no DOM): decimal
 * strings rounded as strings to a market's places, times in UTC with the date.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Decimal } from '../../../src/core/decimal.js';
import { placesOf, Precision, roundDecimal, signClass, utcTime } from '../../../src/web/browser/format.js';

describe('roundDecimal', () => {
  it('rounds half away from zero to exactly the places asked, carrying through nines', () => {
    expect(roundDecimal('39628.291123', 2)).toBe('39628.29');
    expect(roundDecimal('0.995', 2)).toBe('1.00');
    expect(roundDecimal('-1.005', 2)).toBe('-1.01');
    expect(roundDecimal('9.96', 1)).toBe('10.0');
    expect(roundDecimal('2.5', 0)).toBe('3');
    expect(roundDecimal('0.001', 6)).toBe('0.001000');
    expect(roundDecimal('-0.0049', 2)).toBe('0.00');
    expect(roundDecimal('12', 2)).toBe('12.00');
    expect(roundDecimal('1e-7', 2)).toBe('1e-7');
  });

  it('agrees with decimal.js rounding half up for any value and places', () => {
    const value = fc.tuple(fc.bigInt({ min: -(10n ** 12n), max: 10n ** 12n }), fc.integer({ min: 0, max: 8 }));
    fc.assert(
      fc.property(value, fc.integer({ min: 0, max: 8 }), ([units, scale], places) => {
        const text = new Decimal(units.toString()).div(new Decimal(10).pow(scale)).toFixed(scale);
        const want = new Decimal(text).toDecimalPlaces(places, Decimal.ROUND_HALF_UP).toFixed(places);
        expect(roundDecimal(text, places)).toBe(want.startsWith('-') && !/[1-9]/.test(want) ? want.slice(1) : want);
      }),
    );
  });
});

describe('Precision', () => {
  const p = new Precision({ BTC_USDT: { tick: '0.01', step: '0.000001' }, BTC_PERP: { tick: '0.1', step: '0.0001' } });

  it("shows prices at the market's tick, amounts at its step, money at the finest tick", () => {
    expect(p.price('BTC_PERP', '59932.34')).toBe('59932.3');
    expect(p.price('BTC_USDT', '59932.3')).toBe('59932.30');
    expect(p.amount('BTC_USDT', '0.001')).toBe('0.001000');
    expect(p.amount('BTC_PERP', '-0.00104')).toBe('-0.0010');
    expect(p.money('39628.291123')).toBe('39628.29');
    expect(p.money(null)).toBe('-');
  });

  it("shows a fee paid in the base at the step's places and leaves an unknown market's figures exact", () => {
    expect(p.fee('BTC_USDT', 'USDT', 'USDT', '0.059957')).toBe('0.06');
    expect(p.fee('BTC_USDT', 'BTC', 'USDT', '0.00000123')).toBe('0.000001');
    expect(p.price('ETH_USDT', '1.23456')).toBe('1.23456');
  });

  it('reads the places of an increment', () => {
    expect([placesOf('0.01'), placesOf('0.000001'), placesOf('5'), placesOf('0.50')]).toEqual([2, 6, 0, 1]);
  });
});

describe('utcTime and signClass', () => {
  it('shows the date and the time in UTC', () => {
    expect(utcTime(Date.UTC(2026, 10, 24, 9, 40, 19, 500))).toBe('2026-11-24 09:40:19');
    expect(utcTime(null)).toBe('-');
  });

  it('marks a figure by its sign, zero unmarked', () => {
    expect([signClass('-0.1'), signClass('0.00'), signClass('3'), signClass(null)]).toEqual(['neg', '', 'pos', '']);
  });
});
