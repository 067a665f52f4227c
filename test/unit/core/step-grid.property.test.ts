/**
 * `isMultipleOf`, `truncateToStep` and `roundToTick` decide by decimal places where they can (more
 * places than the step: no multiple; a step of 10^-k and no more places: a multiple, given back
 * as it is) and divide otherwise. They must answer exactly as the division does
 * (`value.mod(step).isZero()`, `floor`/`ceil` of `value / step` times `step`) for any value and
 * step: powers of ten and other steps, negatives, zeros, integers, many places, and values that
 * are not finite.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Decimal, isMultipleOf, roundToTick, toWire, truncateToStep } from '../../../src/core/decimal.js';

/** A decimal of up to 18 digits with 0..12 places, either sign. */
const decimal = fc
  .record({ digits: fc.bigInt({ min: -(10n ** 18n), max: 10n ** 18n }), places: fc.integer({ min: 0, max: 12 }) })
  .map(({ digits, places }) => new Decimal(digits.toString()).div(new Decimal(10).pow(places)));

/** Steps as markets have them (0.01, 0.5, 25, 1e-8) and any other decimal. */
const step = fc.oneof(
  fc.integer({ min: -3, max: 30 }).map((k) => new Decimal(10).pow(-k)),
  fc.record({ m: fc.constantFrom(1, 2, 5, 25, 3, 7), k: fc.integer({ min: -2, max: 10 }) }).map(({ m, k }) => new Decimal(m).mul(new Decimal(10).pow(-k))),
  decimal,
  fc.constant(new Decimal(0)),
  fc.constant(new Decimal('-0.01')),
);

/**
 * Values with many significant digits: a quotient (60, as an amount computed from a quote is) and
 * digits read from text, up to 70 of them (beyond the precision, where the division rounds).
 */
const manyDigits = fc.oneof(
  fc.tuple(decimal, decimal.filter((d) => !d.isZero())).map(([a, b]) => a.div(b)),
  fc
    .record({ digits: fc.array(fc.integer({ min: 0, max: 9 }), { minLength: 1, maxLength: 70 }), point: fc.nat(70), neg: fc.boolean() })
    .map(({ digits, point, neg }) => {
      const text = digits.join('');
      const at = Math.min(point, text.length - 1);
      return new Decimal(`${neg ? '-' : ''}${text.slice(0, at + 1)}.${text.slice(at + 1) || '0'}`);
    }),
);

/** Values near a step's multiples, so that both answers come up. */
const valueFor = (s: Decimal): fc.Arbitrary<Decimal> =>
  fc.oneof(
    fc.bigInt({ min: -(10n ** 12n), max: 10n ** 12n }).map((n) => s.mul(n.toString())),
    fc.tuple(fc.bigInt({ min: -(10n ** 12n), max: 10n ** 12n }), decimal).map(([n, d]) => s.mul(n.toString()).plus(d.div(1e6))),
    decimal,
    manyDigits,
    fc.constantFrom(new Decimal(0), new Decimal(-0), new Decimal(Infinity), new Decimal(-Infinity), new Decimal(NaN)),
  );

describe('isMultipleOf', () => {
  it('property: answers as the remainder of the division does', () => {
    fc.assert(
      fc.property(step.chain((s) => fc.tuple(fc.constant(s), valueFor(s))), ([s, v]) => {
        expect(isMultipleOf(v, s)).toBe(v.mod(s).isZero());
      }),
      { numRuns: 5000 },
    );
  });

  it('property: truncates and rounds to the step as the division does, to the last digit and sign', () => {
    const positive = step.filter((s) => s.isFinite() && s.gt(0));
    fc.assert(
      fc.property(positive.chain((s) => fc.tuple(fc.constant(s), valueFor(s))), ([s, v]) => {
        const q = v.div(s);
        const same = (a: Decimal, b: Decimal): boolean => (a.isNaN() && b.isNaN()) || (toWire(a) === toWire(b) && a.isNeg() === b.isNeg());
        expect(same(truncateToStep(v, s), q.floor().mul(s))).toBe(true);
        expect(same(roundToTick(v, s, 'buy'), q.floor().mul(s))).toBe(true);
        expect(same(roundToTick(v, s, 'sell'), q.ceil().mul(s))).toBe(true);
      }),
      { numRuns: 5000 },
    );
  });

  it('decides a tick of a power of ten by places, and other steps by the remainder', () => {
    expect(isMultipleOf(new Decimal('42000.01'), new Decimal('0.01'))).toBe(true);
    expect(isMultipleOf(new Decimal('42000.001'), new Decimal('0.01'))).toBe(false);
    expect(isMultipleOf(new Decimal('-3'), new Decimal('1'))).toBe(true);
    expect(isMultipleOf(new Decimal('1.5'), new Decimal('0.5'))).toBe(true);
    expect(isMultipleOf(new Decimal('1.2'), new Decimal('0.5'))).toBe(false);
    expect(isMultipleOf(new Decimal('150'), new Decimal('100'))).toBe(false);
    expect(isMultipleOf(new Decimal(Infinity), new Decimal('0.01'))).toBe(false);
    expect(isMultipleOf(new Decimal('1'), new Decimal(0))).toBe(false);
    const onTick = new Decimal('42000.5');
    expect(roundToTick(onTick, new Decimal('0.01'), 'sell')).toBe(onTick);
    expect(toWire(roundToTick(new Decimal('42000.505'), new Decimal('0.01'), 'sell'))).toBe('42000.51');
    expect(toWire(truncateToStep(new Decimal('0.0012399'), new Decimal('0.00001')))).toBe('0.00123');
    // 70 nines: the 60-digit quotient rounds up to 1, and so does the answer; 60 nines are cut.
    expect(toWire(truncateToStep(new Decimal(`0.${'9'.repeat(70)}`), new Decimal('1')))).toBe('1');
    expect(toWire(truncateToStep(new Decimal(`0.${'9'.repeat(60)}`), new Decimal('1')))).toBe('0');
    expect(truncateToStep(new Decimal('-0.001'), new Decimal('1')).isNeg()).toBe(true);
    expect(roundToTick(new Decimal('-0.001'), new Decimal('1'), 'sell').isNeg()).toBe(true);
  });
});
