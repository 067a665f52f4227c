/** Decimals of stored rows parsed once per recent string: same values as `dec`, same refusals, bounded. */
import { describe, expect, it } from 'vitest';
import { dec } from '../../../src/core/decimal.js';
import { MAX_CACHED_DECIMALS, cachedDecimalCount, storedDecimal } from '../../../src/store/stored-decimal.js';

describe('storedDecimal', () => {
  it('gives the value dec gives, the same instance for a string seen before', () => {
    for (const s of ['0', '-0.5', '123.4500', '0.00000001']) {
      expect(storedDecimal(s).eq(dec(s))).toBe(true);
      expect(storedDecimal(s).toFixed()).toBe(dec(s).toFixed());
      expect(storedDecimal(s)).toBe(storedDecimal(s));
    }
  });

  it('refuses what dec refuses, every time, and keeps nothing of it', () => {
    const before = cachedDecimalCount();
    for (let i = 0; i < 2; i++) {
      expect(() => storedDecimal('1e5')).toThrow(RangeError);
      expect(() => storedDecimal('')).toThrow(RangeError);
    }
    expect(cachedDecimalCount()).toBe(before);
  });

  it('stays bounded: past the bound it starts over', () => {
    for (let i = 0; i < MAX_CACHED_DECIMALS + 10; i++) storedDecimal(`${i}.25`);
    expect(cachedDecimalCount()).toBeLessThanOrEqual(MAX_CACHED_DECIMALS);
    expect(storedDecimal('7.25').toFixed()).toBe('7.25');
  });
});
