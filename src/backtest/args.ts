/**
 * The backtest's command line (docs/backtesting.md § Running). Every flag is checked here, before
 * anything runs; a bad one is a ConfigError naming it (exit code 2).
 */
import { ConfigError } from '../core/errors.js';
import { Decimal, isDecimalString } from '../core/decimal.js';
import type { FillModel } from './fill-model.js';
import type { JobResolution } from './run.js';
import type { VenueKind } from './sim-venue.js';
import type { StrategiesIn } from './engine-wiring.js';
import { parseTime } from './price-csv.js';

export interface BacktestArgs {
  config: string;
  prices: string;
  fromMs: number | undefined;
  toMs: number | undefined;
  out: string;
  logLevel: string;
  /** `--job-resolution`: at most one fire per job per candle (`step`, default) or every cron fire (`cron`). */
  jobResolution: JobResolution;
  /** `--venue`: the simulator in process (default) or over loopback HTTP (the wire path, for fidelity checks). */
  venue: VenueKind;
  /**
   * `--strategies`: hooks in the run's thread under the sandbox's evaluation (default: no worker
   * round trip per hook, docs/backtesting.md § Speed; the heap bound and the hook deadline are kept
   * from outside the thread and end the run: src/backtest/run-supervisor.ts), or one sandboxed
   * worker per instance, as the daemon.
   */
  strategiesIn: StrategiesIn;
  /** The fill model, except a volume per step left to the config's `paper.volumePerStep`. */
  fill: Omit<FillModel, 'volumePerStep'> & { volumePerStep: Decimal | null };
}

const FLAGS = ['--config', '--prices', '--from', '--to', '--out', '--fill', '--volume-share', '--volume-per-step', '--maker-fee', '--taker-fee', '--log-level', '--job-resolution', '--venue', '--strategies'];

function bad(flag: string, expected: string, found: string): ConfigError {
  return new ConfigError(`command line: ${flag}: expected ${expected}, found "${found.slice(0, 60)}"`);
}

function decimalFlag(flag: string, v: string | undefined, fallback: string, max?: Decimal): Decimal {
  const s = v ?? fallback;
  if (!isDecimalString(s) || s.startsWith('-') || (max !== undefined && new Decimal(s).gt(max))) {
    throw bad(flag, `a decimal >= 0${max === undefined ? '' : ` and <= ${max.toFixed()}`}`, s);
  }
  return new Decimal(s);
}

function timeFlag(flag: string, v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  const ms = parseTime(v);
  if (ms === undefined) throw bad(flag, 'an ISO-8601 UTC time (2024-01-01T00:00:00Z) or Unix seconds/milliseconds', v);
  return ms;
}

function pairs(argv: readonly string[]): Map<string, string> {
  const out = new Map<string, string>();
  for (let i = 0; i < argv.length; i += 2) {
    const [flag, value] = [argv[i] as string, argv[i + 1]];
    if (!FLAGS.includes(flag)) throw bad('arguments', `one of ${FLAGS.join(', ')}`, flag);
    if (value === undefined || value.startsWith('--')) throw bad(flag, 'a value', value ?? '');
    out.set(flag, value);
  }
  return out;
}

/** The flag's value among `values` (the first is the default). */
function oneOf<T extends string>(a: Map<string, string>, flag: string, values: readonly [T, ...T[]]): T {
  const v = a.get(flag) ?? values[0];
  if (!(values as readonly string[]).includes(v)) throw bad(flag, values.map((x) => `"${x}"`).join(' or '), v);
  return v as T;
}

export function parseArgs(argv: readonly string[]): BacktestArgs {
  const a = pairs(argv);
  const prices = a.get('--prices');
  if (prices === undefined) throw bad('--prices', 'a CSV file or a directory of <MARKET>.csv files', '');
  const touch = a.get('--fill') ?? 'through';
  if (touch !== 'through' && touch !== 'at') throw bad('--fill', '"through" or "at"', touch);
  const vps = a.get('--volume-per-step');
  const jobResolution = oneOf(a, '--job-resolution', ['step', 'cron'] as const);
  const venue = oneOf(a, '--venue', ['in-process', 'http'] as const);
  const strategiesIn = oneOf(a, '--strategies', ['thread', 'worker'] as const);
  return {
    strategiesIn,
    venue,
    config: a.get('--config') ?? 'config/bot.json',
    prices,
    fromMs: timeFlag('--from', a.get('--from')),
    toMs: timeFlag('--to', a.get('--to')),
    out: a.get('--out') ?? 'backtest-out',
    logLevel: a.get('--log-level') ?? 'error',
    jobResolution,
    fill: {
      touch,
      volumeShare: decimalFlag('--volume-share', a.get('--volume-share'), '0.1', new Decimal(1)),
      volumePerStep: vps === undefined ? null : decimalFlag('--volume-per-step', vps, vps),
      makerFee: decimalFlag('--maker-fee', a.get('--maker-fee'), '0.001', new Decimal(1)),
      takerFee: decimalFlag('--taker-fee', a.get('--taker-fee'), '0.001', new Decimal(1)),
    },
  };
}
