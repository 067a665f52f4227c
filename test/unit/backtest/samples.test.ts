/**
 * The run's samples kept compactly give back every value exactly, and the equity figures taken
 * point by point (EquityCurve) are the definitions' own: the running-peak drawdown and the daily
 * closes, computed here the plain way over the whole series.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Decimal } from '../../../src/core/decimal.js';
import { byValue, keptIndexes } from '../../../src/backtest/downsample.js';
import { EquityCurve } from '../../../src/backtest/metrics.js';
import { DecimalColumn, Samples } from '../../../src/backtest/samples.js';

const DAY = 86_400_000;

/** Decimals of every shape a run meets: prices with a few places, equities with many, zero, negatives. */
const decimal = fc.oneof(
  fc.tuple(fc.integer({ min: 0, max: 99_999_999 }), fc.integer({ min: 0, max: 8 })).map(([n, dp]) => new Decimal(n).div(10 ** dp)),
  fc.tuple(fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }), fc.integer({ min: 0, max: 20 })).map(([n, dp]) => new Decimal(n.toString()).div(new Decimal(10).pow(dp))),
  // 1 to 20 significant digits at every magnitude around where a double's text takes an exponent.
  fc
    .tuple(fc.integer({ min: 1, max: 20 }), fc.bigInt({ min: 1n, max: 10n ** 20n }), fc.integer({ min: -30, max: 30 }), fc.boolean())
    .map(([digits, m, e, neg]) => new Decimal(`${neg ? '-' : ''}${String(m).slice(0, digits)}e${e}`)),
  fc.tuple(fc.integer({ min: 1, max: 20 }), fc.integer({ min: -8, max: 22 })).map(([digits, e]) => new Decimal(`${'9'.repeat(digits)}e${e - digits + 1}`)),
  fc.constantFrom(new Decimal(0), new Decimal('-0'), new Decimal('0.1'), new Decimal('1e-9'), new Decimal('123456789012345678.9')),
);

/** The drawdown by its definition: the largest (running peak − equity) / peak while the peak is above zero, at most 1. */
function plainDrawdown(values: Decimal[]): Decimal {
  let peak: Decimal | null = null;
  let worst = new Decimal(0);
  for (const v of values) {
    if (peak === null || v.gt(peak)) peak = v;
    if (peak.gt(0)) worst = Decimal.max(worst, Decimal.min(peak.minus(v).div(peak), 1));
  }
  return worst;
}

/** The daily closes by their definition: the first point, then each UTC day's last point (the first point not twice). */
function plainCloses(points: Array<{ t: number; v: Decimal }>): Decimal[] {
  const out = points.length === 0 ? [] : [(points[0] as { v: Decimal }).v];
  points.forEach((p, i) => {
    const next = points[i + 1];
    if (i > 0 && (next === undefined || Math.floor(next.t / DAY) !== Math.floor(p.t / DAY))) out.push(p.v);
  });
  return out;
}

describe('DecimalColumn', () => {
  it('gives back each value exactly, kept as a number or as its text', () => {
    fc.assert(
      fc.property(fc.array(decimal, { maxLength: 3000 }), (values) => {
        const column = new DecimalColumn();
        for (const v of values) column.push(v);
        expect(column.length).toBe(values.length);
        values.forEach((v, i) => {
          expect(column.at(i).eq(v)).toBe(true);
          expect(column.at(i).toFixed()).toBe(v.toFixed());
          expect(column.at(i).toNumber()).toBe(v.toNumber());
        });
        expect(column.last()?.toFixed()).toBe(values.at(-1)?.toFixed());
      }),
      { numRuns: 60 },
    );
  });
});

describe('Samples', () => {
  it('keeps each step\'s time, equity and the price of every market', () => {
    const s = new Samples(['A_B', 'C_D']);
    const prices: Record<string, string> = { A_B: '1.5', C_D: '0.000000012345678901234567' };
    s.push(1000, new Decimal('10.123456789012345678'), (m) => new Decimal(prices[m] as string));
    s.push(2000, new Decimal('9'), (m) => new Decimal(prices[m] as string).mul(2));
    expect([s.length, s.timeAt(0), s.timeAt(1)]).toEqual([2, 1000, 2000]);
    expect([s.equity.at(0).toFixed(), s.equity.at(1).toFixed()]).toEqual(['10.123456789012345678', '9']);
    expect(s.prices.get('C_D')?.at(1).toFixed()).toBe('0.000000024691357802469134');
    expect(s.prices.get('A_B')?.last()?.toFixed()).toBe('3');
  });
});

describe('EquityCurve', () => {
  it('takes the drawdown and the daily closes point by point as the definitions do over the whole series', () => {
    const step = fc.tuple(fc.integer({ min: 0, max: DAY / 2 }), fc.integer({ min: -2000, max: 2000 }));
    fc.assert(
      fc.property(fc.integer({ min: -500, max: 5000 }), fc.array(step, { maxLength: 200 }), (start, steps) => {
        let t = 3 * DAY - 1;
        let v = start;
        const points = steps.map(([dt, dv]) => ({ t: (t += dt), v: new Decimal((v += dv)).div(7) }));
        const curve = new EquityCurve();
        for (const p of points) curve.add(p.t, p.v);
        expect(curve.maxDrawdown().eq(plainDrawdown(points.map((p) => p.v)))).toBe(true);
        expect(curve.dailyCloses().map((d) => d.toFixed())).toEqual(plainCloses(points).map((d) => d.toFixed()));
      }),
      { numRuns: 300 },
    );
  });
});

describe('DecimalColumn.compare', () => {
  it('property: orders any two values as their Decimals do, and thins a column as the Decimals would be', () => {
    // Near neighbours too: values one unit of their last place apart, where a double could tie them.
    const near = fc.tuple(decimal, fc.integer({ min: -2, max: 2 }), fc.integer({ min: 0, max: 18 })).map(([d, k, dp]) => d.plus(new Decimal(k).div(new Decimal(10).pow(dp))));
    fc.assert(
      fc.property(fc.array(fc.oneof(decimal, near), { minLength: 1, maxLength: 400 }), fc.integer({ min: 2, max: 40 }), (values, max) => {
        const column = new DecimalColumn();
        for (const v of values) column.push(v);
        for (let i = 0; i < values.length; i++) {
          const j = (i * 7 + 3) % values.length;
          expect(Math.sign(column.compare(i, j))).toBe((values[i] as Decimal).cmp(values[j] as Decimal));
        }
        const fast = keptIndexes(values.length, max, (i, j) => column.compare(i, j));
        expect(fast).toEqual(keptIndexes(values.length, max, byValue((i) => values[i] as Decimal)));
      }),
      { numRuns: 300 },
    );
  });
});

describe('keptIndexes', () => {
  it('keeps the first and last point and each bucket\'s lowest and highest, earliest on ties', () => {
    const values = [5, 1, 9, 9, 1, 3, 7, 2, 8, 4].map((n) => new Decimal(n));
    // 8 inner points in 2 buckets of 4: [1..4] lowest 1 at 1, highest 9 at 2; [5..8] lowest 2 at 7, highest 8 at 8.
    expect(keptIndexes(values.length, 6, byValue((i) => values[i] as Decimal))).toEqual([0, 1, 2, 7, 8, 9]);
    expect(keptIndexes(3, 6, byValue(() => new Decimal(0)))).toEqual([0, 1, 2]);
  });
});
