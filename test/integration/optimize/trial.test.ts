/**
 * `runTrial` (src/optimize/trial.ts): the same figures as `npm run backtest` for the same params,
 * seed and window; a param value the strategy's schema rejects is a TrialFailure; data whose
 * hash differs from the study's is refused before anything runs.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseArgs } from '../../../src/backtest/args.js';
import { backtest } from '../../../src/backtest/index.js';
import type { BacktestResult } from '../../../src/backtest/result.js';
import { silentLogger } from '../../../src/observability/logger.js';
import { runTrial, TrialError, TRIAL_EQUITY_POINTS } from '../../../src/optimize/trial.js';
import { tempDir } from '../../support/temp-dir.js';
import { STRATEGY, studyInputs, trialSpec } from './study-fixture.js';

async function trialError(run: Promise<unknown>): Promise<TrialError> {
  const err = await run.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(TrialError);
  return err as TrialError;
}

describe('runTrial', () => {
  it("gives npm run backtest's figures for the tuned instance alone, with the trial's params and seed", async () => {
    const inputs = studyInputs(3);
    const params = { spacingPct: '0.1', levels: 4 };
    const spec = trialSpec(inputs, 0, params, inputs.window, 11);
    const outcome = await runTrial(inputs, spec);

    // The backtest of a config file holding only that instance, with those params and that seed.
    const dir = tempDir('v4bot-trial-');
    const config = JSON.parse(inputs.configText) as { strategies: Array<{ id: string; params: object }>; paper: object };
    const grid = config.strategies.find((s) => s.id === STRATEGY) as { params: object };
    const file = path.join(dir, 'bot.json');
    writeFileSync(file, JSON.stringify({ ...config, strategies: [{ ...grid, params: { ...grid.params, ...params } }], paper: { ...config.paper, seed: 11 } }));
    const iso = (ms: number): string => new Date(ms).toISOString();
    const args = parseArgs(['--config', file, '--prices', inputs.prices, '--from', iso(inputs.window.fromMs), '--to', iso(inputs.window.toMs), '--out', dir, '--job-resolution', 'step']);
    const reference = await backtest(args, silentLogger());

    expect(reference.result.strategies[STRATEGY]?.trades).toBeGreaterThan(0);
    expect(outcome.metrics).toEqual(reference.result.strategies[STRATEGY]);
    const written = JSON.parse(readFileSync(path.join(dir, 'result.json'), 'utf8')) as BacktestResult;
    const pnls = written.trades.filter((t) => t.strategy === STRATEGY).map((t) => t.pnl);
    expect(outcome.tradePnls).toEqual(pnls);
    expect(outcome.equity.length).toBeLessThanOrEqual(TRIAL_EQUITY_POINTS);
    expect(outcome.equity[0]).toEqual(reference.result.equity[0]);
    expect(outcome.equity.at(-1)).toEqual(reference.result.equity.at(-1));
    expect(outcome.key).toBe(spec.key);
  }, 180_000);

  it('turns a param value the schema rejects into a TrialFailure naming the param', async () => {
    const inputs = studyInputs(1);
    const spec = trialSpec(inputs, 0, { levels: -3 }, inputs.window);
    const err = await trialError(runTrial(inputs, spec));
    expect(err.refused).toBe(false);
    expect(err.failure.key).toBe(spec.key);
    expect(err.failure.error).toMatch(/strategies\[0\]\.params\.levels/);
  }, 60_000);

  it('refuses data whose hash differs from the study, before running anything', async () => {
    const inputs = studyInputs(1);
    // A rejected param too: refusing comes first, so the error is about the data, not the param.
    const spec = trialSpec(inputs, 0, { levels: -3 }, inputs.window);
    const dir = tempDir('v4bot-trial-prices-');
    // Same name, one byte different: the study's prices hash no longer matches this copy.
    const csv = readFileSync(path.join(inputs.prices, 'BTC_USDT.csv'), 'utf8');
    writeFileSync(path.join(dir, 'BTC_USDT.csv'), csv.replace('59940.82', '59940.83'));
    const err = await trialError(runTrial({ ...inputs, prices: dir }, spec));
    expect(err.refused).toBe(true);
    expect(err.failure.error).toMatch(/^data differs from the study's: prices/);
    // The config too: one changed character is refused the same way.
    const edited = await trialError(runTrial({ ...inputs, configText: inputs.configText.replace('"levels": 3', '"levels": 5') }, spec));
    expect(edited.refused).toBe(true);
    expect(edited.failure.error).toMatch(/^data differs from the study's: config/);
  }, 60_000);
});
