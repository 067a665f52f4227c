/**
 * The backtest's figures (docs/backtest-metrics.md defines each one). Pure and exact: every
 * amount is a Decimal from the input strings to the output strings; ratios are rounded to
 * RATIO_DP places, half even, so the same input always prints the same result.
 */
import { Decimal, ZERO, dec, sum, toWire } from '../core/decimal.js';
import type { BacktestFill, BacktestMetrics, BacktestTrade, EquityPoint } from './result.js';
import { fifo } from './round-trips.js';

export { positionSpans, roundTrips } from './round-trips.js';

/** Decimal places of the ratios (win rate, drawdown, exposure, Sharpe). */
export const RATIO_DP = 8;

const DAY_MS = 86_400_000;

export interface TimeSpan {
  fromMs: number;
  toMs: number;
}

export interface MetricsInput {
  /** The full-resolution equity series, or its curve (not the report's downsampled one: day closes need every point). */
  equity: readonly EquityPoint[] | EquityCurve;
  fills: readonly BacktestFill[];
  /** The round trips of `fills` (roundTrips(fills)). */
  trades: readonly BacktestTrade[];
  flexEarnings: string;
  unrealisedPnl: string;
  orders: number;
  /** Periods with a non-zero position; they may overlap (several markets). */
  positionSpans: readonly TimeSpan[];
  fromMs: number;
  toMs: number;
}

/** A ratio as printed: RATIO_DP places, half even. */
export function ratio(d: Decimal): string {
  return toWire(d.toDecimalPlaces(RATIO_DP, Decimal.ROUND_HALF_EVEN));
}

export function computeMetrics(input: MetricsInput): BacktestMetrics {
  const fold = new MetricsFold();
  for (const f of input.fills) fold.addFill(f);
  for (const c of fifo(input.fills).closed) fold.addGross(c.gross);
  for (const t of input.trades) fold.addTrade(t);
  return fold.finish(input);
}

/** What computeMetrics needs besides the fills and the trades. */
export type MetricsRest = Omit<MetricsInput, 'fills' | 'trades'>;

/**
 * computeMetrics fed one fill and one closed trade at a time (in time order), so a long run's
 * lists need not be held: the sums are taken in the same order, so the figures are the same.
 */
export class MetricsFold {
  private fees: Decimal = ZERO;
  private realised: Decimal = ZERO;
  private fills = 0;
  private trades = 0;
  private wins = 0;

  /** `fee`: the fill's fee parsed already (its `fee` text). */
  addFill(f: BacktestFill, fee: Decimal = dec(f.fee)): void {
    this.fees = this.fees.plus(fee);
    this.fills++;
  }

  /** A closed trade's PnL before fees (FIFO: round-trips.ts). */
  addGross(gross: Decimal): void {
    this.realised = this.realised.plus(gross);
  }

  /** `pnl`: the trade's PnL parsed already (its `pnl` text). */
  addTrade(t: BacktestTrade, pnl: Decimal = dec(t.pnl)): void {
    this.trades++;
    if (pnl.gt(0)) this.wins++;
  }

  finish(rest: MetricsRest): BacktestMetrics {
    const afterFees = this.realised.minus(this.fees);
    const unrealised = dec(rest.unrealisedPnl);
    const flex = dec(rest.flexEarnings);
    const curve = rest.equity instanceof EquityCurve ? rest.equity : curveOf(rest.equity);
    return {
      realisedPnl: toWire(this.realised),
      fees: toWire(this.fees),
      realisedPnlAfterFees: toWire(afterFees),
      unrealisedPnl: toWire(unrealised),
      flexEarnings: toWire(flex),
      netPnl: toWire(afterFees.plus(unrealised).plus(flex)),
      orders: rest.orders,
      fills: this.fills,
      trades: this.trades,
      winRate: this.trades === 0 ? null : ratio(new Decimal(this.wins).div(this.trades)),
      maxDrawdown: ratio(curve.maxDrawdown()),
      exposure: ratio(exposure(rest.positionSpans, rest.fromMs, rest.toMs)),
      sharpeDaily: sharpeOf(curve),
    };
  }
}

/** Trades with a PnL after fees above zero, over all trades; null with no trade. */
export function winRate(trades: readonly BacktestTrade[]): string | null {
  if (trades.length === 0) return null;
  const wins = trades.filter((t) => dec(t.pnl).gt(0)).length;
  return ratio(new Decimal(wins).div(trades.length));
}

/**
 * The equity figures taken point by point, so a run's series need not be kept as points: the
 * largest drawdown and the daily closes (below). Adding the points of a series in order gives
 * exactly what maxDrawdown and dailyCloses give for the whole series.
 */
export class EquityCurve {
  private peak: Decimal | null = null;
  private trough: Decimal = ZERO;
  private worst: Decimal = ZERO;
  private readonly closes: Decimal[] = [];
  /** The last point: its time, and its value or how to work it out (addInside). */
  /** The last point's UTC day, [dayStart, dayEnd) in ms (empty before the first point). */
  private dayStart = 0;
  private dayEnd = 0;
  private lastValue: Decimal | undefined;
  private lastAt: ((i: number) => Decimal) | undefined;
  private lastIndex = 0;
  private count = 0;

  /** Adds a point; true when it is a new peak. */
  add(timeMs: number, e: Decimal): boolean {
    if (this.count === 0) this.closes.push(e);
    this.step(timeMs);
    this.lastValue = e;
    this.lastAt = undefined;
    if (this.peak === null || e.gt(this.peak)) {
      this.worst = this.withReign();
      this.peak = e;
      this.trough = e;
      return true;
    }
    if (e.lt(this.trough)) this.trough = e;
    return false;
  }

  /**
   * Adds a point the caller knows to be neither above the peak nor below the trough since it
   * (never the first point): `add` would change nothing but the daily closes, which need its
   * value only when it closes a day or the curve. So the value, `valueAt(i)`, is worked out then
   * only (a year of one-minute points is half a million values otherwise); `valueAt` must give
   * the same value whenever it is asked.
   */
  addInside(timeMs: number, valueAt: (i: number) => Decimal, i: number): void {
    if (this.peak === null) throw new Error('equity curve: the first point must be added with add');
    this.step(timeMs);
    this.lastValue = undefined;
    this.lastAt = valueAt;
    this.lastIndex = i;
  }

  /**
   * The peak and the trough as the doubles nearest them (NaN before the first point), worked out
   * when they change: a caller compares an estimate of a value against them (curve-steps.ts).
   */
  bounds(): { peak: number; trough: number } {
    if (this.boundsOf !== this.peak || this.boundsTrough !== this.trough) {
      this.boundsOf = this.peak;
      this.boundsTrough = this.trough;
      this.boundNumbers = this.peak === null ? { peak: Number.NaN, trough: Number.NaN } : { peak: this.peak.toNumber(), trough: this.trough.toNumber() };
    }
    return this.boundNumbers;
  }

  private boundsOf: Decimal | null = null;
  private boundsTrough: Decimal = ZERO;
  private boundNumbers = { peak: Number.NaN, trough: Number.NaN };

  /**
   * Largest (peak − equity) / peak, with peak the running maximum. Points while the peak is not
   * above zero are skipped (no fraction of nothing); a fall below zero counts as 1. Within one
   * peak's reign the deepest point is its lowest, so one division per new peak is enough (a year
   * of one-minute points would otherwise cost half a million divisions).
   */
  maxDrawdown(): Decimal {
    return this.withReign();
  }

  /** The first point, then the last point of every UTC day that has points (the first point not twice). */
  dailyCloses(): Decimal[] {
    return this.count > 1 ? [...this.closes, this.lastEquity()] : [...this.closes];
  }

  /** The day bookkeeping of a new point at `timeMs`: the previous point closes its day when the day changes. */
  private step(timeMs: number): void {
    // The last point's UTC day is [dayStart, dayEnd): a point outside it is of another day.
    if (this.count > 1 && (timeMs < this.dayStart || timeMs >= this.dayEnd)) this.closes.push(this.lastEquity());
    if (timeMs < this.dayStart || timeMs >= this.dayEnd) {
      this.dayStart = dayOf(timeMs) * DAY_MS;
      this.dayEnd = this.dayStart + DAY_MS;
    }
    this.count++;
  }

  /** The last point's value, worked out now when it was added inside. */
  private lastEquity(): Decimal {
    this.lastValue ??= (this.lastAt as (i: number) => Decimal)(this.lastIndex);
    return this.lastValue;
  }

  /** The worst drawdown so far, the current peak's reign included. */
  private withReign(): Decimal {
    if (this.peak === null || !this.peak.gt(0)) return this.worst;
    const dd = Decimal.min(this.peak.minus(this.trough).div(this.peak), 1);
    return dd.gt(this.worst) ? dd : this.worst;
  }
}

function dayOf(timeMs: number): number {
  return Math.floor(timeMs / DAY_MS);
}

/** The curve of a whole series. */
export function curveOf(equity: readonly EquityPoint[]): EquityCurve {
  const c = new EquityCurve();
  for (const p of equity) c.add(p.timeMs, dec(p.equity));
  return c;
}

/** Largest (peak − equity) / peak over the series (EquityCurve.maxDrawdown). */
export function maxDrawdown(equity: readonly EquityPoint[]): Decimal {
  return curveOf(equity).maxDrawdown();
}

/** Union of the spans, clipped to [fromMs, toMs], over the run's length; 0 for an empty run. */
export function exposure(spans: readonly TimeSpan[], fromMs: number, toMs: number): Decimal {
  if (toMs <= fromMs) return ZERO;
  const clipped = spans
    .map((s) => ({ fromMs: Math.max(s.fromMs, fromMs), toMs: Math.min(s.toMs, toMs) }))
    .filter((s) => s.toMs > s.fromMs)
    .sort((a, b) => a.fromMs - b.fromMs || a.toMs - b.toMs);
  let covered = 0;
  let end = -Infinity;
  for (const s of clipped) {
    const start = Math.max(s.fromMs, end);
    if (s.toMs > start) covered += s.toMs - start;
    end = Math.max(end, s.toMs);
  }
  return new Decimal(covered).div(toMs - fromMs);
}

/**
 * The equity series the daily returns are taken on: the first point (the opening equity), then
 * the last point of every UTC day that has points; when the first day's last point is the opening
 * point itself, it is not counted twice. Days without a point are not invented.
 */
export function dailyCloses(equity: readonly EquityPoint[]): Decimal[] {
  return curveOf(equity).dailyCloses();
}

/** Returns from one daily close to the next; null when a close is not above zero (a return on nothing is undefined). */
export function dailyReturns(equity: readonly EquityPoint[]): Decimal[] | null {
  return returnsOf(dailyCloses(equity));
}

function returnsOf(closes: readonly Decimal[]): Decimal[] | null {
  const out: Decimal[] = [];
  for (let i = 1; i < closes.length; i++) {
    const prev = closes[i - 1] as Decimal;
    if (!prev.gt(0)) return null;
    out.push((closes[i] as Decimal).div(prev).minus(1));
  }
  return out;
}

/**
 * mean / sample standard deviation of the daily returns × √365 (crypto trades every day).
 * Null with fewer than two returns, a zero standard deviation, or a close not above zero (a
 * return on nothing is undefined).
 */
export function sharpeDaily(equity: readonly EquityPoint[]): string | null {
  return sharpeOf(curveOf(equity));
}

/** sharpeDaily of a curve. */
export function sharpeOf(curve: EquityCurve): string | null {
  const returns = returnsOf(curve.dailyCloses());
  if (returns === null || returns.length < 2) return null;
  const mean = sum(returns).div(returns.length);
  const variance = sum(returns.map((r) => r.minus(mean).pow(2))).div(returns.length - 1);
  if (variance.isZero()) return null;
  // Decimal.sqrt is correctly rounded at the configured precision: the same on every machine.
  return ratio(mean.div(variance.sqrt()).mul(new Decimal(365).sqrt()));
}
