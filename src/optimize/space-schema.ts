/**
 * Checks a parsed space against the tuned strategy's own params schema, before any trial runs:
 * every value a domain can give is validated by the module's schema in the sandbox (the load
 * probe the daemon uses, src/strategy-api/sandbox/load.ts), with the instance's configured params
 * for the others. A param the schema does not know, or a value it refuses, is a `SpaceError`
 * naming the param, the value and the schema's own words.
 */
import { SystemClock, type Clock } from '../core/clock.js';
import type { BotConfig } from '../config/index.js';
import { strategyLoaderPaths } from '../daemon/strategies.js';
import { resolveStrategyFile } from '../strategy-api/loader.js';
import { compileModule, probeModule, type LoadOutcome } from '../strategy-api/sandbox/load.js';
import type { ParamIssue } from '../strategy-api/sandbox/report.js';
import { SpaceError, domainValues } from './space.js';
import type { ParamValue, SearchSpace } from './types.js';

/** Probes run at once (each is a short-lived worker). */
const PROBE_CONCURRENCY = 2;

export interface TunedInstance {
  module: string;
  id: string;
  params: Record<string, unknown>;
  file: string;
}

/** The config's instance named by the space, or a SpaceError listing the ids there are. */
export function tunedInstance(config: BotConfig, space: SearchSpace): TunedInstance {
  const found = config.strategies.find((s) => s.id === space.strategy);
  if (found === undefined) {
    throw new SpaceError(`"strategy": ${JSON.stringify(space.strategy)} is not an instance id of the config (${config.strategies.map((s) => s.id).join(', ')})`);
  }
  const file = resolveStrategyFile(found.module, strategyLoaderPaths());
  if (file === null) throw new SpaceError(`"strategy": the module ${JSON.stringify(found.module)} of ${space.strategy} is not in the strategies directory`);
  const params = typeof found.params === 'object' && found.params !== null ? (found.params as Record<string, unknown>) : {};
  return { module: found.module, id: found.id, params, file };
}

function unknownParam(name: string): SpaceError {
  return new SpaceError(`param ${name}: unknown param (not in the strategy's schema)`);
}

function paramsRefusal(name: string, value: ParamValue, issue: ParamIssue | null): SpaceError {
  if (issue?.code === 'unrecognized_keys') return unknownParam(issue.key ?? name);
  const message = (issue?.message ?? 'refused').replace(/^Invalid input: /, '');
  return new SpaceError(`param ${name}: the value ${JSON.stringify(value)} is refused by the strategy's schema: expected ${message}`);
}

function refusal(name: string, value: ParamValue, out: LoadOutcome): SpaceError | null {
  if (out.type === 'loaded') {
    const known = typeof out.params === 'object' && out.params !== null && Object.hasOwn(out.params, name);
    return known ? null : unknownParam(name);
  }
  if (out.type === 'params') return paramsRefusal(name, value, out.issue);
  const why = out.type === 'bound' ? out.reason : out.message;
  return new SpaceError(`param ${name}: the strategy module could not check ${JSON.stringify(value)}: ${why}`);
}

/** Runs `tasks` with at most `limit` at once, in order of start. */
async function limited<T>(tasks: readonly (() => Promise<T>)[], limit: number): Promise<T[]> {
  const out: T[] = new Array<T>(tasks.length);
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < tasks.length) {
      const i = next++;
      out[i] = await (tasks[i] as () => Promise<T>)();
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, tasks.length) }, lane));
  return out;
}

/** Throws the first SpaceError (in the space's order) among every param value the schema refuses. */
export async function checkSpaceAgainstSchema(config: BotConfig, space: SearchSpace, clock: Clock = new SystemClock()): Promise<void> {
  const instance = tunedInstance(config, space);
  const bounds = { memoryMb: config.sandbox.memoryMb, loadDeadlineMs: config.sandbox.loadDeadlineMs };
  const compiled = await compileModule(instance.file, bounds, clock);
  if (!compiled.ok) throw new SpaceError(`"strategy": the module of ${instance.id} does not compile: ${compiled.message}`);
  const knownMarkets = Object.keys(config.markets);
  const checks = space.params.flatMap(({ name }, i) =>
    domainValues((space.params[i] as SearchSpace['params'][number]).domain).map((value) => async (): Promise<SpaceError | null> => {
      const params = { ...instance.params, [name]: value };
      const out = await probeModule({ file: instance.file, program: compiled.program, instanceId: instance.id, params, knownMarkets }, bounds, clock);
      return refusal(name, value, out);
    }),
  );
  const refusals = await limited(checks, PROBE_CONCURRENCY);
  const first = refusals.find((r) => r !== null);
  if (first !== undefined && first !== null) throw first;
}
