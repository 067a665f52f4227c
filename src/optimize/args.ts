/**
 * The optimiser's command line (docs/optimize.md § Running). Every flag is checked here, before
 * anything runs; a bad one is a ConfigError naming it (exit code 2).
 */
import path from 'node:path';
import { ConfigError } from '../core/errors.js';
import { parseTime } from '../backtest/price-csv.js';
import type { WalkForwardPlan } from './walk-forward.js';

export interface OptimizeArgs {
  config: string;
  prices: string;
  /** `--strategy`: must name the space file's instance when given. */
  strategy: string | null;
  space: string;
  /** A built-in objective name or the path of a custom objective module. */
  objective: string;
  search: 'grid' | 'random';
  /** Random search only. */
  trials: number | null;
  /** null: the config's `paper.seed`. */
  seed: number | null;
  walkForward: WalkForwardPlan | null;
  workers: number | null;
  redis: string | null;
  /** The study file. */
  studyFile: string;
  /** The study's name in the result (`--study`, else the output directory's name). */
  studyName: string;
  out: string;
  fromMs: number | undefined;
  toMs: number | undefined;
  retryFailed: boolean;
  /** Backtest flags every trial runs with (the fill model and job resolution). */
  backtestFlags: string[];
}

const BACKTEST_FLAGS = ['--fill', '--volume-share', '--volume-per-step', '--maker-fee', '--taker-fee', '--job-resolution'];
const FLAGS = [
  '--config', '--prices', '--strategy', '--space', '--objective', '--search', '--trials', '--seed', '--walk-forward', '--train', '--test',
  '--workers', '--redis', '--study', '--out', '--from', '--to', ...BACKTEST_FLAGS,
];
const SWITCHES = ['--retry-failed'];
/** `--study NAME`: the study file is `studies/NAME.sqlite` under the working directory. */
export const STUDIES_DIR = 'studies';
const NAME_RE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

function bad(flag: string, expected: string, found: string): ConfigError {
  return new ConfigError(`command line: ${flag}: expected ${expected}, found "${found.slice(0, 60)}"`);
}

function pairs(argv: readonly string[]): { values: Map<string, string>; switches: Set<string> } {
  const values = new Map<string, string>();
  const switches = new Set<string>();
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i] as string;
    if (SWITCHES.includes(flag)) {
      switches.add(flag);
      continue;
    }
    if (!FLAGS.includes(flag)) throw bad('arguments', `one of ${[...FLAGS, ...SWITCHES].join(', ')}`, flag);
    const value = argv[i + 1];
    if (value === undefined || value.startsWith('--')) throw bad(flag, 'a value', value ?? '');
    if (values.has(flag)) throw bad(flag, 'the flag once', `${flag} given twice`);
    values.set(flag, value);
    i += 1;
  }
  return { values, switches };
}

function whole(a: Map<string, string>, flag: string, min: number, max = Number.MAX_SAFE_INTEGER): number | null {
  const v = a.get(flag);
  if (v === undefined) return null;
  if (!/^\d+$/.test(v) || Number(v) < min || Number(v) > max) throw bad(flag, `a whole number from ${min} to ${max}`, v);
  return Number(v);
}

function required(a: Map<string, string>, flag: string, what: string): string {
  const v = a.get(flag);
  if (v === undefined) throw bad(flag, what, '');
  return v;
}

function timeFlag(a: Map<string, string>, flag: string): number | undefined {
  const v = a.get(flag);
  if (v === undefined) return undefined;
  const ms = parseTime(v);
  if (ms === undefined) throw bad(flag, 'an ISO-8601 UTC time (2024-01-01T00:00:00Z) or Unix seconds/milliseconds', v);
  return ms;
}

function walkForwardOf(a: Map<string, string>): WalkForwardPlan | null {
  const folds = whole(a, '--walk-forward', 1, 1000);
  const trainDays = whole(a, '--train', 1, 36_500);
  const testDays = whole(a, '--test', 1, 36_500);
  if (folds === null && trainDays === null && testDays === null) return null;
  if (folds === null) throw bad('--walk-forward', 'a fold count with --train and --test', '');
  if (trainDays === null) throw bad('--train', 'the train window in days, with --walk-forward', '');
  if (testDays === null) throw bad('--test', 'the test window in days, with --walk-forward', '');
  return { folds, trainDays, testDays };
}

function searchOf(a: Map<string, string>): { search: 'grid' | 'random'; trials: number | null } {
  const search = a.get('--search') ?? 'grid';
  if (search !== 'grid' && search !== 'random') throw bad('--search', '"grid" or "random"', search);
  const trials = whole(a, '--trials', 1, 100_000);
  if (search === 'random' && trials === null) throw bad('--trials', 'the number of random trials (with --search random)', '');
  if (search === 'grid' && trials !== null) throw bad('--trials', 'no --trials with --search grid (the grid decides the count)', String(trials));
  return { search, trials };
}

function studyOf(a: Map<string, string>, out: string): { studyFile: string; studyName: string } {
  const name = a.get('--study');
  if (name === undefined) return { studyFile: path.join(out, 'study.sqlite'), studyName: path.basename(path.resolve(out)) };
  if (!NAME_RE.test(name)) throw bad('--study', 'a name of letters, digits, ".", "_" or "-" (up to 64)', name);
  return { studyFile: path.join(STUDIES_DIR, `${name}.sqlite`), studyName: name };
}

export function parseOptimizeArgs(argv: readonly string[]): OptimizeArgs {
  const { values: a, switches } = pairs(argv);
  const out = required(a, '--out', 'the output directory (result.json, report.html)');
  const workers = whole(a, '--workers', 1, 1024);
  const redis = a.get('--redis') ?? null;
  if (redis !== null && workers !== null) throw bad('--workers', 'either --workers (this machine) or --redis (workers elsewhere), not both', String(workers));
  if (redis !== null && !/^rediss?:\/\//.test(redis)) throw bad('--redis', 'a redis:// or rediss:// URL', redis.replace(/\/\/[^@]*@/, '//***@'));
  const backtestFlags = BACKTEST_FLAGS.flatMap((f) => (a.has(f) ? [f, a.get(f) as string] : []));
  return {
    config: a.get('--config') ?? 'config/bot.json',
    prices: required(a, '--prices', 'a CSV file or a directory of <MARKET>.csv files'),
    strategy: a.get('--strategy') ?? null,
    space: required(a, '--space', 'the space file (JSON, docs/optimize.md)'),
    objective: required(a, '--objective', 'sharpe, sortino, calmar, net, profit-factor or the path of a .js module'),
    ...searchOf(a),
    seed: whole(a, '--seed', 0, 4_294_967_295),
    walkForward: walkForwardOf(a),
    workers,
    redis,
    ...studyOf(a, out),
    out,
    fromMs: timeFlag(a, '--from'),
    toMs: timeFlag(a, '--to'),
    retryFailed: switches.has('--retry-failed'),
    backtestFlags: a.has('--job-resolution') ? backtestFlags : [...backtestFlags, '--job-resolution', 'step'],
  };
}
