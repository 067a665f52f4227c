/**
 * Scales of the objective-per-param scatters, in exact decimals: a value becomes a pixel
 * coordinate only at the end, as the SVG attribute's text (one decimal place).
 */
import { Decimal } from '../../core/decimal.js';

export interface Box {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** A linear map from [lo, hi] onto [from, to] pixels; a single value sits in the middle. */
export interface Scale {
  lo: Decimal;
  hi: Decimal;
  at(v: Decimal): string;
}

export function pixel(v: Decimal): string {
  return v.toDecimalPlaces(1, Decimal.ROUND_HALF_EVEN).toFixed(1);
}

export function linearScale(values: readonly Decimal[], from: number, to: number): Scale {
  const lo = values.reduce((m, v) => Decimal.min(m, v), values[0] ?? new Decimal(0));
  const hi = values.reduce((m, v) => Decimal.max(m, v), values[0] ?? new Decimal(0));
  const span = hi.minus(lo);
  const a = new Decimal(from);
  const length = new Decimal(to).minus(from);
  return {
    lo,
    hi,
    at: (v) => pixel(span.isZero() ? a.plus(length.div(2)) : a.plus(v.minus(lo).div(span).mul(length))),
  };
}

/** Band centres for `count` categories across [from, to], and a band's width. */
export function bands(count: number, from: number, to: number): { centre(i: number): Decimal; width: Decimal } {
  const width = new Decimal(to).minus(from).div(Math.max(count, 1));
  return { width, centre: (i) => new Decimal(from).plus(width.mul(i).plus(width.div(2))) };
}

const GOLDEN = new Decimal('0.6180339887498949');

/**
 * A fixed offset in [-¼, ¼) of a band for the trial `index`, so many trials of one category do
 * not hide behind one dot; the same trial always lands at the same place.
 */
export function spread(index: number, width: Decimal): Decimal {
  return GOLDEN.mul(index).mod(1).minus('0.5').mul(width).div(2);
}
