/**
 * `backtest(args)`: load the config, strategies and prices, run (in-memory.ts), and write
 * result.json, report.html and venue-fills.json into the output directory. Run by the backtest
 * command's worker (run-thread.ts) under its supervisor (run-supervisor.ts).
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { loadBacktestConfig } from './backtest-config.js';
import { loadConfiguredStrategies } from '../daemon/strategies.js';
import type { Logger } from '../observability/logger.js';
import type { BacktestArgs } from './args.js';
import { runToFiles, type InMemoryInputs } from './in-memory.js';
import { loadPrices, type PriceSet } from './load-prices.js';
import type { ResultHead } from './result-file.js';
import type { Progress } from './run.js';
import { RunWatch, watchedInstances } from './run-watch.js';

/** Strategy instances loaded at a time (their compile and probe workers boot in parallel). */
const STRATEGY_LOADS = 3;

export interface BacktestSummary {
  /** The result without its lists of fills and round trips (result.json holds them). */
  result: ResultHead;
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

/** The price set, or the error reading it threw (thrown once the strategies are loaded). */
function pricesOrError(path: string): PriceSet | Error {
  try {
    return loadPrices(path);
  } catch (err) {
    return err instanceof Error ? err : new Error(String(err));
  }
}

export interface BacktestHooks {
  onProgress?: (p: Progress) => void;
  /** The shared heartbeat a supervisor outside the run's thread watches (run-watch.ts). */
  watchBuffer?: SharedArrayBuffer;
}

export async function backtest(args: BacktestArgs, logger: Logger, hooks: BacktestHooks = {}): Promise<BacktestSummary> {
  const config = loadBacktestConfig(args.config);
  // Instances load a few at a time: each waits on its own workers (most of a short run's start-up).
  const loading = loadConfiguredStrategies(config, STRATEGY_LOADS);
  // The price files are read and checked meanwhile (this thread is idle while the workers boot);
  // a strategy's error is still the one reported when both fail, as when they were read in turn.
  const prices = pricesOrError(args.prices);
  const strategies = await loading;
  if (prices instanceof Error) throw prices;
  const configSha256 = createHash('sha256').update(readFileSync(args.config)).digest('hex');
  const run: InMemoryInputs = { config, configFile: args.config, configSha256, strategies, prices, args, logger };
  if (hooks.onProgress !== undefined) run.onProgress = hooks.onProgress;
  if (hooks.watchBuffer !== undefined) run.watch = new RunWatch(hooks.watchBuffer, watchedInstances(config));
  // result.json, report.html and venue-fills.json are written from the run's store and venue
  // before they close (in pieces: a long run's files are tens of MB, never held whole).
  const out = await runToFiles(run, args.out);
  const { timerJumps, jobsRun, finerJobs, candleTicks } = out;
  return { result: out.result, outDir: args.out, timerJumps, jobsRun, finerJobs, candleTicks };
}
