/**
 * One reading of a price series shared by a run's readers: the venue's markets driven by one file
 * (BTC_USDT and BTC_PERP on BTC_USDT.csv) and the candle feed each read its rows, at nearly the
 * same pace; without sharing, each parsed the whole file again. The rows between the slowest and
 * the fastest reader are kept, nothing else, so memory stays flat.
 *
 * A reader that joins after the first rows were let go, or one left too far behind (more than
 * MAX_KEPT rows), reads on from its own reading of the file: the same rows, parsed again. Rows are
 * shared objects: readers only read them (a PriceRow's Decimals are immutable).
 */
import type { PriceRow } from './price-csv.js';

/** Rows kept at most for readers behind the fastest one (a week of one-minute rows). */
const MAX_KEPT = 10_080;

/**
 * Rows parsed at once when a reader needs one not read yet. The run loop asks for a row per
 * price step between a step's job fires, whose work leaves the parser's code and data cold;
 * parsed a batch at a time, a row cost about half as much. The batch is held like any row not yet
 * passed by every reader.
 */
const READ_AHEAD = 64;

interface Position {
  at: number;
}

export class SharedRows {
  private source: Iterator<PriceRow> | undefined;
  private ended = false;
  private readonly kept: PriceRow[] = [];
  /** Index in `kept` of the row numbered `base`. */
  private head = 0;
  /** Number (from 0) of the oldest row kept. */
  private base = 0;
  private readonly readers = new Set<Position>();
  private sealed = false;

  constructor(private readonly open: () => Iterator<PriceRow>) {}

  *reader(): Generator<PriceRow> {
    if (this.base > 0) {
      yield* this.ownFrom(0);
      return;
    }
    const me: Position = { at: 0 };
    this.readers.add(me);
    try {
      for (;;) {
        if (me.at < this.base) break;
        const row = this.rowAt(me.at);
        if (row === undefined) return;
        me.at++;
        this.letGo();
        yield row;
      }
    } finally {
      this.readers.delete(me);
      this.letGo();
    }
    // Left behind: the rest from a reading of its own.
    yield* this.ownFrom(me.at);
  }

  /** A reading of its own, from row number `from`. */
  private *ownFrom(from: number): Generator<PriceRow> {
    const own = this.open();
    try {
      for (let i = 0; i < from; i++) if (own.next().done === true) return;
      for (let r = own.next(); r.done !== true; r = own.next()) yield r.value;
    } finally {
      own.return?.();
    }
  }

  private rowAt(n: number): PriceRow | undefined {
    const want = this.base + this.kept.length - this.head <= n ? n + READ_AHEAD : n;
    while (!this.ended && this.base + this.kept.length - this.head <= want) {
      this.source ??= this.open();
      const r = this.source.next();
      if (r.done === true) {
        this.ended = true;
        this.source.return?.();
      } else this.kept.push(r.value);
    }
    return this.kept[this.head + n - this.base];
  }

  /**
   * From now on, rows every reader has passed are let go. Until then they are kept (up to
   * MAX_KEPT behind the newest) for the readers still to join: a run's readers join as the venue
   * and the candle feed are built, each reading up to the run's start.
   */
  seal(): void {
    this.sealed = true;
    this.letGo();
  }

  /** Lets go of the rows every reader has passed (once sealed), and of those more than MAX_KEPT behind the newest. */
  private letGo(): void {
    const newest = this.base + this.kept.length - this.head;
    let slowest = this.sealed ? newest : this.base;
    if (this.sealed) for (const r of this.readers) slowest = Math.min(slowest, r.at);
    const drop = Math.max(slowest, newest - MAX_KEPT) - this.base;
    if (drop <= 0) return;
    this.head += drop;
    this.base += drop;
    if (this.head > 1024 && this.head * 2 > this.kept.length) {
      this.kept.splice(0, this.head);
      this.head = 0;
    }
  }
}
