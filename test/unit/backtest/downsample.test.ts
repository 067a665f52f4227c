/**
 * Downsampling keeps the first and last point and every bucket's extremes, so a drawdown's bottom
 * survives; it is deterministic and never longer than asked.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Decimal } from '../../../src/core/decimal.js';
import { byValue, downsampleEquity, downsamplePrices, keptIndexes, keptNumberIndexes } from '../../../src/backtest/downsample.js';
import { DecimalColumn } from '../../../src/backtest/samples.js';
import { maxDrawdown } from '../../../src/backtest/metrics.js';
import type { EquityPoint } from '../../../src/backtest/result.js';

const series = (values: number[]): EquityPoint[] => values.map((v, i) => ({ timeMs: i * 60_000, equity: String(v) }));

describe('downsample', () => {
  it('returns a short series unchanged and refuses a max below 2', () => {
    const s = series([1, 2, 3]);
    expect(downsampleEquity(s, 3)).toEqual(s);
    expect(() => downsampleEquity(s, 1)).toThrow(/max must be an integer ≥ 2/);
  });

  it('keeps a one-point dip that every-n-th sampling would drop', () => {
    const values = Array.from({ length: 1000 }, (_, i) => 100 + (i % 7));
    values[503] = 10;
    const out = downsampleEquity(series(values), 20);
    expect(out.length).toBeLessThanOrEqual(20);
    expect(out.some((p) => p.equity === '10')).toBe(true);
    expect(maxDrawdown(out).toFixed()).toBe(maxDrawdown(series(values)).toFixed());
  });

  it('keeps first and last, global extremes, time order, at most max points; same input → same output', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 10_000 }), { minLength: 1, maxLength: 400 }), fc.integer({ min: 2, max: 60 }), (values, max) => {
        const s = values.map((v, i) => ({ timeMs: i, price: new Decimal(v).div(100).toFixed() }));
        const out = downsamplePrices(s, max);
        expect(out.length).toBeLessThanOrEqual(Math.max(max, 0));
        expect(out[0]).toBe(s[0]);
        expect(out[out.length - 1]).toBe(s[s.length - 1]);
        for (let i = 1; i < out.length; i++) expect((out[i]?.timeMs ?? 0) > (out[i - 1]?.timeMs ?? 0)).toBe(true);
        if (max >= 4) {
          const nums = values.map((v) => v);
          expect(out.some((p) => p.price === new Decimal(Math.min(...nums)).div(100).toFixed())).toBe(true);
          expect(out.some((p) => p.price === new Decimal(Math.max(...nums)).div(100).toFixed())).toBe(true);
        }
        expect(downsamplePrices(s, max)).toEqual(out);
      }),
    );
  });

  it('property: a column held as numbers keeps the indexes its decimals keep (keptNumberIndexes)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.integer({ min: -50, max: 50 }).map((n) => new Decimal(n).div(4)), fc.constantFrom(new Decimal('-0'), new Decimal('0.1'), new Decimal('1e-7'))), { maxLength: 400 }),
        fc.integer({ min: 2, max: 40 }),
        (values, max) => {
          const column = new DecimalColumn();
          for (const v of values) column.push(v);
          const numbers = column.numbers();
          expect(numbers).toBeDefined();
          expect(keptNumberIndexes(numbers as Float64Array, max)).toEqual(keptIndexes(values.length, max, byValue((i) => values[i] as Decimal)));
        },
      ),
      { numRuns: 300 },
    );
    const withText = new DecimalColumn();
    withText.push(new Decimal('0.12345678901234567891'));
    expect(withText.numbers()).toBeUndefined();
  });
});
