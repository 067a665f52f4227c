/**
 * The author API's indicators (trading-signals behind a Decimal boundary): values against a
 * reference computed here in Decimal, streaming equals one-shot, Decimals in and out, frozen
 * wrappers, clear errors for bad periods and inputs.
 */
import { describe, expect, it } from 'vitest';
import { Decimal, indicators } from '../../../src/strategy-api/index.js';

const closes = ['100', '101.5', '99.25', '102', '103.75', '101', '104.5', '106', '105.25', '107', '108.5', '107.75', '109', '110.25', '111'].map((s) => new Decimal(s));

/** EMA in Decimal, seeded with the first value (as the library does): the exact reference. */
function emaReference(values: readonly Decimal[], n: number): Decimal {
  const k = new Decimal(2).div(n + 1);
  let ema = values[0] as Decimal;
  for (const v of values.slice(1)) ema = v.mul(k).plus(ema.mul(new Decimal(1).minus(k)));
  return ema;
}

/** Wilder's RSI in Decimal: the first average is the mean of the first n moves. */
function rsiReference(values: readonly Decimal[], n: number): Decimal {
  const moves = values.slice(1).map((v, i) => v.minus(values[i] as Decimal));
  let gain = new Decimal(0);
  let loss = new Decimal(0);
  moves.forEach((m, i) => {
    const g = Decimal.max(m, 0);
    const l = Decimal.max(m.neg(), 0);
    if (i < n) {
      gain = gain.plus(g.div(n));
      loss = loss.plus(l.div(n));
    } else {
      gain = gain.mul(n - 1).plus(g).div(n);
      loss = loss.mul(n - 1).plus(l).div(n);
    }
  });
  return loss.isZero() ? new Decimal(100) : new Decimal(100).minus(new Decimal(100).div(gain.div(loss).plus(1)));
}

const close = (a: Decimal | undefined, b: Decimal, digits = 10): void => {
  expect(a).toBeDefined();
  expect(a?.minus(b).abs().lt(new Decimal(10).pow(-digits))).toBe(true);
};

describe('indicators', () => {
  it('an EMA and an RSI over a series of closes, in a line each, match a Decimal reference', () => {
    const ema = indicators.ema(5).over(closes);
    const rsi = indicators.rsi(5).over(closes);
    expect(Decimal.isDecimal(ema)).toBe(true);
    expect(Decimal.isDecimal(rsi)).toBe(true);
    close(ema, emaReference(closes, 5));
    close(rsi, rsiReference(closes, 5));
    close(indicators.sma(4).over(closes), closes.slice(-4).reduce((s, v) => s.plus(v), new Decimal(0)).div(4), 12);
  });

  it('has no value until it has seen enough inputs', () => {
    const ema = indicators.ema(5);
    const seen = closes.slice(0, 5).map((c) => ema.update(c));
    expect(seen.slice(0, 4)).toEqual([undefined, undefined, undefined, undefined]);
    expect(seen[4]).toBeDefined();
    expect(ema.ready).toBe(true);
    expect(ema.count).toBe(5);
    const rsi = indicators.rsi(5);
    expect(rsi.over(closes.slice(0, 5))).toBeUndefined();
    expect(rsi.update(closes[5] as Decimal)).toBeDefined();
  });

  it('updating one value at a time gives the same value as the whole series (no recomputed window)', () => {
    const streaming = indicators.macd({ fast: 3, slow: 6, signal: 3 });
    let last;
    for (const c of closes) last = streaming.update(c);
    const whole = indicators.macd({ fast: 3, slow: 6, signal: 3 }).over(closes);
    expect(last?.macd.toFixed()).toBe(whole?.macd.toFixed());
    expect(last?.histogram.toFixed()).toBe(whole?.histogram.toFixed());
    expect(Decimal.isDecimal(whole?.signal)).toBe(true);
  });

  it('bands and the ATR come back as Decimals, in order', () => {
    const bands = indicators.bollinger(5, 2).over(closes);
    expect(bands?.lower.lt(bands.middle) && bands.middle.lt(bands.upper)).toBe(true);
    close(bands?.middle, closes.slice(-5).reduce((s, v) => s.plus(v), new Decimal(0)).div(5), 10);
    const bars = closes.map((c) => ({ high: c.plus(1), low: c.minus(1), close: c }));
    const atr = indicators.atr(3).over(bars);
    expect(atr?.gt(0)).toBe(true);
  });

  it('refuses a bad period or a non-Decimal input with a clear error', () => {
    expect(() => indicators.ema(0)).toThrow('ema period must be an integer from 1 to 100000, got 0');
    expect(() => indicators.rsi(2.5)).toThrow(RangeError);
    expect(() => indicators.sma(3).update(101 as unknown as Decimal)).toThrow('indicator input must be a Decimal, got number');
    expect(() => indicators.sma(3).update(new Decimal('1e400'))).toThrow('indicator input out of range');
  });

  it('the wrappers are frozen: a strategy cannot replace a method or the namespace', () => {
    const ema = indicators.ema(3);
    expect(Object.isFrozen(indicators)).toBe(true);
    expect(Object.isFrozen(indicators.ema)).toBe(true);
    expect(Object.isFrozen(ema)).toBe(true);
    expect(Object.isFrozen(Object.getPrototypeOf(ema))).toBe(true);
    expect(() => {
      (Object.getPrototypeOf(ema) as { update: unknown }).update = () => 0;
    }).toThrow(TypeError);
    expect(Object.keys(ema)).toEqual([]);
  });
});
