import { describe, expect, it } from 'vitest';
import { dec, decFromJsonNumber, isMultipleOf, roundToTick, sum, toWire, truncateToStep, tryDec } from '../../../src/core/decimal.js';

describe('decimal helpers', () => {
  it('parses plain decimal strings exactly and refuses anything else', () => {
    expect(toWire(dec('0.1').plus(dec('0.2')))).toBe('0.3');
    expect(toWire(dec('123456789012345678901234567890.123456789'))).toBe('123456789012345678901234567890.123456789');
    for (const bad of ['', '1e5', ' 1', '1.', '.5', 'NaN', '0x10', '1,5']) {
      expect(() => dec(bad)).toThrow(RangeError);
      expect(tryDec(bad)).toBeUndefined();
    }
    expect(tryDec(5)).toBeUndefined();
  });

  it('never writes exponent notation', () => {
    expect(toWire(dec('0.00000000000000000001'))).toBe('0.00000000000000000001');
    expect(toWire(dec('100000000000000000000000000'))).toBe('100000000000000000000000000');
    expect(toWire(decFromJsonNumber(1e-7))).toBe('0.0000001');
  });

  it('truncates amounts to the step and rounds prices by side', () => {
    expect(toWire(truncateToStep(dec('1.23456'), dec('0.001')))).toBe('1.234');
    expect(toWire(truncateToStep(dec('0.0009'), dec('0.001')))).toBe('0');
    expect(toWire(roundToTick(dec('100.057'), dec('0.01'), 'buy'))).toBe('100.05');
    expect(toWire(roundToTick(dec('100.051'), dec('0.01'), 'sell'))).toBe('100.06');
    expect(toWire(roundToTick(dec('100.05'), dec('0.01'), 'sell'))).toBe('100.05');
    expect(isMultipleOf(dec('1.25'), dec('0.05'))).toBe(true);
    expect(isMultipleOf(dec('1.26'), dec('0.05'))).toBe(false);
    expect(toWire(sum([dec('0.1'), dec('0.2'), dec('-0.3')]))).toBe('0');
  });
});
