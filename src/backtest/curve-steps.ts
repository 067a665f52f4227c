/**
 * An equity curve fed every sampled step without working out most of the values. Between two
 * fills a book's value is a + p × price of its one open market (or a constant with none open), so
 * its values rise and fall with the price's (p > 0), against it (p < 0), or not at all: their
 * order is the sampled prices' order, which the sample columns compare as the numbers they hold
 * (DecimalColumn.compare, exact). A step whose value lies between the lowest and the highest of
 * its stretch so far (the lowest taken since the last peak) can set neither a new peak nor a new
 * trough: it is added inside (EquityCurve.addInside), its value worked out only if it closes a
 * day. The account's curve is its sampled equity column itself: one stretch of sign +1.
 */
import type { Decimal } from '../core/decimal.js';
import type { EquityCurve } from './metrics.js';
import type { DecimalColumn } from './samples.js';

export class SteppedCurve {
  /** The stretch's steps with the highest value, and the lowest since the later of its start and the last peak (-1: none yet). */
  private hi = -1;
  private lo = -1;
  private column: DecimalColumn | undefined;
  private sign = 1;

  constructor(
    readonly curve: EquityCurve,
    private readonly valueAt: (i: number) => Decimal,
  ) {}

  /**
   * A new stretch: from the next step on, the value moves as `sign` × `column`'s values (sign 0:
   * it does not move; column undefined with a sign: in no known order, every value worked out).
   */
  stretch(column: DecimalColumn | undefined, sign: number): void {
    this.hi = -1;
    this.lo = -1;
    this.column = column;
    this.sign = sign;
  }

  /** Step `i` at `timeMs`. */
  add(i: number, timeMs: number): void {
    if (this.hi < 0 || (this.column === undefined && this.sign !== 0)) {
      this.addValue(i, timeMs);
      return;
    }
    if (this.order(i, this.hi) > 0) {
      if (this.curve.add(timeMs, this.valueAt(i))) this.lo = i;
      this.hi = i;
    } else if (this.order(i, this.lo) < 0) {
      this.curve.add(timeMs, this.valueAt(i));
      this.lo = i;
    } else {
      this.curve.addInside(timeMs, this.valueAt, i);
    }
  }

  /** A step whose value is worked out and added: the stretch's first, or any of a stretch in no known order. */
  private addValue(i: number, timeMs: number): void {
    this.curve.add(timeMs, this.valueAt(i));
    this.hi = i;
    this.lo = i;
  }

  /** The order of the values at steps `i` and `j` (negative, zero, positive). */
  private order(i: number, j: number): number {
    if (this.sign === 0) return 0;
    return this.sign * (this.column as DecimalColumn).compare(i, j);
  }
}
