/**
 * Hand-made optimisation study results (`StudyResult`, src/optimize/types.ts) for the report and
 * anything else that reads `result.json`: a grid study over four params (a range, a list of
 * decimal strings, a boolean, a list of texts one of which is HTML that must stay inert), a
 * walk-forward study with three folds, overfitting flags and a failed trial, and a study in which
 * every trial failed. Figures follow one deterministic rule per trial (a linear congruential
 * generator, integer cents), consistent with each other: net = realised − fees + unrealised.
 */
import { Decimal, toWire } from '../../src/core/decimal.js';
import type { BacktestMetrics, EquityPoint } from '../../src/backtest/result.js';
import type { ParamValues, StudyResult, TrialWindow, WalkForwardFold } from '../../src/optimize/types.js';

export const INJECTION_VALUE = '<script>window.pwned=1</script>';
export const INJECTION_PARAM = 'mode"><img src=x onerror="window.pwned=2">';
export const STUDY_FROM_MS = Date.UTC(2026, 0, 5);
const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

type Trial = StudyResult['trials'][number];

/** Deterministic pseudo-random integers in [0, 2^31). */
function lcg(seed: number): () => number {
  let x = seed;
  return () => {
    x = (x * 1103515245 + 12345) % 2147483648;
    return x;
  };
}

const cents = (n: number): Decimal => new Decimal(n).div(100);

/** Figures of a trial that made `netCents` over `trades` round trips (no round trip: no ratio). */
export function studyMetrics(netCents: number, trades: number, salt: number): BacktestMetrics {
  const net = cents(netCents);
  const fees = cents(trades * 85 + (salt % 7) * 13);
  const unrealised = trades === 0 ? new Decimal(0) : cents(((salt % 5) - 2) * 317);
  const afterFees = net.minus(unrealised);
  const wins = Math.min(trades, Math.floor((trades * (40 + (salt % 30))) / 100));
  return {
    realisedPnl: toWire(afterFees.plus(fees)),
    fees: toWire(fees),
    realisedPnlAfterFees: toWire(afterFees),
    unrealisedPnl: toWire(unrealised),
    flexEarnings: '0',
    netPnl: toWire(net),
    orders: trades * 2 + (salt % 4),
    fills: trades * 2,
    trades,
    winRate: trades === 0 ? null : toWire(new Decimal(wins).div(trades).toDecimalPlaces(4)),
    maxDrawdown: toWire(new Decimal('0.02').plus(new Decimal(salt % 9).mul('0.011'))),
    exposure: toWire(new Decimal(trades === 0 ? 0 : 30 + (salt % 50)).div(100)),
    sharpeDaily: trades === 0 ? null : toWire(net.div(40).toDecimalPlaces(4)),
  };
}

/** Hourly equity from 10 000 (or `startCents`) to that plus `netCents`, wandering on the way. */
export function equityCurve(fromMs: number, toMs: number, netCents: number, seed: number, startCents = 1_000_000): EquityPoint[] {
  const next = lcg(seed);
  const steps = Math.floor((toMs - fromMs) / HOUR_MS);
  const out: EquityPoint[] = [];
  let noise = 0;
  for (let i = 0; i <= steps; i++) {
    noise += (next() % 4001) - 2000;
    const drift = Math.round((netCents * i) / steps);
    // The wander fades out so the curve ends exactly at the trial's net PnL.
    const wander = Math.round((noise * (steps - i)) / steps / 4);
    out.push({ timeMs: fromMs + i * HOUR_MS, equity: toWire(cents(startCents + drift + wander)) });
  }
  return out;
}

const INPUTS: StudyResult['inputs'] = {
  configSha256: '3f1c0a9d5b7e2f4a6c8e0b1d3f5a7c9e1b3d5f7a9c1e3b5d7f9a1c3e5b7d9f1a',
  prices: 'data/prices/',
  pricesSha256: '9b2e4d6f8a0c2e4b6d8f0a2c4e6b8d0f2a4c6e8b0d2f4a6c8e0b2d4f6a8c0e2b',
  strategySha256: 'c7d9e1f3a5b7c9d1e3f5a7b9c1d3e5f7a9b1c3d5e7f9a1b3c5d7e9f1a3b5c7d9',
  strategy: 'breakout-btc',
  backtestFlags: ['--fill-when', 'trade-through', '--job-resolution', 'fire'],
};

function byObjective(a: Trial, b: Trial): number {
  if (a.objective === null || b.objective === null) return (a.objective === null ? 1 : 0) - (b.objective === null ? 1 : 0);
  return new Decimal(b.objective).comparedTo(a.objective) || a.index - b.index;
}

interface GridParams {
  lookback: number;
  thresholdPct: string;
  useStop: boolean;
  mode: string;
}

/** The rule every fixture trial follows: some params do better, and noise on top. */
function gridOutcome(p: GridParams, index: number): { netCents: number; trades: number } {
  const next = lcg(index * 7919 + 17);
  next();
  const noise = (next() % 4001) - 2000;
  const base = (p.lookback === 20 || p.lookback === 30 ? 4000 : -1500) + ({ '0.5': 600, '1': 2500, '2': -800 }[p.thresholdPct] ?? 0)
    + (p.useStop ? 900 : -300) + (p.mode === 'close' ? 0 : -1200);
  const trades = p.mode !== 'close' && p.thresholdPct === '2' && !p.useStop ? 0 : 5 + ((index * 7) % 40);
  return { netCents: trades === 0 ? 0 : base + noise, trades };
}

function trialOf(index: number, params: ParamValues, window: TrialWindow, metrics: BacktestMetrics, objective: string | null): Trial {
  return { index, key: new Decimal(index).plus(1e12).toFixed().padStart(64, 'a'), params, window, objective, metrics };
}

/** 48 trials (4 × 3 × 2 × 2) over 30 days, objective Sharpe; four trials close no round trip (objective null). */
export function gridStudy(): StudyResult {
  const window: TrialWindow = { fromMs: STUDY_FROM_MS, toMs: STUDY_FROM_MS + 30 * DAY_MS, fold: null, phase: 'full' };
  const trials: Trial[] = [];
  for (const lookback of [10, 20, 30, 40]) {
    for (const thresholdPct of ['0.5', '1', '2']) {
      for (const useStop of [true, false]) {
        for (const mode of ['close', INJECTION_VALUE]) {
          const index = trials.length;
          const { netCents, trades } = gridOutcome({ lookback, thresholdPct, useStop, mode }, index);
          const metrics = studyMetrics(netCents, trades, index);
          trials.push(trialOf(index, { lookback, thresholdPct, useStop, mode }, window, metrics, metrics.sharpeDaily));
        }
      }
    }
  }
  const top = [...trials].sort(byObjective)[0] as Trial;
  return {
    version: 1,
    study: 'breakout-grid',
    objective: 'sharpe',
    search: 'grid',
    seed: 42,
    inputs: INPUTS,
    space: {
      strategy: INPUTS.strategy,
      params: [
        { name: 'lookback', domain: { kind: 'range', min: '10', max: '40', step: '10', integer: true } },
        { name: 'thresholdPct', domain: { kind: 'values', values: ['0.5', '1', '2'] } },
        { name: 'useStop', domain: { kind: 'values', values: [true, false] } },
        { name: 'mode', domain: { kind: 'values', values: ['close', INJECTION_VALUE] } },
      ],
    },
    trials,
    best: { params: top.params, objective: top.objective, metrics: top.metrics, equity: equityCurve(window.fromMs, window.toMs, Number(new Decimal(top.metrics.netPnl).mul(100)), 5) },
    walkForward: null,
    flags: [],
    failures: [],
  };
}

const WF_FOLDS = 3;
const TRAIN_DAYS = 20;
const TEST_DAYS = 10;
const WF_VARIANTS = ['fast', 'slow'];

function calmar(m: BacktestMetrics): string | null {
  if (m.trades === 0) return null;
  return toWire(new Decimal(m.netPnl).div(new Decimal(m.maxDrawdown).mul(10_000)).toDecimalPlaces(4));
}

function foldWindows(fold: number): { train: TrialWindow; test: TrialWindow } {
  const trainFrom = STUDY_FROM_MS + (fold - 1) * TEST_DAYS * DAY_MS;
  const testFrom = trainFrom + TRAIN_DAYS * DAY_MS;
  return {
    train: { fromMs: trainFrom, toMs: testFrom, fold, phase: 'train' },
    test: { fromMs: testFrom, toMs: testFrom + TEST_DAYS * DAY_MS, fold, phase: 'test' },
  };
}

function trainOutcome(params: ParamValues, fold: number, index: number): BacktestMetrics {
  const next = lcg(index * 104_729 + fold);
  next();
  const base = (params['lookback'] === 20 ? 5200 : 800) + ({ '0.25': -600, '1': 1800, '4': 300 }[String(params['thresholdPct'])] ?? 0)
    + (params[INJECTION_PARAM] === 'fast' ? 700 : -400);
  const trades = params['thresholdPct'] === '4' && params[INJECTION_PARAM] === 'slow' ? 2 : 8 + ((index * 5) % 30);
  return studyMetrics(base + (next() % 3001) - 1500, trades, index);
}

/** Out of sample the chosen params keep part of their edge; fold 2 loses it all (the flagged fold). */
function testOutcome(inSample: BacktestMetrics, fold: number, index: number): BacktestMetrics {
  const keep = fold === 2 ? -35 : 45;
  const net = new Decimal(inSample.netPnl).mul(100).mul(keep).div(100).round().toNumber();
  return studyMetrics(net, Math.max(3, Math.floor(inSample.trades / 3)), index);
}

interface WalkForwardParts {
  trials: Trial[];
  folds: WalkForwardFold[];
  failures: NonNullable<StudyResult['failures']>;
  stitched: EquityPoint[];
}

function walkForwardParts(): WalkForwardParts {
  const parts: WalkForwardParts = { trials: [], folds: [], failures: [], stitched: [] };
  let index = 0;
  let startCents = 1_000_000;
  for (let fold = 1; fold <= WF_FOLDS; fold++) {
    const { train, test } = foldWindows(fold);
    const trained: Trial[] = [];
    for (const lookback of [10, 20, 30]) {
      for (const thresholdPct of ['0.25', '1', '4']) {
        for (const variant of WF_VARIANTS) {
          const params = { lookback, thresholdPct, [INJECTION_PARAM]: variant };
          if (fold === 3 && lookback === 30 && thresholdPct === '0.25' && variant === 'slow') {
            parts.failures.push({ index, key: `failed-${index}`, params, window: train, error: "strategy error in onTick: Cannot read properties of undefined (reading 'close') <at line 41>" });
          } else {
            const metrics = trainOutcome(params, fold, index);
            trained.push(trialOf(index, params, train, metrics, calmar(metrics)));
          }
          index += 1;
        }
      }
    }
    const chosen = [...trained].sort(byObjective)[0] as Trial;
    const testMetrics = testOutcome(chosen.metrics, fold, index);
    const tested = trialOf(index, chosen.params, test, testMetrics, calmar(testMetrics));
    index += 1;
    parts.trials.push(...trained, tested);
    parts.folds.push({ fold, train, test, bestParams: chosen.params, inSample: chosen.objective, outOfSample: tested.objective, testMetrics });
    const netCents = new Decimal(testMetrics.netPnl).mul(100).toNumber();
    parts.stitched.push(...equityCurve(test.fromMs, test.toMs, netCents, fold * 31, startCents).slice(fold === 1 ? 0 : 1));
    startCents += netCents;
  }
  return parts;
}

/** Three folds (train 20 days, test 10 days) of 18 params each, objective Calmar, three flags and one failed trial. */
export function walkForwardStudy(): StudyResult {
  const parts = walkForwardParts();
  const last = parts.folds[parts.folds.length - 1] as WalkForwardFold;
  const chosen = parts.trials.find((t) => t.window.fold === last.fold && t.window.phase === 'train' && t.objective === last.inSample) as Trial;
  return {
    version: 1,
    study: 'breakout-wf',
    objective: 'calmar',
    search: 'random',
    seed: 7,
    inputs: INPUTS,
    space: {
      strategy: INPUTS.strategy,
      params: [
        { name: 'lookback', domain: { kind: 'range', min: '10', max: '30', step: '10', integer: true } },
        { name: 'thresholdPct', domain: { kind: 'log', min: '0.25', max: '4', steps: 3, integer: false } },
        { name: INJECTION_PARAM, domain: { kind: 'values', values: WF_VARIANTS } },
      ],
    },
    trials: parts.trials,
    best: { params: chosen.params, objective: chosen.objective, metrics: chosen.metrics, equity: equityCurve(chosen.window.fromMs, chosen.window.toMs, 4200, 3) },
    walkForward: { folds: parts.folds, stitchedEquity: parts.stitched },
    flags: [
      { code: 'oos_far_below_is', message: 'Out of sample the chosen params lost money while in sample they made the best calmar of the fold.', fold: 2 },
      { code: 'few_trades', message: 'The test window closed fewer than 10 round trips: its objective rests on too few trades <to trust>.', fold: 1 },
      { code: 'params_unstable', message: 'The chosen lookback changed between folds.', fold: null },
    ],
    failures: parts.failures,
  };
}

/** A study whose every trial failed (the data changed under the workers): no trial, no best, no walk-forward. */
export function failedStudy(): StudyResult {
  const window: TrialWindow = { fromMs: STUDY_FROM_MS, toMs: STUDY_FROM_MS + 30 * DAY_MS, fold: null, phase: 'full' };
  const failures = [10, 20, 30].map((lookback, index) => ({
    index, key: `failed-${index}`, params: { lookback }, window, error: `prices refused: SHA-256 ${'0'.repeat(12)}… differs from the study's ${INPUTS.pricesSha256.slice(0, 12)}…`,
  }));
  return {
    version: 1,
    study: 'breakout-failed',
    objective: 'net',
    search: 'grid',
    seed: 1,
    inputs: INPUTS,
    space: { strategy: INPUTS.strategy, params: [{ name: 'lookback', domain: { kind: 'range', min: '10', max: '30', step: '10', integer: true } }] },
    trials: [],
    best: null,
    walkForward: null,
    flags: [],
    failures,
  };
}
