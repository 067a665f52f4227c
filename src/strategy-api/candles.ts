/**
 * `ctx.candles`, `ctx.openCandle` and `ctx.history` over the declared windows a snapshot carries
 * (docs/strategies.md § Candles). Only what the strategy declared crosses into its sandbox, so
 * reading anything else is the author's mistake, said plainly.
 */
import type { CandleView, HistoryView, Timeframe } from './types.js';
import { frozenFunction } from './frozen-views.js';

/** One declared window as the snapshot carries it: its closed candles (at most `want`) and the open one. */
export interface CandleWindowData {
  market: string;
  timeframe: Timeframe;
  /** The count declared. */
  want: number;
  closed: CandleView[];
  open: CandleView | null;
}

/** An undeclared window, or more candles than declared. */
export class CandleRequestError extends Error {
  override readonly name = 'CandleRequestError';
}

function declared(windows: readonly CandleWindowData[]): string {
  return windows.length === 0 ? 'none' : windows.map((w) => `${w.market} ${w.timeframe} x${w.want}`).join(', ');
}

/** Frozen copies of the candles; a candle already frozen (a window's closed candle, kept as it closed) goes as it is. */
function freezeCandles(items: readonly CandleView[]): readonly CandleView[] {
  return Object.freeze(items.map((c) => (Object.isFrozen(c) ? c : Object.freeze({ ...c }))));
}

export function candleReaders(windows: readonly CandleWindowData[]): {
  candles: (market: string, timeframe: Timeframe, count: number) => readonly CandleView[];
  openCandle: (market: string, timeframe: Timeframe) => CandleView | null;
  history: readonly HistoryView[];
} {
  const byKey = new Map(windows.map((w) => [`${w.market}|${w.timeframe}`, { w, closed: freezeCandles(w.closed) }]));
  const find = (call: string, market: string, timeframe: Timeframe): { w: CandleWindowData; closed: readonly CandleView[] } => {
    const hit = byKey.get(`${market}|${timeframe}`);
    if (hit !== undefined) return hit;
    throw new CandleRequestError(`${call}(${market}, ${timeframe}): not declared; declare it in defineStrategy's history (declared: ${declared(windows)})`);
  };
  const history = Object.freeze(
    windows.map((w) => Object.freeze({ market: w.market, timeframe: w.timeframe, want: w.want, have: w.closed.length, ready: w.closed.length >= w.want })),
  );
  // The readers are frozen: a snapshot without windows shares them with every other context.
  return {
    candles: frozenFunction((market: string, timeframe: Timeframe, count: number) => {
      const { w, closed } = find('ctx.candles', market, timeframe);
      if (!Number.isInteger(count) || count < 1 || count > w.want) {
        throw new CandleRequestError(`ctx.candles(${market}, ${timeframe}, ${String(count)}): expected a count from 1 to ${w.want}, the count declared in history`);
      }
      return count >= closed.length ? closed : Object.freeze(closed.slice(closed.length - count));
    }),
    openCandle: frozenFunction((market: string, timeframe: Timeframe) => {
      const { w } = find('ctx.openCandle', market, timeframe);
      return w.open === null ? null : Object.freeze({ ...w.open });
    }),
    history,
  };
}
