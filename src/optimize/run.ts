/**
 * `optimize(args)`: from the command line to `result.json` and `report.html` (docs/optimize.md).
 * Loads and checks the config, the space (against the strategy's own schema) and the prices,
 * opens the study file (refusing one started with other inputs), runs the study on the chosen
 * executor and writes the outputs. Used by src/cli/optimize.ts.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { loadPrices } from '../backtest/load-prices.js';
import { runSpan } from '../backtest/span.js';
import { loadConfig, type BotConfig } from '../config/index.js';
import { ConfigError } from '../core/errors.js';
import type { OptimizeArgs } from './args.js';
import { studyHashes } from './hashes.js';
import { LocalExecutor } from './local-executor.js';
import { loadObjective, type Objective } from './objective.js';
import { renderStudyReport } from './report/index.js';
import { gridPoints, randomPoints } from './search.js';
import { checkSpaceAgainstSchema } from './space-schema.js';
import { SpaceError, parseSpace } from './space.js';
import { StudyStore, type StudyIdentity } from './study-store.js';
import { runStudy, type StudyOutcome, type StudyPlan, type StudyProgress } from './study.js';
import type { SearchSpace, StudyInputs, TrialExecutor } from './types.js';
import { foldWindows } from './walk-forward.js';

export interface OptimizeIo {
  signal: AbortSignal;
  onProgress?: (p: StudyProgress) => void;
  /** Says a line before the trials start (the study file, what is already done). */
  say: (line: string) => void;
  /** The executor for `--redis URL` of study `study` (src/optimize/redis-executor.ts); without it `--redis` is refused. */
  redisExecutor?: (url: string, study: string) => TrialExecutor;
}

export type OptimizeOutcome = StudyOutcome & { studyFile: string; outDir: string };

function readText(flag: string, file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    throw new ConfigError(`${flag}: expected a readable file, found nothing at ${file}`);
  }
}

/** The config through the daemon's loader, paper mode, nothing taken from this environment. */
function studyConfig(file: string, text: string): BotConfig {
  return loadConfig({ env: { BOT_CONFIG: file, BOT_MODE: 'paper', ENV_FILE: '/dev/null' }, cwd: process.cwd(), configText: text });
}

function checkedSpace(args: OptimizeArgs): SearchSpace {
  const space = parseSpace(readText('--space', args.space));
  if (args.strategy !== null && args.strategy !== space.strategy) {
    throw new SpaceError(`"strategy" is ${JSON.stringify(space.strategy)} but --strategy says ${JSON.stringify(args.strategy)}`);
  }
  return space;
}

/** What makes a study itself: a run whose identity differs may not continue it. */
function identityOf(inputs: StudyInputs, plan: Omit<StudyPlan, 'inputs' | 'name'>, objectiveSha256: string | null, trials: number | null): StudyIdentity {
  const { configText: _text, prices: _path, ...hashes } = inputs;
  return {
    ...hashes,
    space: plan.space,
    objective: objectiveSha256 === null ? plan.objective.name : { custom: objectiveSha256 },
    search: plan.search,
    trials,
    seed: plan.seed,
    span: plan.span,
    walkForward: plan.walkForward,
  };
}

function executorFor(args: OptimizeArgs, io: OptimizeIo): TrialExecutor {
  if (args.redis === null) return new LocalExecutor(args.workers === null ? {} : { workers: args.workers });
  if (io.redisExecutor === undefined) throw new ConfigError('command line: --redis: expected a build with the Redis executor, found none');
  return io.redisExecutor(args.redis, args.studyName);
}

function writeOutputs(outDir: string, outcome: StudyOutcome): void {
  if (outcome.aborted) return;
  mkdirSync(outDir, { recursive: true });
  writeFileSync(path.join(outDir, 'result.json'), `${JSON.stringify(outcome.result, null, 2)}\n`);
  writeFileSync(path.join(outDir, 'report.html'), renderStudyReport(outcome.result));
}

async function planOf(args: OptimizeArgs, objective: Objective): Promise<{ plan: StudyPlan; identity: StudyIdentity }> {
  const configText = readText('--config', args.config);
  const config = studyConfig(args.config, configText);
  const space = checkedSpace(args);
  await checkSpaceAgainstSchema(config, space);
  const prices = loadPrices(args.prices);
  const span = runSpan(prices.series.values(), args.fromMs, args.toMs);
  // Folds that do not fit the data are refused before the study file is made.
  if (args.walkForward !== null) foldWindows(args.walkForward, span.fromMs, span.toMs);
  const seed = args.seed ?? config.paper.seed;
  const points = args.search === 'grid' ? gridPoints(space) : randomPoints(space, args.trials ?? 0, seed);
  const hashes = studyHashes(configText, args.prices, space.strategy);
  const inputs: StudyInputs = { configText, prices: args.prices, strategy: space.strategy, backtestFlags: args.backtestFlags, ...hashes };
  const rest = { space, search: args.search, points, seed, objective, span: { fromMs: span.fromMs, toMs: span.toMs }, walkForward: args.walkForward };
  const objectiveSha = objective.file === null ? null : createHash('sha256').update(readFileSync(objective.file)).digest('hex');
  return { plan: { name: args.studyName, inputs, ...rest }, identity: identityOf(inputs, rest, objectiveSha, args.trials) };
}

export async function optimize(args: OptimizeArgs, io: OptimizeIo): Promise<OptimizeOutcome> {
  const objective = await loadObjective(args.objective);
  let store: StudyStore | null = null;
  let executor: TrialExecutor | null = null;
  try {
    const { plan, identity } = await planOf(args, objective);
    mkdirSync(path.dirname(args.studyFile), { recursive: true });
    store = StudyStore.open(args.studyFile, identity);
    if (args.retryFailed) io.say(`study ${args.studyFile}: ${store.forgetFailed()} failed trial(s) forgotten, to run again`);
    const held = store.finished().size;
    io.say(`study ${args.studyFile}: ${plan.points.length} param sets, ${held} trial(s) already finished`);
    executor = executorFor(args, io);
    const outcome = await runStudy(plan, { executor, store, signal: io.signal, ...(io.onProgress === undefined ? {} : { onProgress: io.onProgress }) });
    writeOutputs(args.out, outcome);
    return { ...outcome, studyFile: args.studyFile, outDir: args.out };
  } finally {
    await executor?.close();
    store?.close();
    await objective.close();
  }
}
