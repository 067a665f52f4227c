/**
 * A small study over the sample prices for the optimiser's executor tests: config/bot.json's grid
 * instance tuned over two params, a window of a few hours, and the StudyInputs a coordinator
 * would hand its executor (hashes from this machine's files).
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { studyHashes } from '../../../src/optimize/hashes.js';
import type { ParamValues, StudyInputs, TrialFailure, TrialOutcome, TrialSpec, TrialWindow } from '../../../src/optimize/types.js';

export const PRICES = 'samples/prices';
export const STRATEGY = 'grid1';
export const FROM_MS = Date.UTC(2024, 0, 1);

export function studyInputs(hours = 2, configText = readFileSync('config/bot.json', 'utf8')): StudyInputs & { window: TrialWindow } {
  return {
    configText,
    prices: PRICES,
    strategy: STRATEGY,
    backtestFlags: ['--job-resolution', 'step'],
    ...studyHashes(configText, PRICES, STRATEGY),
    window: { fromMs: FROM_MS, toMs: FROM_MS + hours * 3_600_000, fold: null, phase: 'full' },
  };
}

/** A trial as the coordinator makes it: its key hashes the inputs' hashes, params, window and seed. */
export function trialSpec(inputs: StudyInputs, index: number, params: ParamValues, window: TrialWindow, seed = 7): TrialSpec {
  const key = createHash('sha256')
    .update(JSON.stringify([inputs.configSha256, inputs.pricesSha256, inputs.strategySha256, params, window, seed]))
    .digest('hex');
  return { key, index, params, window, seed };
}

/** `n` trials over spacing and levels. */
export function gridTrials(inputs: StudyInputs & { window: TrialWindow }, n: number): TrialSpec[] {
  const spacings = ['0.1', '0.2', '0.3', '0.5'];
  return Array.from({ length: n }, (_, i) => trialSpec(inputs, i, { spacingPct: spacings[i % spacings.length] as string, levels: 2 + Math.floor(i / 4) }, inputs.window));
}

type End = { ok: true; outcome: TrialOutcome } | { ok: false; failure: TrialFailure };

/** What must not depend on where a trial ran, by trial key: everything but its wall time and slot. */
export function comparable(ends: readonly End[]): Map<string, unknown> {
  return new Map<string, unknown>(
    ends.map((e) => (e.ok ? [e.outcome.key, { metrics: e.outcome.metrics, equity: e.outcome.equity, pnls: e.outcome.tradePnls }] : [e.failure.key, e.failure])),
  );
}
