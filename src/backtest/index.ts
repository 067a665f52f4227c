/**
 * `backtest(args)`: load the config, strategies and prices, run, and write result.json,
 * report.html and venue-fills.json into the output directory. Used by src/cli/backtest.ts.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../config/index.js';
import { loadConfiguredStrategies } from '../daemon/strategies.js';
import type { Logger } from '../observability/logger.js';
import type { BacktestArgs } from './args.js';
import { warmUpEnd } from './candle-input.js';
import { buildResult, truthFills } from './collect.js';
import { describeFillModel, type FillModel } from './fill-model.js';
import { loadPrices, type PriceSeries } from './load-prices.js';
import { renderReport } from './output.js';
import type { BacktestResult } from './result.js';
import { runBacktest, type Progress, type RunInputs } from './run.js';
import { pathFor } from './sim-venue.js';
import { runSpan } from './span.js';
import { paperMarketNames } from '../daemon/paper-venue.js';

export interface BacktestSummary {
  result: BacktestResult;
  outDir: string;
  /** Clock jumps to a timer the engine waited on (rate limit, back-off); 0 in a normal run. */
  timerJumps: number;
  /** Scheduled job fires run (the pace of a run is set by these: docs/backtesting.md § Speed). */
  jobsRun: number;
  /** Jobs scheduled more often than the candles (one fire per candle under `--job-resolution step`). */
  finerJobs: string[];
  /** Ticks of strategies on a candle schedule (one per closed candle). */
  candleTicks: number;
}

export async function backtest(args: BacktestArgs, logger: Logger, onProgress?: (p: Progress) => void): Promise<BacktestSummary> {
  // The daemon's own loader and checks; BOT_MODE is paper whatever the environment says.
  const env: Record<string, string | undefined> = { ...process.env, BOT_CONFIG: args.config, BOT_MODE: 'paper' };
  delete env['API_KEY'];
  delete env['API_SECRET'];
  delete env['API_BASE_URL'];
  delete env['RATE_LIMIT_REDIS_URL'];
  const config = loadConfig({ env, cwd: process.cwd() });
  const strategies = await loadConfiguredStrategies(config);
  const prices = loadPrices(args.prices);
  const used = new Set(paperMarketNames(config).map((name) => pathFor(name, prices.series)));
  const given = runSpan([...used].sort().map((m) => prices.series.get(m) as PriceSeries), args.fromMs, args.toMs);
  // Declared candle history: the input's first candles fill it, and the run starts after them.
  const warmUp = warmUpEnd(strategies, prices.series, given.fromMs, given.toMs);
  const span = warmUp === null ? given : { ...given, fromMs: warmUp.untilMs };
  const model: FillModel = { ...args.fill, volumePerStep: args.fill.volumePerStep ?? config.paper.volumePerStep };
  const configBytes = readFileSync(args.config);
  const inputs = {
    configFile: args.config,
    configSha256: createHash('sha256').update(configBytes).digest('hex'),
    prices: prices.files,
    fromMs: span.fromMs,
    toMs: span.toMs,
    // How jobs were fired is part of how the run was simulated: recorded beside the fill model.
    fillModel: { ...describeFillModel(model, span.stepMs), jobResolution: args.jobResolution },
    ...(warmUp === null ? {} : { warmUp }),
  };
  const { jobResolution, venue, strategiesIn } = args;
  const run: RunInputs = { config, strategies, prices, span, model, logger, jobResolution, venue, strategiesIn };
  if (onProgress !== undefined) run.onProgress = onProgress;
  const out = await runBacktest(run, (state) => ({
    // Which schedules were finer than the candles, and so coalesced under `step`: said in the result.
    result: buildResult(state, { ...inputs, fillModel: { ...inputs.fillModel, finerSchedules: state.finerJobs.join(',') } }),
    finerJobs: state.finerJobs,
    truth: truthFills(state),
    timerJumps: state.timerJumps,
    jobsRun: state.jobsRun,
    candleTicks: state.candleTicks,
  }));
  mkdirSync(args.out, { recursive: true });
  writeFileSync(path.join(args.out, 'result.json'), `${JSON.stringify(out.result, null, 2)}\n`);
  writeFileSync(path.join(args.out, 'report.html'), renderReport(out.result));
  writeFileSync(path.join(args.out, 'venue-fills.json'), `${JSON.stringify(out.truth, null, 2)}\n`);
  const { timerJumps, jobsRun, finerJobs, candleTicks } = out;
  return { result: out.result, outDir: args.out, timerJumps, jobsRun, finerJobs, candleTicks };
}
