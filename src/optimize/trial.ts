/**
 * One trial of a study (docs/optimize-workers.md): a real backtest, in this process and without
 * writing files, of only the tuned strategy instance with its params overridden by the trial's,
 * over the trial's window and with the trial's seed. The same path as `npm run backtest`
 * (src/backtest/in-memory.ts), so a trial's figures are the backtest's figures.
 *
 * Inputs are checked first: data whose hashes differ from the study's is refused (never run), a
 * param value the strategy's schema rejects is a TrialFailure, not a crash.
 */
import { performance } from 'node:perf_hooks';
import path from 'node:path';
import { parseArgs, type BacktestArgs } from '../backtest/args.js';
import { downsampleEquity } from '../backtest/downsample.js';
import { runInMemory } from '../backtest/in-memory.js';
import { loadPrices, type PriceSet } from '../backtest/load-prices.js';
import { loadConfig, type BotConfig } from '../config/index.js';
import { ConfigError, errorMessage } from '../core/errors.js';
import { loadConfiguredStrategies } from '../daemon/strategies.js';
import { silentLogger, type Logger } from '../observability/logger.js';
import type { LoadedStrategy } from '../strategy-api/host.js';
import { differingInputs, pricesSha256 } from './hashes.js';
import type { StudyInputs, TrialFailure, TrialOutcome, TrialSpec } from './types.js';

/** Equity points kept per outcome (the report draws them; metrics use every step). */
export const TRIAL_EQUITY_POINTS = 500;

/** Backtest flags the study sets itself, per trial: not accepted in `backtestFlags`. */
const STUDY_FLAGS = ['--config', '--prices', '--from', '--to', '--out'];

/** How the config is named in messages: workers have its text, not its file. */
const CONFIG_NAME = 'study config';

/**
 * A trial that ended without an outcome. `refused`: this machine's data differs from the study's
 * (the trial was not run, and running it elsewhere may succeed); otherwise the failure is the
 * trial's own (a rejected param, a strategy that cannot load) and the same on every machine.
 */
export class TrialError extends Error {
  constructor(
    readonly failure: TrialFailure,
    readonly refused: boolean,
  ) {
    super(failure.error);
    this.name = 'TrialError';
  }
}

const fail = (spec: TrialSpec, error: string, refused = false): TrialError => new TrialError({ key: spec.key, error }, refused);

function checkData(inputs: StudyInputs, spec: TrialSpec): void {
  let differs: string[];
  try {
    differs = differingInputs(inputs);
  } catch (err) {
    throw fail(spec, `data differs: ${errorMessage(err)}`, true);
  }
  if (differs.length > 0) throw fail(spec, `data differs from the study's: ${differs.join(', ')} (hashes do not match)`, true);
}

function trialArgs(inputs: StudyInputs, spec: TrialSpec): BacktestArgs {
  const own = inputs.backtestFlags.filter((f) => STUDY_FLAGS.includes(f));
  if (own.length > 0) throw fail(spec, `backtest flags: ${own.join(', ')} are set by the study, not in backtestFlags`);
  try {
    // Strategies in workers, not the command line's default thread: a runner runs trial after
    // trial in one process, and the thread mode locks its process down after the first
    // (docs/backtesting.md § Strategies in the run's thread).
    const args = parseArgs(['--prices', inputs.prices, ...inputs.backtestFlags]);
    return { ...args, strategiesIn: 'worker', fromMs: spec.window.fromMs, toMs: spec.window.toMs };
  } catch (err) {
    throw fail(spec, errorMessage(err));
  }
}

type RawStrategy = { id?: unknown; params?: unknown; [k: string]: unknown };

/** The config's text with only the tuned instance (enabled, params overlaid) and the trial's seed. */
function trialConfigText(inputs: StudyInputs, spec: TrialSpec): string {
  let raw: { strategies?: unknown; paper?: unknown; [k: string]: unknown };
  try {
    raw = JSON.parse(inputs.configText) as typeof raw;
  } catch (err) {
    throw fail(spec, `config: expected valid JSON (${errorMessage(err)})`);
  }
  const all = Array.isArray(raw.strategies) ? (raw.strategies as RawStrategy[]) : [];
  const tuned = all.find((s) => s.id === inputs.strategy);
  if (tuned === undefined) throw fail(spec, `config: expected a strategy with id "${inputs.strategy}", found none`);
  const params = { ...((tuned.params ?? {}) as Record<string, unknown>), ...spec.params };
  const paper = { ...((raw.paper ?? {}) as Record<string, unknown>), seed: spec.seed };
  return JSON.stringify({ ...raw, strategies: [{ ...tuned, enabled: true, params }], paper });
}

/** The daemon's loader on the trial's config: paper mode, no env file, nothing from this environment. */
function trialConfig(inputs: StudyInputs, spec: TrialSpec): BotConfig {
  const env = { BOT_CONFIG: CONFIG_NAME, BOT_MODE: 'paper', ENV_FILE: '/dev/null' };
  try {
    return loadConfig({ env, cwd: process.cwd(), configText: trialConfigText(inputs, spec) });
  } catch (err) {
    if (err instanceof TrialError) throw err;
    throw fail(spec, errorMessage(err));
  }
}

async function tunedStrategy(config: BotConfig, spec: TrialSpec): Promise<LoadedStrategy[]> {
  let loaded: LoadedStrategy[];
  try {
    loaded = await loadConfiguredStrategies(config);
  } catch (err) {
    if (err instanceof ConfigError) throw fail(spec, errorMessage(err));
    throw err;
  }
  const quarantined = loaded.find((s) => s.quarantined !== undefined)?.quarantined;
  if (quarantined !== undefined) throw fail(spec, quarantined);
  return loaded;
}

/** Prices loaded once per runner and data (the hash changes with any file's mtime or size). */
const pricesCache = new Map<string, { sha256: string; set: PriceSet }>();

function cachedPrices(given: string): PriceSet {
  const abs = path.resolve(given);
  const sha256 = pricesSha256(abs);
  const hit = pricesCache.get(abs);
  if (hit !== undefined && hit.sha256 === sha256) return hit.set;
  const set = loadPrices(given);
  pricesCache.set(abs, { sha256, set });
  return set;
}

export interface TrialOptions {
  logger?: Logger;
  /** Which slot runs it (`TrialOutcome.ranBy`). */
  ranBy?: string;
}

/** Runs one trial; throws TrialError when it cannot produce an outcome. */
export async function runTrial(inputs: StudyInputs, spec: TrialSpec, options: TrialOptions = {}): Promise<TrialOutcome> {
  const started = performance.now();
  checkData(inputs, spec);
  const args = trialArgs(inputs, spec);
  const config = trialConfig(inputs, spec);
  const strategies = await tunedStrategy(config, spec);
  let prices: PriceSet;
  try {
    prices = cachedPrices(inputs.prices);
  } catch (err) {
    throw fail(spec, errorMessage(err));
  }
  const logger = options.logger ?? silentLogger();
  const out = await runInMemory({ config, configFile: CONFIG_NAME, configSha256: inputs.configSha256, strategies, prices, args, logger });
  const metrics = out.result.strategies[inputs.strategy];
  if (metrics === undefined) throw fail(spec, `the backtest has no figures for strategy ${inputs.strategy}`);
  return {
    key: spec.key,
    metrics,
    equity: downsampleEquity(out.equity, TRIAL_EQUITY_POINTS),
    tradePnls: out.result.trades.filter((t) => t.strategy === inputs.strategy).map((t) => t.pnl),
    elapsedMs: performance.now() - started,
    ranBy: options.ranBy ?? `process:${process.pid}`,
  };
}
