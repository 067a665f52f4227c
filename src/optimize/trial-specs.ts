/**
 * A study's trials as `TrialSpec`s. The key is the SHA-256 of the canonical JSON of what decides
 * a trial's outcome (the inputs' content hashes, the backtest flags, the params, the window and the
 * seed), so the same trial has the same key on every run and machine: the study store skips a key
 * it holds, and the executors' workers can check they run what was asked.
 */
import { createHash } from 'node:crypto';
import { canonicalJson } from './study-store.js';
import type { ParamValues, StudyInputs, TrialSpec, TrialWindow } from './types.js';

export function trialKey(inputs: StudyInputs, params: ParamValues, window: TrialWindow, seed: number): string {
  const identity = {
    configSha256: inputs.configSha256,
    pricesSha256: inputs.pricesSha256,
    strategySha256: inputs.strategySha256,
    strategy: inputs.strategy,
    backtestFlags: inputs.backtestFlags,
    params,
    window,
    seed,
  };
  return createHash('sha256').update(canonicalJson(identity)).digest('hex');
}

/** Specs for `points` over one window, numbered from `firstIndex`. */
export function trialSpecs(inputs: StudyInputs, points: readonly ParamValues[], window: TrialWindow, seed: number, firstIndex: number): TrialSpec[] {
  return points.map((params, i) => ({ key: trialKey(inputs, params, window, seed), index: firstIndex + i, params, window, seed }));
}
