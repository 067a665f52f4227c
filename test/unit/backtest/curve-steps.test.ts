/**
 * A curve fed through SteppedCurve (src/backtest/curve-steps.ts), which works out only the values
 * that can move its figures, has exactly the figures of the same curve fed every value: the
 * drawdown and every daily close. The stretches are a book's between fills (book-stretch.ts):
 * a start, a cash flow and no, one or two open positions, rising, falling or flat with the
 * price, with ties, values equal to the peak at a stretch's start, several steps a day and the
 * doubles' estimates in play. The account's curve (one stretch over its own column) too.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Decimal } from '../../../src/core/decimal.js';
import { bookStretch, OP_ERR, type OpenPosition } from '../../../src/backtest/book-stretch.js';
import { SteppedCurve } from '../../../src/backtest/curve-steps.js';
import { EquityCurve } from '../../../src/backtest/metrics.js';
import { Samples } from '../../../src/backtest/samples.js';

const HOUR = 3_600_000;
const MARKETS = ['A', 'B'];

/** A decimal from an integer and a number of places (prices and sizes as a run has them, and longer ones). */
const dec = (n: number | bigint, dp: number): Decimal => new Decimal(n.toString()).div(new Decimal(10).pow(dp));

const stretchArb = fc.record({
  steps: fc.integer({ min: 1, max: 30 }),
  cash: fc.tuple(fc.bigInt({ min: -(10n ** 14n), max: 10n ** 14n }), fc.integer({ min: 0, max: 10 })),
  sizes: fc.array(fc.tuple(fc.constantFrom(...MARKETS), fc.integer({ min: -3000, max: 3000 }), fc.integer({ min: 0, max: 6 })), { maxLength: 2 }),
});

function expectSame(got: EquityCurve, want: EquityCurve): void {
  expect(got.maxDrawdown().toFixed()).toBe(want.maxDrawdown().toFixed());
  expect(got.dailyCloses().map((d) => d.toFixed())).toEqual(want.dailyCloses().map((d) => d.toFixed()));
}

describe('SteppedCurve', () => {
  it('property: a book\'s stretches give the figures of every value added', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 95, max: 105 }), fc.integer({ min: 1, max: 3 })), { minLength: 1, maxLength: 200 }),
        fc.array(stretchArb, { minLength: 1, maxLength: 12 }),
        fc.integer({ min: 1, max: 30 }),
        (prices, stretches, hoursPerStep) => {
          const samples = new Samples(MARKETS);
          prices.forEach(([a, b], i) => samples.push(i * hoursPerStep * HOUR, new Decimal(0), (m) => (m === 'A' ? dec(a, 0) : dec(b * 1000 + a, 2))));
          const start = new Decimal('1000.5');
          const want = new EquityCurve();
          const got = new EquityCurve();
          const steps = new SteppedCurve(got);
          let i = 0;
          for (const s of stretches) {
            const cash = dec(s.cash[0], s.cash[1]);
            const open: OpenPosition[] = [...new Map(s.sizes.map(([m, n, dp]) => [m, dec(n, dp)])).entries()]
              .filter(([, size]) => !size.isZero())
              .map(([m, size]) => ({ column: samples.prices.get(m), size, near: size.toNumber(), nearErr: OP_ERR * Math.abs(size.toNumber()) }));
            const cashNear = { value: cash.toNumber(), err: OP_ERR * Math.abs(cash.toNumber()) };
            const stretch = bookStretch(start, start.toNumber(), cash, cashNear, open);
            steps.stretch(stretch);
            for (let k = 0; k < s.steps && i < samples.length; k++, i++) {
              let value = start.plus(cash);
              for (const o of open) value = value.plus(o.size.mul(o.column?.at(i) ?? 0));
              want.add(samples.timeAt(i), value);
              steps.add(i, samples.timeAt(i));
            }
          }
          expectSame(got, want);
        },
      ),
      { numRuns: 400 },
    );
  });

  it('property: the account\'s curve over its own column gives the figures of every value added', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -50, max: 50 }), { minLength: 1, maxLength: 300 }), fc.integer({ min: 1, max: 30 }), (moves, hoursPerStep) => {
        const samples = new Samples([]);
        let e = new Decimal('100.25');
        for (const [i, m] of moves.entries()) {
          e = e.plus(dec(m, 2));
          samples.push(i * hoursPerStep * HOUR, e, () => new Decimal(0));
        }
        const want = new EquityCurve();
        const got = new EquityCurve();
        const steps = new SteppedCurve(got);
        steps.stretch({ valueAt: (i) => samples.equity.at(i), column: samples.equity, sign: 1 });
        for (let i = 0; i < samples.length; i++) {
          want.add(samples.timeAt(i), samples.equity.at(i));
          steps.add(i, samples.timeAt(i));
        }
        expectSame(got, want);
      }),
      { numRuns: 300 },
    );
  });

  it('works out a stretch\'s first value when it may equal the peak (the estimate is never taken as sure at a tie)', () => {
    const samples = new Samples(['A']);
    for (let i = 0; i < 4; i++) samples.push(i * HOUR, new Decimal(0), () => new Decimal(100));
    const curve = new EquityCurve();
    const steps = new SteppedCurve(curve);
    const asked: number[] = [];
    const flat = (value: Decimal) => ({ valueAt: (i: number) => (asked.push(i), value), column: undefined, sign: 0, estimate: (_i: number, out: { value: number; bound: number }) => { out.value = value.toNumber(); out.bound = 0; } });
    steps.stretch(flat(new Decimal(10)));
    steps.add(0, 0);
    steps.add(1, HOUR);
    steps.stretch(flat(new Decimal(10)));
    steps.add(2, 2 * HOUR);
    steps.stretch(flat(new Decimal(9)));
    steps.add(3, 3 * HOUR);
    // The first value and the tie with the peak are worked out; the flat step after it is not; the new trough is.
    expect(asked).toEqual([0, 2, 3]);
    expect(curve.maxDrawdown().toFixed()).toBe('0.1');
  });

  it('does not take an estimate as sure when its error could hide a new peak (large amounts that cancel)', () => {
    const samples = new Samples([]);
    for (let i = 0; i < 4; i++) samples.push(i * HOUR, new Decimal(0), () => new Decimal(0));
    const start = new Decimal('-1e15');
    const curve = new EquityCurve();
    const steps = new SteppedCurve(curve);
    // Values 10.55, 10.4, 10.56 (a new peak), 9: the third's cash is 1e15 + 10.56, whose double is 1e15 + 10.5.
    for (const [i, rest] of ['10.55', '10.4', '10.56', '9'].entries()) {
      const cash = new Decimal('1e15').plus(rest);
      steps.stretch(bookStretch(start, start.toNumber(), cash, { value: cash.toNumber(), err: OP_ERR * cash.toNumber() }, []));
      steps.add(i, samples.timeAt(i));
    }
    expect(curve.maxDrawdown().toFixed()).toBe(new Decimal('10.56').minus(9).div('10.56').toFixed());
  });
});
