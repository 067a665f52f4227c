/**
 * One backtest in memory: a loaded config, its strategies and prices in, the result out, no file
 * written. `backtest()` (index.ts) writes what this returns; an optimisation trial
 * (src/optimize/trial.ts) keeps only what it scores, so both run the same path.
 */
import type { BotConfig } from '../config/index.js';
import type { Logger } from '../observability/logger.js';
import type { LoadedStrategy } from '../strategy-api/host.js';
import type { BacktestArgs } from './args.js';
import { warmUpEnd } from './candle-input.js';
import { buildResult, truthFills, writeResultFiles, type ResultInputs, type TruthFill } from './collect.js';
import { describeFillModel, type FillModel } from './fill-model.js';
import type { PriceSeries, PriceSet } from './load-prices.js';
import type { BacktestResult, EquityPoint } from './result.js';
import type { ResultHead } from './result-file.js';
import { runBacktest, type Progress, type RunInputs, type RunState } from './run.js';
import type { RunWatch } from './run-watch.js';
import { pathFor } from './sim-venue.js';
import { runSpan } from './span.js';
import { paperMarketNames } from '../daemon/paper-venue.js';

export interface InMemoryInputs {
  config: BotConfig;
  /** The config file as named, and the SHA-256 of its bytes (recorded in the result). */
  configFile: string;
  configSha256: string;
  strategies: LoadedStrategy[];
  prices: PriceSet;
  /** The run's settings as parsed from backtest flags (the output directory is not used). */
  args: Pick<BacktestArgs, 'fromMs' | 'toMs' | 'fill' | 'jobResolution' | 'venue' | 'strategiesIn'>;
  logger: Logger;
  onProgress?: (p: Progress) => void;
  /** The heartbeat a supervisor outside the run's thread watches (run-watch.ts). */
  watch?: RunWatch;
}

export interface InMemoryOutcome {
  result: BacktestResult;
  truth: TruthFill[];
  /** Account equity at every price step (the result's series is thinned for the report). */
  equity: EquityPoint[];
  timerJumps: number;
  jobsRun: number;
  finerJobs: string[];
  /** Ticks of strategies on a candle schedule (one per closed candle). */
  candleTicks: number;
}

/** The run's inputs and the result's, from the backtest's inputs. */
function prepare(inputs: InMemoryInputs): { run: RunInputs; resultInputs: ResultInputs } {
  const { config, strategies, prices, args, logger } = inputs;
  const used = new Set(paperMarketNames(config).map((name) => pathFor(name, prices.series)));
  const given = runSpan([...used].sort().map((m) => prices.series.get(m) as PriceSeries), args.fromMs, args.toMs);
  // Declared candle history: the input's first candles fill it, and the run starts after them.
  const warmUp = warmUpEnd(strategies, prices.series, given.fromMs, given.toMs);
  const span = warmUp === null ? given : { ...given, fromMs: warmUp.untilMs };
  const model: FillModel = { ...args.fill, volumePerStep: args.fill.volumePerStep ?? config.paper.volumePerStep };
  const resultInputs = {
    configFile: inputs.configFile,
    configSha256: inputs.configSha256,
    prices: prices.files,
    fromMs: span.fromMs,
    toMs: span.toMs,
    // How jobs were fired is part of how the run was simulated: recorded beside the fill model.
    fillModel: { ...describeFillModel(model, span.stepMs), jobResolution: args.jobResolution },
    ...(warmUp === null ? {} : { warmUp }),
  };
  const { jobResolution, venue, strategiesIn } = args;
  const run: RunInputs = { config, strategies, prices, span, model, logger, jobResolution, venue, strategiesIn };
  if (inputs.onProgress !== undefined) run.onProgress = inputs.onProgress;
  if (inputs.watch !== undefined) run.watch = inputs.watch;
  return { run, resultInputs };
}

/** Which schedules were finer than the candles, and so coalesced under `step`: said in the result. */
function withFinerJobs(resultInputs: ResultInputs, state: RunState): ResultInputs {
  return { ...resultInputs, fillModel: { ...resultInputs.fillModel, finerSchedules: state.finerJobs.join(',') } };
}

function counts(state: RunState): Pick<InMemoryOutcome, 'timerJumps' | 'jobsRun' | 'finerJobs' | 'candleTicks'> {
  return { timerJumps: state.timerJumps, jobsRun: state.jobsRun, finerJobs: state.finerJobs, candleTicks: state.candleTicks };
}

export async function runInMemory(inputs: InMemoryInputs): Promise<InMemoryOutcome> {
  const { run, resultInputs } = prepare(inputs);
  return runBacktest(run, (state) => ({
    result: buildResult(state, withFinerJobs(resultInputs, state)),
    truth: truthFills(state),
    // Built when read (an optimisation trial thins it): a backtest's output does not need it.
    get equity(): EquityPoint[] {
      const { samples } = state;
      return Array.from({ length: samples.length }, (_, i) => ({ timeMs: samples.timeAt(i), equity: samples.equity.at(i).toFixed() }));
    },
    ...counts(state),
  }));
}

/** What a run written to files returns: the result without its lists (they are in result.json). */
export type FilesOutcome = Omit<InMemoryOutcome, 'result' | 'equity' | 'truth'> & { result: ResultHead };

/**
 * The same run, with result.json, report.html and venue-fills.json written into `outDir` from
 * the store and the venue while they are open (collect.ts, writeResultFiles): a long run's fills,
 * round trips and deals are never held whole.
 */
export async function runToFiles(inputs: InMemoryInputs, outDir: string): Promise<FilesOutcome> {
  const { run, resultInputs } = prepare(inputs);
  return runBacktest(run, (state) => ({
    result: writeResultFiles(state, withFinerJobs(resultInputs, state), outDir),
    ...counts(state),
  }));
}
