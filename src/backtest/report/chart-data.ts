/**
 * The data the page script draws, built here (exact, deterministic) so the script only plots:
 * times in whole UTC seconds (the charting library's time unit, one point per second: the last
 * one wins), drawdown already computed from the equity in decimals, and fill markers snapped to
 * a point of their market's price line.
 */
import { Decimal, dec, toWire } from '../../core/decimal.js';
import { downsampleEquity, downsamplePrices } from '../downsample.js';
import type { BacktestFill, BacktestResult, BacktestTrade, EquityPoint, PricePoint } from '../result.js';
import type { ResultHead } from '../result-file.js';
import { REPORT_COLOURS } from './colours.js';
import type { FillMark } from './fill-marks.js';

/**
 * Points per chart at most. The run downsamples already (result.json stays small); this keeps a
 * page drawable even from a result that was not.
 */
export const MAX_CHART_POINTS = 5000;

/** [UTC seconds, value as a decimal string] */
export type ChartPoint = [number, string];
/** [UTC seconds, 'b' (buy) | 's' (sell)] */
export type ChartMarker = [number, 'b' | 's'];

export interface MarketChart {
  /** Decimal places to show on the price scale. */
  precision: number;
  points: ChartPoint[];
  markers: ChartMarker[];
}

/** The starting equity held in one market instead: E₀ × price / first price. */
export interface HoldLine {
  market: string;
  points: ChartPoint[];
  /** The market's own change over the run, in percent (last price / first price − 1). */
  changePct: string;
}

export interface ChartData {
  /** The series colours (the page script has no other source: it is inlined and imports nothing). */
  colours: typeof REPORT_COLOURS;
  equity: ChartPoint[];
  /** Buy and hold beside the equity; null without a starting equity or prices. */
  hold: HoldLine | null;
  /** Drawdown from the running peak, in percent, as a negative number (0 at a new peak). */
  drawdown: ChartPoint[];
  markets: MarketChart[];
}

const sec = (ms: number): number => Math.floor(ms / 1000);

/** One point per second, in time order (the input is in time order; the last of a second wins). */
export function perSecond<T extends { timeMs: number }>(points: readonly T[], valueOf: (p: T) => string): ChartPoint[] {
  const out: ChartPoint[] = [];
  for (const p of points) {
    const t = sec(p.timeMs);
    const last = out[out.length - 1];
    if (last !== undefined && last[0] === t) last[1] = valueOf(p);
    else if (last === undefined || t > last[0]) out.push([t, valueOf(p)]);
  }
  return out;
}

function drawdownPercent(equity: readonly EquityPoint[]): ChartPoint[] {
  let peak: Decimal | null = null;
  return perSecond(equity, (p) => {
    const e = dec(p.equity);
    if (peak === null || e.gt(peak)) peak = e;
    if (!peak.gt(0)) return '0';
    const dd = Decimal.min(peak.minus(e).div(peak), 1).mul(-100);
    return toWire(dd.toDecimalPlaces(4, Decimal.ROUND_HALF_EVEN));
  });
}

function precisionOf(points: readonly PricePoint[]): number {
  let places = 2;
  for (const p of points) {
    const dot = p.price.indexOf('.');
    if (dot >= 0) places = Math.max(places, p.price.length - dot - 1);
  }
  return Math.min(places, 8);
}

/** Index of the last point at or before `t`, or 0 when `t` is before them all. */
function snap(points: readonly ChartPoint[], t: number): number {
  let lo = 0;
  let hi = points.length - 1;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if ((points[mid] as ChartPoint)[0] <= t) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** Markers of a market's fills given in time order (fills of one time in the result's order). */
/**
 * What the report reads of a run: the result without its lists, the lists' lengths and first
 * rows, and each market's fills in time order from any iteration (a long run's need not be held).
 */
export interface ReportInput {
  head: ResultHead;
  fillCount: number;
  tradeCount: number;
  /** The fills and round trips from the first; the tables list at most ROW_LIMIT of them. */
  firstFills: readonly BacktestFill[];
  firstTrades: readonly BacktestTrade[];
  /** The markets with fills (any order, repeats allowed). */
  fillMarkets: Iterable<string>;
  /** Every fill in time order (fills of one time in the result's order), read once for all markets' markers. */
  fillsInOrder(): Iterable<FillMark>;
}

/** The report input of a whole result held in memory. */
export function reportInputOf(result: BacktestResult): ReportInput {
  return {
    head: result,
    fillCount: result.fills.length,
    tradeCount: result.trades.length,
    firstFills: result.fills,
    firstTrades: result.trades,
    fillMarkets: result.fills.map((f) => f.market),
    // The library wants markers in time order; the sort is stable, so fills of one time keep theirs.
    fillsInOrder: () => [...result.fills].sort((a, b) => a.timeMs - b.timeMs),
  };
}

/** Market names in the order the report shows them: sorted, with markets that only have fills too. */
export function marketNames(result: BacktestResult): string[] {
  return namesOf(reportInputOf(result));
}

export function namesOf(input: ReportInput): string[] {
  return [...new Set([...Object.keys(input.head.prices), ...input.fillMarkets])].sort();
}

export function chartData(result: BacktestResult): ChartData {
  return chartDataOf(reportInputOf(result));
}

/** Each market's markers (a fill snapped to its line's nearest point), from one reading of every fill. */
function markersOf(input: ReportInput, names: readonly string[], points: ReadonlyArray<readonly ChartPoint[]>): ChartMarker[][] {
  const out = names.map((): ChartMarker[] => []);
  const at = new Map(names.map((name, i) => [name, i]));
  for (const f of input.fillsInOrder()) {
    const i = at.get(f.market);
    const line = i === undefined ? undefined : points[i];
    if (i === undefined || line === undefined || line.length === 0) continue;
    (out[i] as ChartMarker[]).push([(line[snap(line, sec(f.timeMs))] as ChartPoint)[0], f.side === 'buy' ? 'b' : 's']);
  }
  return out;
}

/** `hold`: the hold line of the input's head and market names when worked out already (the page's legend reads it too). */
export function chartDataOf(input: ReportInput, hold?: HoldLine | null): ChartData {
  const { head } = input;
  const names = namesOf(input);
  const lines = names.map((name) => {
    const prices = downsamplePrices(Object.hasOwn(head.prices, name) ? (head.prices[name] ?? []) : [], MAX_CHART_POINTS);
    return { precision: precisionOf(prices), points: perSecond(prices, (p) => p.price) };
  });
  const markers = markersOf(input, names, lines.map((l) => l.points));
  const markets = lines.map((l, i): MarketChart => ({ ...l, markers: markers[i] ?? [] }));
  const equity = downsampleEquity(head.equity, MAX_CHART_POINTS);
  const holdLine = hold === undefined ? holdLineOf(head, names) : hold;
  return { colours: REPORT_COLOURS, equity: perSecond(equity, (p) => p.equity), hold: holdLine, drawdown: drawdownPercent(equity), markets };
}

/**
 * The market's own move as an equity curve: what the starting equity would be worth held in the
 * first spot market with prices (else the first market with prices). An equity curve that mostly revalues the coins held at the start
 * moves with this line; the gap between the two is what trading did.
 */
export function holdLine(result: BacktestResult): HoldLine | null {
  return holdLineOf(result, marketNames(result));
}

/** holdLine of a result's head, with the report's market names. */
export function holdLineOf(head: ResultHead, names: readonly string[]): HoldLine | null {
  const start = head.equity[0];
  // A spot market first: holding its base is what "buy and hold" means; a perpetual follows the same path anyway.
  const withPrices = names.filter((m) => Object.hasOwn(head.prices, m) && (head.prices[m]?.length ?? 0) > 0);
  const market = withPrices.find((m) => !m.endsWith('_PERP')) ?? withPrices[0];
  if (start === undefined || market === undefined) return null;
  const prices = downsamplePrices(head.prices[market] as PricePoint[], MAX_CHART_POINTS);
  const first = dec((prices[0] as PricePoint).price);
  const e0 = dec(start.equity);
  const last = dec((prices[prices.length - 1] as PricePoint).price);
  const changePct = toWire(last.div(first).minus(1).mul(100).toDecimalPlaces(2, Decimal.ROUND_HALF_EVEN));
  return { market, changePct, points: perSecond(prices, (p) => toWire(e0.mul(p.price).div(first).toDecimalPlaces(2, Decimal.ROUND_HALF_EVEN))) };
}
