/**
 * Walk-forward windows and the overfitting flags (docs/optimize.md § Walk-forward).
 *
 * Fold k (0-based) trains on [start + k·test, + train) and tests on the `test` days right after;
 * the folds roll forward by one test window, so the test windows tile the data without overlap
 * and their equities can be stitched.
 */
import { Decimal, dec, toWire } from '../core/decimal.js';
import { ConfigError } from '../core/errors.js';
import type { EquityPoint } from '../backtest/result.js';
import { domainValues } from './space.js';
import type { OverfitFlag, ParamValue, SearchSpace, WalkForwardFold } from './types.js';

export const DAY_MS = 86_400_000;

/** The out-of-sample objective is flagged below this share of the in-sample one (or of the other sign). */
export const OOS_SHARE = new Decimal('0.5');
/** A chosen value moving more than this share of its param's range between folds is flagged. */
export const PARAM_JUMP_SHARE = new Decimal('0.5');
/** A window with fewer closed round trips than this is flagged: its figures say little. */
export const MIN_TRADES = 5;

export interface WalkForwardPlan {
  folds: number;
  trainDays: number;
  testDays: number;
}

export interface FoldWindow {
  fold: number;
  train: { fromMs: number; toMs: number };
  test: { fromMs: number; toMs: number };
}

/** The K folds over [fromMs, toMs); a plan that does not fit the data is a ConfigError saying what it needs. */
export function foldWindows(plan: WalkForwardPlan, fromMs: number, toMs: number): FoldWindow[] {
  const train = plan.trainDays * DAY_MS;
  const test = plan.testDays * DAY_MS;
  const needed = train + plan.folds * test;
  if (fromMs + needed > toMs) {
    const haveDays = new Decimal(toMs - fromMs).div(DAY_MS).toDecimalPlaces(2, Decimal.ROUND_DOWN).toFixed();
    const needDays = plan.trainDays + plan.folds * plan.testDays;
    throw new ConfigError(
      `command line: --walk-forward: ${plan.folds} folds of ${plan.trainDays} train + ${plan.testDays} test days need ${needDays} days of data ` +
        `(train + folds × test), the prices span ${haveDays} days from ${new Date(fromMs).toISOString()}`,
    );
  }
  return Array.from({ length: plan.folds }, (_, k) => {
    const trainFrom = fromMs + k * test;
    return { fold: k, train: { fromMs: trainFrom, toMs: trainFrom + train }, test: { fromMs: trainFrom + train, toMs: trainFrom + train + test } };
  });
}

/**
 * The folds' test equities chained by PnL: each fold's curve is shifted so it starts where the
 * previous one ended. By PnL, not multiplicatively, because every trial starts from the config's
 * balances and trades fixed amounts: a fold's gains do not grow the next fold's positions.
 */
export function stitchEquity(foldEquities: readonly (readonly EquityPoint[])[]): EquityPoint[] {
  const out: EquityPoint[] = [];
  for (const curve of foldEquities) {
    const first = curve[0];
    if (first === undefined) continue;
    const end = out[out.length - 1];
    const shift = end === undefined ? new Decimal(0) : dec(end.equity).minus(dec(first.equity));
    for (const p of curve) out.push({ timeMs: p.timeMs, equity: toWire(dec(p.equity).plus(shift)) });
  }
  return out;
}

/** Flags folds whose out-of-sample objective is below OOS_SHARE of a positive in-sample one, or missing. */
export function oosFlags(folds: readonly Pick<WalkForwardFold, 'fold' | 'inSample' | 'outOfSample'>[]): OverfitFlag[] {
  return folds.flatMap((f): OverfitFlag[] => {
    if (f.inSample === null || !dec(f.inSample).gt(0)) return [];
    if (f.outOfSample !== null && dec(f.outOfSample).gte(dec(f.inSample).mul(OOS_SHARE))) return [];
    const oos = f.outOfSample ?? 'undefined';
    const why = f.outOfSample !== null && dec(f.outOfSample).lt(0) ? 'the sign flipped' : `below ${OOS_SHARE.mul(100).toFixed()} % of it`;
    return [{ code: 'oos_far_below_is', fold: f.fold, message: `fold ${f.fold}: out-of-sample objective ${oos} against in-sample ${f.inSample} (${why})` }];
  });
}

/** A numeric domain's span (max − min) and a value's position, or null for a non-numeric domain. */
function numericSpan(values: readonly ParamValue[]): Decimal | null {
  const nums: Decimal[] = [];
  for (const v of values) {
    const d = toDecimal(v);
    if (d === null) return null;
    nums.push(d);
  }
  if (nums.length < 2) return null;
  return Decimal.max(...nums).minus(Decimal.min(...nums));
}

function toDecimal(v: ParamValue | undefined): Decimal | null {
  if (typeof v === 'number' && Number.isFinite(v)) return new Decimal(v.toString());
  if (typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v)) return new Decimal(v);
  return null;
}

/** Flags a numeric param whose chosen value moves by more than PARAM_JUMP_SHARE of its range between consecutive folds. */
export function paramFlags(space: SearchSpace, folds: readonly Pick<WalkForwardFold, 'fold' | 'bestParams'>[]): OverfitFlag[] {
  const out: OverfitFlag[] = [];
  for (const { name, domain } of space.params) {
    const span = numericSpan(domainValues(domain));
    if (span === null || span.isZero()) continue;
    for (let i = 1; i < folds.length; i++) {
      const [prev, cur] = [folds[i - 1], folds[i]] as [Pick<WalkForwardFold, 'fold' | 'bestParams'>, Pick<WalkForwardFold, 'fold' | 'bestParams'>];
      const a = toDecimal(prev.bestParams[name]);
      const b = toDecimal(cur.bestParams[name]);
      if (a === null || b === null || !b.minus(a).abs().gt(span.mul(PARAM_JUMP_SHARE))) continue;
      out.push({
        code: 'params_unstable',
        fold: cur.fold,
        message: `fold ${cur.fold}: ${name} jumped from ${String(prev.bestParams[name])} to ${String(cur.bestParams[name])}, more than half its range`,
      });
    }
  }
  return out;
}

/** Flags a window whose chosen trial closed fewer than MIN_TRADES round trips. */
export function fewTradesFlag(trades: number, fold: number | null, window: string): OverfitFlag[] {
  if (trades >= MIN_TRADES) return [];
  const where = fold === null ? window : `fold ${fold} ${window}`;
  return [{ code: 'few_trades', fold, message: `${where}: the chosen params closed ${trades} round trips (fewer than ${MIN_TRADES}); its figures say little` }];
}
