/**
 * A price row's decimals are built straight from their cells (src/backtest/plain-row.ts
 * `decimalOfPlain`): each must be the very Decimal decimal.js reads from the same text, its sign,
 * exponent and digit words alike (so every later sum, product, comparison and printed string is
 * the same), for any plain cell: leading and trailing zeros, zero itself, values below one, long
 * fractions, every position of the first digit within decimal.js's words of seven.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Decimal } from '../../../src/core/decimal.js';
import { decimalOfPlain } from '../../../src/backtest/plain-row.js';
import { isPlain } from '../../../src/backtest/price-check.js';

function same(cell: string): void {
  const fast = decimalOfPlain(cell);
  const full = new Decimal(cell);
  expect({ s: fast.s, e: fast.e, d: fast.d }, cell).toEqual({ s: full.s, e: full.e, d: full.d });
  expect(fast.toFixed()).toBe(full.toFixed());
  expect(fast.plus('0.001').mul(3).toFixed()).toBe(full.plus('0.001').mul(3).toFixed());
}

const digits = (min: number, max: number): fc.Arbitrary<string> => fc.array(fc.constantFrom(...'0123456789'), { minLength: min, maxLength: max }).map((a) => a.join(''));

describe('decimalOfPlain', () => {
  it('reads the cells of a price file as decimal.js does', () => {
    for (const cell of ['59966.57', '0.4015', '2.453', '0', '0.0', '000', '00.000100', '1', '10', '1000000', '10000000', '1234567.1234567', '0.0000001', '0.00000001', '9999999999999.9999999999', '60000.50']) same(cell);
  });

  it('property: any plain cell, whatever its zeros and length, gives decimal.js\'s Decimal', () => {
    const cell = fc.oneof(
      digits(1, 30),
      fc.tuple(digits(1, 25), digits(1, 25)).map(([i, f]) => `${i}.${f}`),
      fc.tuple(fc.nat(12), digits(1, 20), fc.nat(12)).map(([z, m, t]) => `0.${'0'.repeat(z)}${m}${'0'.repeat(t)}`),
      fc.tuple(digits(1, 20), fc.nat(15)).map(([m, t]) => `${m}${'0'.repeat(t)}`),
    );
    fc.assert(
      fc.property(cell, (c) => {
        expect(isPlain(c)).toBe(true);
        same(c);
      }),
      { numRuns: 3000 },
    );
  });
});
