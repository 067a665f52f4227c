/**
 * What the run samples at each price step (the account's equity, each market's price), kept at
 * full resolution but compactly: a Decimal object costs ~100 bytes and a year of one-minute steps
 * holds half a million of them per series. A value whose shortest JS number prints the same as the
 * Decimal (every price of a CSV cell with up to 15 significant digits) is kept as that number, 8
 * bytes; any other value as its decimal string. Reading gives back the exact Decimal either way.
 */
import { Decimal } from '../core/decimal.js';
import { shortDouble } from '../simulator/near.js';

const INITIAL = 1024;

/** A growing column of doubles. */
class Doubles {
  private data = new Float64Array(INITIAL);
  length = 0;

  push(v: number): void {
    if (this.length === this.data.length) {
      const bigger = new Float64Array(this.data.length * 2);
      bigger.set(this.data);
      this.data = bigger;
    }
    this.data[this.length++] = v;
  }

  at(i: number): number {
    return this.data[i] as number;
  }

  /** The values pushed so far (a view: valid until the next push). */
  view(): Float64Array {
    return this.data.subarray(0, this.length);
  }
}

/** Exact decimals, one per step. */
export class DecimalColumn {
  private readonly nums = new Doubles();
  /** The values a number cannot hold exactly, by index (sparse: prices rarely need it). */
  private readonly texts: (string | undefined)[] = [];

  get length(): number {
    return this.nums.length;
  }

  push(d: Decimal): void {
    const short = shortDouble(d);
    if (short !== undefined) {
      this.nums.push(short);
      return;
    }
    const text = d.toString();
    // toNumber() reads the same text (valueOf), but keeps a zero's sign: read once, not twice.
    const n = text === '0' ? d.toNumber() : Number(text);
    // Same text, same value: new Decimal(n) reads String(n).
    if (String(n) === text) {
      this.nums.push(n);
      return;
    }
    this.texts[this.nums.length] = d.toFixed();
    this.nums.push(Number.NaN);
  }

  at(i: number): Decimal {
    const text = this.texts[i];
    return new Decimal(text ?? this.nums.at(i));
  }

  /**
   * The values at `i` and `j` compared exactly (negative, zero, positive as `i`'s is below, equal,
   * above), as numbers when both are held as numbers: each such number is the double nearest its
   * decimal, and no two different decimals held so are the same double (push), so rounding to the
   * nearest double, which never reverses an order, keeps theirs. Others are compared as Decimals.
   */
  compare(i: number, j: number): number {
    const a = this.nums.at(i);
    const b = this.nums.at(j);
    if (Number.isNaN(a) || Number.isNaN(b)) return this.at(i).cmp(this.at(j));
    return a < b ? -1 : a > b ? 1 : 0;
  }

  /** Every value as the double nearest it, when each is held so (none as text); else undefined. */
  numbers(): Float64Array | undefined {
    return this.texts.length === 0 ? this.nums.view() : undefined;
  }

  /** The double nearest the value at `i` (held as such), or NaN when the value is held as text. */
  numberAt(i: number): number {
    return this.nums.at(i);
  }

  /** The last value, or undefined when empty. */
  last(): Decimal | undefined {
    return this.length === 0 ? undefined : this.at(this.length - 1);
  }
}

/** Everything sampled at each price step, at full resolution. */
export class Samples {
  private readonly times = new Doubles();
  readonly equity = new DecimalColumn();
  /** Per configured market, one price per step. */
  readonly prices: ReadonlyMap<string, DecimalColumn>;

  constructor(markets: readonly string[]) {
    this.prices = new Map(markets.map((m) => [m, new DecimalColumn()]));
  }

  get length(): number {
    return this.times.length;
  }

  timeAt(i: number): number {
    return this.times.at(i);
  }

  /** One step: its time, the account's equity and each market's price (`priceOf`). */
  push(timeMs: number, equity: Decimal, priceOf: (market: string) => Decimal): void {
    this.times.push(timeMs);
    this.equity.push(equity);
    for (const [m, column] of this.prices) column.push(priceOf(m));
  }
}
