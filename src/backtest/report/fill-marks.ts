/**
 * What the report's fill markers read of each fill (its time, market and side), kept compactly
 * as the run's result is read: about ten bytes a fill instead of a fill object, so the markers of
 * a long run are drawn without reading its fills from the store once more.
 */
import type { BacktestFill } from '../result.js';

/** The part of a fill a marker shows. */
export type FillMark = Pick<BacktestFill, 'timeMs' | 'market' | 'side'>;

const INITIAL = 1024;

export class FillMarks {
  private times = new Float64Array(INITIAL);
  /** Per fill: its market's index in `markets` times two, plus one for a buy. */
  private codes = new Uint32Array(INITIAL);
  private readonly markets: string[] = [];
  private readonly marketIndex = new Map<string, number>();
  private count = 0;

  get length(): number {
    return this.count;
  }

  add(f: FillMark): void {
    if (this.count === this.times.length) this.grow();
    let m = this.marketIndex.get(f.market);
    if (m === undefined) {
      m = this.markets.length;
      this.markets.push(f.market);
      this.marketIndex.set(f.market, m);
    }
    this.times[this.count] = f.timeMs;
    this.codes[this.count] = m * 2 + (f.side === 'buy' ? 1 : 0);
    this.count++;
  }

  /** The marks in the order they were added. */
  *inOrder(): Generator<FillMark> {
    for (let i = 0; i < this.count; i++) {
      const code = this.codes[i] as number;
      yield { timeMs: this.times[i] as number, market: this.markets[code >>> 1] as string, side: (code & 1) === 1 ? 'buy' : 'sell' };
    }
  }

  private grow(): void {
    const times = new Float64Array(this.times.length * 2);
    times.set(this.times);
    this.times = times;
    const codes = new Uint32Array(this.codes.length * 2);
    codes.set(this.codes);
    this.codes = codes;
  }
}
