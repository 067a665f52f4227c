/**
 * The Decimal class fixed for a thread that runs strategies (src/strategy-api/sandbox/freeze-decimal.ts):
 * it still makes and computes decimals as before, and refuses every change of its settings, its
 * `prototype` link, its methods, and any new property on its prototype (`Symbol.toPrimitive` would
 * change how every decimal in the engine coerces).
 */
import { describe, expect, it } from 'vitest';
import { Decimal, ZERO } from '../../../src/core/decimal.js';
import { freezeDecimal } from '../../../src/strategy-api/sandbox/freeze-decimal.js';

describe('the fixed Decimal class', () => {
  it('computes as before and refuses a change of its settings, prototype or methods', () => {
    const before = [new Decimal(1).div(3).toFixed(), new Decimal('2.5').toDecimalPlaces(0).toFixed(), ZERO.plus('0.1').toFixed()];
    freezeDecimal();
    expect([new Decimal(1).div(3).toFixed(), new Decimal('2.5').toDecimalPlaces(0).toFixed(), ZERO.plus('0.1').toFixed()]).toEqual(before);
    expect(before[1]).toBe('2');
    const anyDecimal = Decimal as unknown as Record<string, unknown> & { set(o: object): void };
    const proto = Decimal.prototype as unknown as Record<PropertyKey, unknown>;
    const first = proto['constructor'] as unknown as Record<string, unknown> & { set(o: object): void };
    expect(() => anyDecimal.set({ precision: 5 })).toThrow(TypeError);
    expect(() => first.set({ precision: 5 })).toThrow(TypeError);
    expect(() => (anyDecimal['prototype'] = {})).toThrow(TypeError);
    expect(() => (proto['plus'] = () => 0)).toThrow(TypeError);
    expect(() => delete proto['toFixed']).toThrow(TypeError);
    expect(() => (proto['extra'] = 1)).toThrow(TypeError);
    expect(() => Object.defineProperty(proto, Symbol.toPrimitive, { value: () => 0 })).toThrow(TypeError);
    expect(() => ((proto['plus'] as Record<string, unknown>)['x'] = 1)).toThrow(TypeError);
    expect(Decimal.precision).toBe(60);
  });
});
