/**
 * The backtest's feed of the strategies' candle windows (docs/backtesting.md § Candles and
 * warm-up): the input rows are the minutes (an OHLCV row's open, high, low, close and volume; a
 * `time,price` row is a minute of one price), fed to the same windows as the daemon's
 * (src/engine/strategy-candles.ts) once their minute has ended on the virtual clock. Rows are read
 * from the file as the clock reaches them, as the venue reads its own.
 *
 * Warm-up: the run's clock starts once every declared window holds its count: the first candles
 * of the input fill the windows, and trading and metrics start after them.
 */
import { ConfigError } from '../core/errors.js';
import { toWire } from '../core/decimal.js';
import type { ClosedCandle } from '../engine/candle-windows.js';
import { StrategyCandles } from '../engine/strategy-candles.js';
import { bucketStart, type MinuteRow } from '../store/candle-buckets.js';
import type { LoadedStrategy } from '../strategy-api/host.js';
import type { PriceSeries } from './load-prices.js';
import type { PriceRow } from './price-csv.js';
import { pathFor } from './sim-venue.js';

const MINUTE_MS = 60_000;

/** An input row as a stored minute would be (decimal strings). */
export function minuteOf(row: PriceRow): MinuteRow {
  const c = row.candle;
  const close = toWire(row.price);
  const volume = row.volume === null ? null : toWire(row.volume);
  if (c === undefined) return { open_ms: row.timeMs, open: close, high: close, low: close, close, volume };
  return { open_ms: row.timeMs, open: toWire(c.open), high: toWire(c.high), low: toWire(c.low), close, volume };
}

/** When the minute holding a row has ended. */
const endOf = (row: PriceRow): number => bucketStart(row.timeMs, '1m') + MINUTE_MS;

interface Cursor {
  market: string;
  rows: Iterator<PriceRow>;
  next: PriceRow | undefined;
}

export class BacktestCandleFeed {
  private readonly cursors: Cursor[];

  constructor(
    private readonly candles: StrategyCandles,
    series: ReadonlyMap<string, PriceSeries>,
  ) {
    this.cursors = candles.windows.markets().map((market) => {
      const rows = (series.get(pathFor(market, series)) as PriceSeries).rows()[Symbol.iterator]();
      return { market, rows, next: rows.next().value ?? undefined };
    });
  }

  /** Feeds every row whose minute ended by `nowMs`, then closes the buckets that ended; returns the candles closed. */
  advanceTo(nowMs: number): ClosedCandle[] {
    const closed: ClosedCandle[] = [];
    for (const c of this.cursors) {
      while (c.next !== undefined && endOf(c.next) <= nowMs) {
        closed.push(...this.candles.windows.add(c.market, minuteOf(c.next)));
        c.next = c.rows.next().value ?? undefined;
      }
    }
    closed.push(...this.candles.windows.advance(nowMs));
    return closed;
  }

  /** When the next row not fed yet ends its minute (any market); undefined at the end of the input. */
  nextEnd(): number | undefined {
    const ends = this.cursors.flatMap((c) => (c.next === undefined ? [] : [endOf(c.next)]));
    return ends.length === 0 ? undefined : Math.min(...ends);
  }

  /** Releases the files being read. */
  close(): void {
    for (const c of this.cursors) c.rows.return?.();
  }
}

/** What the warm-up took: from the input's first row to the time the last window filled. */
export interface WarmUp {
  /** Where the run would have started without it (the first row, or --from). */
  fromMs: number;
  /** Where trading and metrics start. */
  untilMs: number;
  /** The declared windows, e.g. `BTC_USDT 1h x50`. */
  windows: string;
}

/**
 * The end of the warm-up: the first time at or after `fromMs` at which every declared window
 * holds its count. Null when no strategy declares candles. A ConfigError when the input ends
 * (or `toMs` comes) first: a backtest never runs a strategy on fewer candles than it declared.
 */
export function warmUpEnd(strategies: readonly LoadedStrategy[], series: ReadonlyMap<string, PriceSeries>, fromMs: number, toMs: number): WarmUp | null {
  const candles = new StrategyCandles(() => undefined);
  candles.register(strategies);
  const windows = [...new Set(strategies.flatMap((s) => (s.history ?? []).map((h) => `${h.market} ${h.timeframe} x${h.count}`)))].join(', ');
  if (windows === '') return null;
  const feed = new BacktestCandleFeed(candles, series);
  try {
    let t = fromMs;
    feed.advanceTo(t);
    for (;;) {
      const short = candles.warmUp();
      if (short.length === 0) return { fromMs, untilMs: t, windows };
      const next = feed.nextEnd();
      if (next === undefined || next >= toMs) {
        const what = short.map((g) => `${g.strategyId}: ${g.market} ${g.timeframe} ${g.have} of ${g.want}`).join('; ');
        throw new ConfigError(`--prices: expected enough candles before --to to fill the declared history and still trade, found ${what}`);
      }
      t = next;
      feed.advanceTo(t);
    }
  } finally {
    feed.close();
  }
}
