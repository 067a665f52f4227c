/**
 * In-memory rolling windows of closed candles, one per declared (market, timeframe), fed one
 * closed minute at a time (docs/strategies.md § Candles). Reading 200 hourly candles from the
 * store costs 50-70 ms and 200 daily ones about a second (docs/market-data.md), far too slow per
 * tick; a window folds each minute once, as it closes, with the store's own bucket logic
 * (src/store/candle-buckets.ts), so a window and a store read of the same minutes agree exactly.
 *
 * A bucket closes when a minute of a later bucket arrives or when the clock passes its end (its
 * last minutes may be missing: a gap stays a gap, and a bucket with no minute never appears).
 * Each window keeps at most its capacity (the largest count declared for it).
 */
import { TIMEFRAME_MS, type Timeframe } from '../model/candles.js';
import { addNewer, bucketStart, finish, start, type Acc, type MinuteRow } from '../store/candle-buckets.js';
import type { Candle } from '../store/types.js';

/** A window a strategy declares (`defineStrategy`'s `history`): the last `count` closed candles. */
export interface WindowSpec {
  market: string;
  timeframe: Timeframe;
  count: number;
}

/** A candle that just closed in a window. */
export interface ClosedCandle {
  market: string;
  timeframe: Timeframe;
  candle: Candle;
}

class CandleWindow {
  private readonly done: Candle[] = [];
  private acc: Acc | null = null;
  private lastMinuteMs = Number.NEGATIVE_INFINITY;
  /** End of the last bucket closed: a minute before it comes too late and is ignored, never reopens it. */
  private closedUntil = Number.NEGATIVE_INFINITY;

  constructor(
    readonly market: string,
    readonly timeframe: Timeframe,
    public capacity: number,
  ) {}

  /** A closed minute, newer than any before (an older one is ignored); returns the bucket it closed, if any. */
  add(m: MinuteRow): Candle | null {
    if (m.open_ms <= this.lastMinuteMs || m.open_ms < this.closedUntil) return null;
    this.lastMinuteMs = m.open_ms;
    if (this.acc !== null && this.acc.openMs === bucketStart(m.open_ms, this.timeframe)) {
      addNewer(this.acc, m);
      return null;
    }
    const closed = this.acc === null ? null : this.close(this.acc);
    this.acc = start(m, this.timeframe);
    return closed;
  }

  /** Starts from candles already built (the store's, at start) and the closed minutes of the bucket being built. */
  seed(closed: readonly Candle[], partial: readonly MinuteRow[]): void {
    this.done.splice(0, this.done.length, ...closed.slice(Math.max(0, closed.length - this.capacity)));
    this.acc = null;
    const last = closed.at(-1);
    this.lastMinuteMs = last === undefined ? Number.NEGATIVE_INFINITY : last.closeMs - TIMEFRAME_MS['1m'];
    this.closedUntil = last === undefined ? Number.NEGATIVE_INFINITY : last.closeMs;
    for (const m of partial) this.add(m);
  }

  /** Closes the bucket being built once the clock is at or past its end. */
  advance(nowMs: number): Candle | null {
    if (this.acc === null || this.acc.openMs + TIMEFRAME_MS[this.timeframe] > nowMs) return null;
    return this.close(this.acc);
  }

  private close(acc: Acc): Candle {
    // Frozen: a closed candle never changes, and each tick's snapshot hands it on as it is.
    const c = Object.freeze(finish(this.market, this.timeframe, acc, true));
    this.acc = null;
    this.closedUntil = c.closeMs;
    this.done.push(c);
    // Trimmed in batches, so a push costs O(1) amortised.
    if (this.done.length >= 2 * this.capacity + 16) this.done.splice(0, this.done.length - this.capacity);
    return c;
  }

  /** The last `count` closed candles (at most the capacity), oldest first. */
  last(count: number): Candle[] {
    const n = Math.min(count, this.capacity, this.done.length);
    return this.done.slice(this.done.length - n);
  }

  get size(): number {
    return Math.min(this.done.length, this.capacity);
  }

  /**
   * The candle of the bucket holding `nowMs`, from its closed minutes and the minute still being
   * built (`openMinute`), marked open; null when the bucket has no minute yet.
   */
  open(nowMs: number, openMinute: MinuteRow | undefined): Candle | null {
    const bucket = bucketStart(nowMs, this.timeframe);
    const acc: Acc | null = this.acc !== null && this.acc.openMs === bucket ? { ...this.acc } : null;
    const live = openMinute !== undefined && openMinute.open_ms > this.lastMinuteMs && bucketStart(openMinute.open_ms, this.timeframe) === bucket;
    if (!live) return acc === null ? null : finish(this.market, this.timeframe, acc, false);
    if (acc === null) return finish(this.market, this.timeframe, start(openMinute, this.timeframe), false);
    addNewer(acc, openMinute);
    return finish(this.market, this.timeframe, acc, false);
  }
}

const keyOf = (market: string, timeframe: Timeframe): string => `${market}|${timeframe}`;

/** Every window the engine keeps, and the minute each market is building (for open candles). */
export class CandleWindows {
  private readonly windows = new Map<string, CandleWindow>();
  private readonly byMarket = new Map<string, CandleWindow[]>();

  /** Adds a window, or widens one already kept to hold `count` candles. */
  declare(spec: WindowSpec): void {
    const key = keyOf(spec.market, spec.timeframe);
    const w = this.windows.get(key);
    if (w !== undefined) {
      w.capacity = Math.max(w.capacity, spec.count);
      return;
    }
    const made = new CandleWindow(spec.market, spec.timeframe, Math.max(1, spec.count));
    this.windows.set(key, made);
    this.byMarket.set(spec.market, [...(this.byMarket.get(spec.market) ?? []), made]);
  }

  /** Whether `market` has at least one window. */
  watches(market: string): boolean {
    return this.byMarket.has(market);
  }

  /** Markets with at least one window. */
  markets(): string[] {
    return [...this.byMarket.keys()];
  }

  /** The windows of a market, with their capacity. */
  specs(market?: string): WindowSpec[] {
    const ws = market === undefined ? [...this.windows.values()] : (this.byMarket.get(market) ?? []);
    return ws.map((w) => ({ market: w.market, timeframe: w.timeframe, count: w.capacity }));
  }

  /** Seeds one window (see CandleWindow.seed); a window not kept is ignored. */
  seed(market: string, timeframe: Timeframe, closed: readonly Candle[], partial: readonly MinuteRow[]): void {
    this.windows.get(keyOf(market, timeframe))?.seed(closed, partial);
  }

  /** Feeds a closed minute of `market` to each of its windows; returns the candles it closed. */
  add(market: string, minute: MinuteRow): ClosedCandle[] {
    const out: ClosedCandle[] = [];
    for (const w of this.byMarket.get(market) ?? []) {
      const c = w.add(minute);
      if (c !== null) out.push({ market, timeframe: w.timeframe, candle: c });
    }
    return out;
  }

  /** Closes every bucket that ended at or before `nowMs`; returns them. */
  advance(nowMs: number): ClosedCandle[] {
    const out: ClosedCandle[] = [];
    for (const w of this.windows.values()) {
      const c = w.advance(nowMs);
      if (c !== null) out.push({ market: w.market, timeframe: w.timeframe, candle: c });
    }
    return out;
  }

  /** The last `count` closed candles of a window, oldest first; empty for a window not kept. */
  closed(market: string, timeframe: Timeframe, count: number): Candle[] {
    return this.windows.get(keyOf(market, timeframe))?.last(count) ?? [];
  }

  /** How many closed candles a window holds now. */
  size(market: string, timeframe: Timeframe): number {
    return this.windows.get(keyOf(market, timeframe))?.size ?? 0;
  }

  /** The still-open candle of a window at `nowMs` (with the market's minute being built), or null. */
  open(market: string, timeframe: Timeframe, nowMs: number, openMinute: MinuteRow | undefined): Candle | null {
    return this.windows.get(keyOf(market, timeframe))?.open(nowMs, openMinute) ?? null;
  }
}
