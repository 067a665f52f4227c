/**
 * A book's value over a stretch of steps between two fills (curve-steps.ts): exact when asked
 * (`start` + cash + each open position at the step's price, in the order the book lists its
 * markets), and estimated in doubles with a bound on the estimate's error, so that most steps
 * that cannot move the curve's figures are never worked out in decimals.
 */
import type { Decimal } from '../core/decimal.js';
import type { Estimate, Stretch } from './curve-steps.js';
import type { DecimalColumn } from './samples.js';

/**
 * A generous bound on the relative error one double operation (or reading a decimal as the
 * nearest double) adds: 8 × 2⁻⁵³. The bounds below sum such terms over the inputs and results.
 */
export const OP_ERR = 2 ** -50;

/** A double tracking an exact sum, and a bound on how far it may be from it. */
export interface Near {
  value: number;
  err: number;
}

/** `near` moved by `delta` (a double whose own error is in `deltaErr`): the sum's error grows by the rounding. */
export function addNear(near: Near, delta: number, deltaErr: number): void {
  const before = near.value;
  near.value = before + delta;
  near.err += deltaErr + OP_ERR * (Math.abs(before) + Math.abs(delta) + Math.abs(near.value));
}

/** A position open over the stretch: its market's sampled prices (none: valued at zero), its exact size and its double. */
export interface OpenPosition {
  column: DecimalColumn | undefined;
  size: Decimal;
  near: number;
  nearErr: number;
}

/**
 * The stretch of a book whose value is `start` + `cash` + the positions at each step's price.
 * `startNear` is the double nearest `start`; `cashNear` tracks `cash`. The values' order is the
 * one market's price order (times the position's sign) with one position open, none with none
 * (the value does not move), unknown with several.
 */
export function bookStretch(start: Decimal, startNear: number, cash: Decimal, cashNear: Near, open: readonly OpenPosition[]): Stretch {
  let base: Decimal | undefined;
  const valueAt = (i: number): Decimal => {
    base ??= start.plus(cash);
    let value = base;
    for (const o of open) value = value.plus(o.size.mul(o.column?.at(i) ?? 0));
    return value;
  };
  const cashValue = cashNear.value;
  const cashErr = cashNear.err;
  const estimate = (i: number, out: Estimate): void => {
    let value = startNear + cashValue;
    let err = OP_ERR * Math.abs(startNear) + cashErr;
    let size = Math.abs(startNear) + Math.abs(cashValue);
    for (const o of open) {
      if (o.column === undefined) continue;
      const x = o.column.numberAt(i);
      const term = o.near * x;
      err += Math.abs(x) * o.nearErr + OP_ERR * Math.abs(term);
      size += Math.abs(term);
      value += term;
    }
    out.value = value;
    // Every rounding of the sum is within OP_ERR of the largest partial sum, at most the sum of sizes.
    out.bound = 2 * (err + OP_ERR * (size + Math.abs(value)) * (open.length + 2));
  };
  const ordered = open.length === 1 && open[0]?.column !== undefined;
  const first = open[0];
  if (open.length === 0 || (open.length === 1 && first?.column === undefined)) return { valueAt, column: undefined, sign: 0, estimate };
  if (ordered && first !== undefined) return { valueAt, column: first.column, sign: first.size.isNeg() ? -1 : 1, estimate };
  return { valueAt, column: undefined, sign: 1, estimate };
}
