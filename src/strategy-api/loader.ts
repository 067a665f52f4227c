/**
 * Resolves configured strategy modules by name in the strategies directory and validates each
 * instance's params with the module's own schema. Every problem is a `ConfigError` naming the
 * key (`strategies[0].params.levels`), so the daemon refuses it like any other bad config: exit
 * code 2, before any network call. The parse runs with the configured markets in scope, so a
 * `p.market()` param naming an unconfigured market is refused here too.
 *
 * Works from source (tsx: `strategies/<name>.ts`) and from the build (`dist/strategies/<name>.js`).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { z } from 'zod';
import { ConfigError } from '../core/errors.js';
import { isStrategyDefinition, type StrategyDefinition } from './define.js';
import { locatedMessage, withLocatedErrors } from './locate.js';
import { withConfiguredMarkets } from './market-scope.js';

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

/** A loaded, validated instance. */
export interface LoadedStrategy {
  id: string;
  module: string;
  definition: StrategyDefinition<unknown>;
  /** Params as the module's schema produced them. */
  params: unknown;
  /** Effective cron schedule. */
  schedule: string;
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
}

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

async function importDefinition(spec: InstanceSpec, options: LoaderOptions): Promise<StrategyDefinition<unknown>> {
  const key = `strategies[${spec.index}].module`;
  const file = resolveStrategyFile(spec.module, options);
  if (file === null) throw fail(key, `a module in ${options.dirs.join(' or ')}`, show(spec.module));
  let mod: { default?: unknown };
  try {
    mod = (await import(pathToFileURL(file).href)) as { default?: unknown };
  } catch (err) {
    throw fail(key, 'a module that loads', `${show(spec.module)} failing with: ${locatedMessage(err, file).slice(0, 400)}`);
  }
  if (!isStrategyDefinition(mod.default)) throw fail(key, 'a module whose default export is defineStrategy({...})', `${show(spec.module)} (${file})`);
  return located(mod.default, file);
}

/** One wrapped definition per module, so instances of one module share it. */
const wrapped = new WeakMap<StrategyDefinition<unknown>, StrategyDefinition<unknown>>();

function located(definition: StrategyDefinition<unknown>, file: string): StrategyDefinition<unknown> {
  let out = wrapped.get(definition);
  if (out === undefined) {
    out = withLocatedErrors(definition, file);
    wrapped.set(definition, out);
  }
  return out;
}

function parseParams(spec: InstanceSpec, definition: StrategyDefinition<unknown>, options: LoaderOptions): unknown {
  const schema = definition.params as z.ZodType;
  const parsed = withConfiguredMarkets(options.knownMarkets, () => schema.safeParse(spec.params, { reportInput: true }));
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const sub = issue?.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('') ?? '';
    const key = `strategies[${spec.index}].params${sub}`;
    if (issue?.code === 'unrecognized_keys') throw fail(`${key}.${issue.keys[0] ?? ''}`, 'no such key (unknown keys are refused)', 'an unknown key');
    throw fail(key, (issue?.message ?? 'valid params').replace(/^Invalid input: /, ''), show(issue?.input));
  }
  return parsed.data;
}

/** Loads every instance, in config order. Throws the first `ConfigError`. */
export async function loadStrategies(specs: readonly InstanceSpec[], options: LoaderOptions): Promise<LoadedStrategy[]> {
  const out: LoadedStrategy[] = [];
  for (const spec of specs) {
    const definition = await importDefinition(spec, options);
    const params = parseParams(spec, definition, options);
    const schedule = spec.schedule ?? definition.schedule;
    if (!options.validateSchedule(schedule)) throw fail(`strategies[${spec.index}].schedule`, 'a valid cron expression', show(schedule));
    out.push({ id: spec.id, module: spec.module, definition, params, schedule });
  }
  return out;
}
