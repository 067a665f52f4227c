/**
 * The optimiser's shared shapes (docs/optimize.md): the parsed search space, one trial to run,
 * its outcome, the executor port that runs trials (local worker processes or BullMQ over Redis),
 * and the study result written to `result.json` and drawn by `report.html`.
 *
 * Every amount and ratio is a decimal string (never a JS number); every time is Unix ms (UTC).
 */
import type { BacktestMetrics, EquityPoint } from '../backtest/result.js';

/** A value a strategy param can take in a trial (validated by the strategy's own schema). */
export type ParamValue = string | number | boolean;

/** One trial's assignment: param name → value. Keys are a subset of the strategy's params. */
export type ParamValues = Readonly<Record<string, ParamValue>>;

/** How one param is searched, after parsing and checking the space file. */
export type ParamDomain =
  /** Evenly spaced from `min` to `max` inclusive by `step` (decimal strings; integers when all three are). */
  | { kind: 'range'; min: string; max: string; step: string; integer: boolean }
  /** Exactly these values, in this order. */
  | { kind: 'values'; values: readonly ParamValue[] }
  /** `steps` points from `min` to `max` inclusive, evenly spaced in log space (decimal strings). */
  | { kind: 'log'; min: string; max: string; steps: number; integer: boolean };

export interface SearchSpace {
  /** The strategy instance id in the config whose params are tuned. */
  strategy: string;
  /** Param name → domain, in the space file's order. */
  params: ReadonlyArray<{ name: string; domain: ParamDomain }>;
}

export type ObjectiveName = 'sharpe' | 'sortino' | 'calmar' | 'net' | 'profit-factor';

/** Where a trial's backtest runs over: the whole span, a walk-forward fold's train or test window. */
export interface TrialWindow {
  fromMs: number;
  toMs: number;
  /** null outside walk-forward. */
  fold: number | null;
  phase: 'full' | 'train' | 'test';
}

/**
 * What every trial of a study shares. Carried with each trial so a worker on another machine can
 * run it; the content hashes let that worker refuse data that differs from the coordinator's.
 */
export interface StudyInputs {
  /** The config file's text (JSON), so workers need no copy of it. */
  configText: string;
  configSha256: string;
  /** The price data's path as the coordinator named it (a file or a directory of <MARKET>.csv). */
  prices: string;
  /** SHA-256 over the price files' names and bytes, in sorted order. */
  pricesSha256: string;
  /** SHA-256 of the tuned strategy's module source. */
  strategySha256: string;
  strategy: string;
  /** Backtest settings every trial uses (fill model and job resolution, as backtest flags). */
  backtestFlags: readonly string[];
}

export interface TrialSpec {
  /** Stable identity: SHA-256 of the canonical JSON of (inputs hashes, params, window, seed). */
  key: string;
  /** Order of creation within the study (the report's trial number). */
  index: number;
  params: ParamValues;
  window: TrialWindow;
  seed: number;
}

export interface TrialOutcome {
  key: string;
  /** The tuned strategy's own figures over the trial's window. */
  metrics: BacktestMetrics;
  /** Account equity over the window, downsampled to at most 500 points. */
  equity: EquityPoint[];
  /** Each closed round trip's PnL after fees, in close order (profit factor, custom objectives). */
  tradePnls: string[];
  /** Wall time of the trial, for progress and the bench only (never part of a comparison). */
  elapsedMs: number;
  /** Which executor slot ran it (`local:3`, `redis:<host>:<pid>`), for the report only. */
  ranBy: string;
}

/** A trial that could not produce an outcome (strategy error, refused data); never retried blindly. */
export interface TrialFailure {
  key: string;
  error: string;
}

/** Runs trials somewhere. Implementations: local worker processes, BullMQ workers over Redis. */
export interface TrialExecutor {
  /** How many trials may run at once (for the progress bar and batching). */
  readonly slots: number;
  /**
   * Runs `trials` and reports each as it ends; resolves when all have ended or `signal` aborts
   * (then trials in flight are abandoned and not reported).
   */
  run(
    inputs: StudyInputs,
    trials: readonly TrialSpec[],
    onEnd: (end: { ok: true; outcome: TrialOutcome } | { ok: false; failure: TrialFailure }) => void,
    signal: AbortSignal,
  ): Promise<void>;
  close(): Promise<void>;
}

export interface OverfitFlag {
  /** e.g. `oos_far_below_is`, `params_unstable`, `few_trades`. */
  code: string;
  /** One sentence for the report and the terminal. */
  message: string;
  fold: number | null;
}

export interface WalkForwardFold {
  fold: number;
  train: { fromMs: number; toMs: number };
  test: { fromMs: number; toMs: number };
  bestParams: ParamValues;
  /** Objective value of the best params in the train window, and of the same params in the test window. */
  inSample: string | null;
  outOfSample: string | null;
  testMetrics: BacktestMetrics;
}

/** `result.json` of an optimisation run. */
export interface StudyResult {
  version: 1;
  study: string;
  objective: ObjectiveName | 'custom';
  search: 'grid' | 'random';
  seed: number;
  inputs: Omit<StudyInputs, 'configText'>;
  space: SearchSpace;
  trials: Array<{ index: number; key: string; params: ParamValues; window: TrialWindow; objective: string | null; metrics: BacktestMetrics }>;
  best: { params: ParamValues; objective: string | null; metrics: BacktestMetrics; equity: EquityPoint[] } | null;
  walkForward: { folds: WalkForwardFold[]; stitchedEquity: EquityPoint[] } | null;
  flags: OverfitFlag[];
  /**
   * Trials that produced no outcome (a `TrialFailure` each, with the spec it came from), by index.
   * Optional: a result that leaves it out reports its failures as not recorded.
   */
  failures?: Array<{ index: number; key: string; params: ParamValues; window: TrialWindow; error: string }>;
}
