/**
 * Resolves configured strategy modules by name in the strategies directory and validates each
 * instance's params with the module's own schema, inside the sandbox (docs/sandbox.md): the
 * module's code and its schema run in a bounded worker, and the daemon gets data back (name,
 * schedule, params as JSON, which hooks exist). Nothing of the module runs in this thread.
 *
 * A deterministic problem is a `ConfigError` naming the key (`strategies[0].params.levels`), so
 * the daemon refuses it like any other bad config: exit code 2, before any network call. That
 * covers a module not found, a syntax error, an import other than the author API, a throw at the
 * top level (the sandbox has no clock, randomness or I/O, so the same file throws the same way
 * every time), no `defineStrategy` default export, bad params, a bad schedule. A module past a
 * sandbox bound while loading (the load deadline, the memory bound) is not refused: its instance
 * comes back with `quarantined` set, start-up completes and the other instances trade.
 *
 * Works from source (tsx: `strategies/<name>.ts`) and from the build (`dist/strategies/<name>.js`).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { SystemClock, type Clock } from '../core/clock.js';
import { ConfigError } from '../core/errors.js';
import type { StrategyDefinition } from './define.js';
import { compileModule, probeModule, type SandboxBounds } from './sandbox/load.js';
import type { ParamIssue } from './sandbox/report.js';
import { CANDLE_SCHEDULES, candleTimeframe, checkHistory, isCandleSchedule } from './history.js';
import type { HistoryRequest, JsonValue } from './types.js';

/** One configured instance, as the config holds it. */
export interface InstanceSpec {
  /** Position in the config's `strategies` array (for error keys). */
  index: number;
  module: string;
  id: string;
  params: unknown;
  /** Overrides the module's schedule. */
  schedule?: string | undefined;
}

/** Which optional hooks a module defines. */
export interface StrategyHooks {
  init: boolean;
  onFill: boolean;
  onOrder: boolean;
  onStop: boolean;
}

/** A loaded, validated instance: data only. */
export interface LoadedStrategy {
  id: string;
  module: string;
  /** The module's file (run in the sandbox). */
  file?: string;
  /** The module compiled for the sandbox (transform.ts), handed to the instance's worker. */
  program?: string;
  /** The module's declared name. */
  name?: string;
  /** Params as the module's schema produced them, as JSON (Decimals as decimal strings). */
  params: unknown;
  /** Effective schedule: a cron expression, or `candle:<timeframe>`. */
  schedule: string;
  /** The candle windows the module declares for these params (none when it declares no `history`). */
  history?: HistoryRequest[];
  hooks?: StrategyHooks;
  /** Set when the module passed a sandbox bound while loading: the instance starts quarantined. */
  quarantined?: string;
  /** Only for hooks run in the calling thread (engine tests with closures); the loader never sets it. */
  definition?: StrategyDefinition<unknown>;
}

export interface LoaderOptions {
  /** Directories searched, in order, for `<module>.<ext>` or `<module>/index.<ext>`. */
  dirs: readonly string[];
  /** File extensions tried, in order, e.g. `['.js']` when built, `['.ts', '.js']` under tsx. */
  extensions: readonly string[];
  /** Markets configured in `BOT_CONFIG`; a `p.market()` param must name one of them. */
  knownMarkets: ReadonlySet<string>;
  /** Validates a cron expression (the schedule a module declares). */
  validateSchedule: (expr: string) => boolean;
  /** The sandbox's bounds (config `sandbox`); defaults 256 MB and 10 s. */
  bounds?: SandboxBounds;
  clock?: Clock;
  /**
   * Instances loaded at a time (default 1: one after another, as the daemon). Each load waits on
   * its own workers (compile, probe), so a backtest loads a few at once; the outcome is the same.
   */
  concurrency?: number;
}

export const DEFAULT_BOUNDS: SandboxBounds = { memoryMb: 256, loadDeadlineMs: 10_000 };

/** Schedule of an instance quarantined while loading when the config names none: its hooks never run. */
const IDLE_SCHEDULE = '0 0 0 * * *';

function fail(key: string, expected: string, found: string): ConfigError {
  return new ConfigError(`invalid configuration:\n  strategies: ${key}: expected ${expected}, found ${found}`, { source: 'strategies', keys: [key] });
}

function show(value: unknown): string {
  if (value === undefined) return 'nothing (the key is missing)';
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/** The file of a module, or null. */
export function resolveStrategyFile(name: string, options: Pick<LoaderOptions, 'dirs' | 'extensions'>): string | null {
  const candidates = options.dirs.flatMap((dir) => options.extensions.flatMap((ext) => [path.join(dir, `${name}${ext}`), path.join(dir, name, `index${ext}`)]));
  return candidates.find((candidate) => existsSync(candidate)) ?? null;
}

function paramsError(spec: InstanceSpec, issue: ParamIssue | null): ConfigError {
  const sub = issue?.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${p}`)).join('') ?? '';
  const key = `strategies[${spec.index}].params${sub}`;
  if (issue?.code === 'unrecognized_keys') return fail(`${key}.${issue.key ?? ''}`, 'no such key (unknown keys are refused)', 'an unknown key');
  return fail(key, (issue?.message ?? 'valid params').replace(/^Invalid input: /, ''), show(issue?.input));
}

/** The module's file, compiled for the sandbox; a missing file, a syntax error or a foreign import is a `ConfigError`. */
async function compiled(spec: InstanceSpec, options: LoaderOptions): Promise<{ file: string; program: string }> {
  const key = `strategies[${spec.index}].module`;
  const file = resolveStrategyFile(spec.module, options);
  if (file === null) throw fail(key, `a module in ${options.dirs.join(' or ')}`, show(spec.module));
  const c = await compileModule(file, options.bounds ?? DEFAULT_BOUNDS, options.clock ?? new SystemClock());
  if (c.ok) return { file, program: c.program };
  if (c.kind === 'import') throw fail(key, 'a module that imports only src/strategy-api/index.js', `${show(spec.module)}: ${c.message}`);
  throw fail(key, 'a module that loads', `${show(spec.module)} failing with: ${c.message.slice(0, 400)}`);
}

async function loadOne(spec: InstanceSpec, options: LoaderOptions): Promise<LoadedStrategy> {
  const key = `strategies[${spec.index}].module`;
  const { file, program } = await compiled(spec, options);
  const request = { file, program, instanceId: spec.id, params: spec.params, knownMarkets: [...options.knownMarkets] };
  const out = await probeModule(request, options.bounds ?? DEFAULT_BOUNDS, options.clock ?? new SystemClock());
  const base = { id: spec.id, module: spec.module, file, program };
  switch (out.type) {
    case 'bound':
      return { ...base, params: null, schedule: spec.schedule ?? IDLE_SCHEDULE, quarantined: `strategy ${spec.id}: ${out.reason}` };
    case 'threw':
      throw fail(key, 'a module that loads', `${show(spec.module)} failing with: ${out.message}`);
    case 'not-definition':
      throw fail(key, 'a module whose default export is defineStrategy({...})', `${show(spec.module)} (${file})`);
    case 'params':
      throw paramsError(spec, out.issue);
  }
  const history = checkHistory(out.history, options.knownMarkets);
  if (!history.ok) throw fail(key, 'a history(params) of configured markets and timeframes', `${show(spec.module)}: history${history.problem}`);
  const schedule = spec.schedule ?? out.schedule;
  checkSchedule(spec, schedule, history.history, options);
  return { ...base, name: out.name, params: out.params as JsonValue, schedule, hooks: out.hooks, history: history.history };
}

/** A cron expression, or `candle:<timeframe>` of a module that declares a market in its `history`. */
function checkSchedule(spec: InstanceSpec, schedule: string, history: readonly HistoryRequest[], options: LoaderOptions): void {
  const key = `strategies[${spec.index}].schedule`;
  if (!isCandleSchedule(schedule)) {
    if (!options.validateSchedule(schedule)) throw fail(key, `a valid cron expression or one of ${CANDLE_SCHEDULES.join(', ')}`, show(schedule));
    return;
  }
  if (candleTimeframe(schedule) === null) throw fail(key, `one of ${CANDLE_SCHEDULES.join(', ')} (or a cron expression)`, show(schedule));
  if (history.length === 0) throw fail(key, 'a candle schedule only for a module whose history declares its market', `${show(schedule)} with no history declared`);
}

/** Loads every instance, in config order. Throws the first `ConfigError` (in config order, however many load at a time). */
export async function loadStrategies(specs: readonly InstanceSpec[], options: LoaderOptions): Promise<LoadedStrategy[]> {
  const width = Math.max(1, Math.floor(options.concurrency ?? 1));
  const out: LoadedStrategy[] = [];
  for (let i = 0; i < specs.length; i += width) {
    const batch = await Promise.allSettled(specs.slice(i, i + width).map((spec) => loadOne(spec, options)));
    for (const r of batch) {
      if (r.status === 'rejected') throw r.reason;
      out.push(r.value);
    }
  }
  return out;
}
