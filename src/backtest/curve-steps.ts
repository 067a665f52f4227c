/**
 * An equity curve fed every sampled step without working out most of the values. Between two
 * fills a book's value is a + p × price of its one open market (or a constant with none open), so
 * its values rise and fall with the price's (p > 0), against it (p < 0), or not at all: their
 * order is the sampled prices' order, which the sample columns compare as the numbers they hold
 * (DecimalColumn.compare, exact). A step whose value lies between the lowest and the highest of
 * its stretch so far (the lowest taken since the last peak) can set neither a new peak nor a new
 * trough: it is added inside (EquityCurve.addInside), its value worked out only if it closes a
 * day. A step that is a new high or low of its stretch, or its first, is added inside too when an
 * estimate of its value, with a bound on the estimate's error, lies surely between the trough and
 * the peak. The account's curve is its
 * sampled equity column itself: one stretch of sign +1.
 */
import type { Decimal } from '../core/decimal.js';
import type { EquityCurve } from './metrics.js';
import type { DecimalColumn } from './samples.js';

/** An estimate of a value and a bound on its error (|value − estimate| ≤ bound); NaN when there is none. */
export interface Estimate {
  value: number;
  bound: number;
}

/** How a curve's values move over a stretch of steps (until the next fill). */
export interface Stretch {
  /** The value at step `i` (any step of the stretch, whenever asked). */
  valueAt(i: number): Decimal;
  /** The values order as `sign` × `column`'s (sign 0: they do not move; no column with a sign: no known order). */
  column: DecimalColumn | undefined;
  sign: number;
  /** An estimate of the value at step `i`, written into `out`. */
  estimate?(i: number, out: Estimate): void;
}

/** The largest relative error of a double nearest a value (2⁻⁵³), doubled. */
const NEAR = 2 ** -52;

export class SteppedCurve {
  /** The stretch's steps with the highest value, and the lowest since the later of its start and the last peak (-1: none yet). */
  private hi = -1;
  private lo = -1;
  private current: Stretch | undefined;
  private readonly est: Estimate = { value: Number.NaN, bound: Number.NaN };

  constructor(readonly curve: EquityCurve) {}

  /** A new stretch from the next step on. */
  stretch(s: Stretch): void {
    this.hi = -1;
    this.lo = -1;
    this.current = s;
  }

  /** Step `i` at `timeMs`. */
  add(i: number, timeMs: number): void {
    const s = this.current;
    if (s === undefined) throw new Error('stepped curve: no stretch set');
    if (this.hi < 0 || (s.column === undefined && s.sign !== 0)) {
      this.first(s, i, timeMs);
      return;
    }
    const up = this.order(s, i, this.hi) > 0;
    if (!up && this.order(s, i, this.lo) >= 0) {
      this.curve.addInside(timeMs, s.valueAt, i);
      return;
    }
    // A new high or low of the stretch: still inside the peak and the trough when the estimate says so surely.
    const inside = this.surelyInside(s, i);
    if (inside) this.curve.addInside(timeMs, s.valueAt, i);
    if (up) {
      if (!inside && this.curve.add(timeMs, s.valueAt(i))) this.lo = i;
      this.hi = i;
    } else {
      if (!inside) this.curve.add(timeMs, s.valueAt(i));
      this.lo = i;
    }
  }

  /** A step with no earlier step of its stretch to compare with: inside when its estimate says so surely, else worked out. */
  private first(s: Stretch, i: number, timeMs: number): void {
    if (this.surelyInside(s, i)) this.curve.addInside(timeMs, s.valueAt, i);
    else this.curve.add(timeMs, s.valueAt(i));
    this.hi = i;
    this.lo = i;
  }

  /**
   * True when the value at `i` is surely neither above the peak nor below the trough: its
   * estimate's whole error interval lies strictly inside theirs (each peak and trough double is
   * within NEAR × itself of the exact value). Anything not finite is never sure.
   */
  private surelyInside(s: Stretch, i: number): boolean {
    if (s.estimate === undefined) return false;
    const { peak, trough } = this.curve.bounds();
    s.estimate(i, this.est);
    const { value, bound } = this.est;
    const hiEnd = value + bound;
    const loEnd = value - bound;
    // NaN compares false: an unknown peak, trough or estimate is never sure.
    return hiEnd < peak - NEAR * Math.abs(peak) && loEnd > trough + NEAR * Math.abs(trough) && Number.isFinite(hiEnd) && Number.isFinite(loEnd);
  }

  /** The order of the values at steps `i` and `j` (negative, zero, positive). */
  private order(s: Stretch, i: number, j: number): number {
    if (s.sign === 0) return 0;
    return s.sign * (s.column as DecimalColumn).compare(i, j);
  }
}
