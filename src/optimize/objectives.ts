/**
 * The built-in objectives (docs/optimize.md § Objectives), each a pure function of a trial's
 * outcome to a decimal string, or null when the figure is undefined (no trade, no variance, no
 * drawdown). Decimal throughout; ratios rounded like the backtest's (RATIO_DP, half even). Higher
 * is better for every objective; null ranks below every value.
 */
import { Decimal, ZERO, dec, sum } from '../core/decimal.js';
import { dailyReturns, maxDrawdown, ratio } from '../backtest/metrics.js';
import type { EquityPoint } from '../backtest/result.js';
import type { ObjectiveName, TrialOutcome } from './types.js';

export const OBJECTIVES: readonly ObjectiveName[] = ['sharpe', 'sortino', 'calmar', 'net', 'profit-factor'];

/** What an objective reads of an outcome. */
export type ObjectiveInput = Pick<TrialOutcome, 'metrics' | 'equity' | 'tradePnls'>;

const YEAR_MS = 365 * 86_400_000;

/**
 * Mean daily return over the downside deviation (root mean square of the returns below zero, over
 * all returns), × √365 like the Sharpe ratio. Null with fewer than two returns or no losing day.
 */
export function sortino(equity: readonly EquityPoint[]): string | null {
  const returns = dailyReturns(equity);
  if (returns === null || returns.length < 2) return null;
  const mean = sum(returns).div(returns.length);
  const downside = sum(returns.map((r) => (r.lt(0) ? r.pow(2) : ZERO))).div(returns.length);
  if (downside.isZero()) return null;
  return ratio(mean.div(downside.sqrt()).mul(new Decimal(365).sqrt()));
}

/**
 * Annualised return over the maximum drawdown. The return is last / first equity − 1, scaled
 * linearly to a year (trials trade fixed amounts, so PnL adds up rather than compounds). Null
 * with fewer than two points, a first equity not above zero, or no drawdown.
 */
export function calmar(equity: readonly EquityPoint[]): string | null {
  const first = equity[0];
  const last = equity[equity.length - 1];
  if (first === undefined || last === undefined || last.timeMs <= first.timeMs) return null;
  const start = dec(first.equity);
  if (!start.gt(0)) return null;
  const drawdown = maxDrawdown(equity);
  if (drawdown.isZero()) return null;
  const annual = dec(last.equity).div(start).minus(1).mul(YEAR_MS).div(last.timeMs - first.timeMs);
  return ratio(annual.div(drawdown));
}

/** Gross wins over gross losses of the round trips; null with no losing round trip (or none at all). */
export function profitFactor(tradePnls: readonly string[]): string | null {
  const pnls = tradePnls.map((p) => dec(p));
  const wins = sum(pnls.filter((p) => p.gt(0)));
  const losses = sum(pnls.filter((p) => p.lt(0))).abs();
  if (losses.isZero()) return null;
  return ratio(wins.div(losses));
}

/** The named objective of an outcome. */
export function objectiveValue(name: ObjectiveName, o: ObjectiveInput): string | null {
  switch (name) {
    case 'sharpe':
      // The backtest's own figure: computed on the full-resolution equity, not the downsampled one.
      return o.metrics.sharpeDaily;
    case 'sortino':
      return sortino(o.equity);
    case 'calmar':
      return calmar(o.equity);
    case 'net':
      return o.metrics.netPnl;
    case 'profit-factor':
      return profitFactor(o.tradePnls);
  }
}

/**
 * Orders two (objective, index) pairs best first: the higher objective wins, null last, and an
 * equal objective goes to the lower trial index, so the best trial is the same on every run.
 */
export function compareTrials(a: { objective: string | null; index: number }, b: { objective: string | null; index: number }): number {
  if (a.objective !== null && b.objective !== null) {
    const c = dec(b.objective).comparedTo(dec(a.objective));
    if (c !== 0) return c;
  } else if (a.objective !== b.objective) {
    return a.objective === null ? 1 : -1;
  }
  return a.index - b.index;
}
