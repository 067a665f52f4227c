/**
 * Checks a parsed space against the tuned strategy's own params schema, before any trial runs:
 * every value a domain can give is validated by the module's schema in the sandbox (evaluated as
 * the daemon's load probe does, in one bounded worker: schema-entry.ts), with the instance's
 * configured params for the others. A param the schema does not know, or a value it refuses, is a `SpaceError`
 * naming the param, the value and the schema's own words.
 */
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { SystemClock, type Clock } from '../core/clock.js';
import type { BotConfig } from '../config/index.js';
import { strategyLoaderPaths } from '../daemon/strategies.js';
import { resolveStrategyFile } from '../strategy-api/loader.js';
import { sandboxWorkerOptions, workerEntry } from '../strategy-api/sandbox/entry-path.js';
import { compileModule, type SandboxBounds } from '../strategy-api/sandbox/load.js';
import type { SchemaCheckInit, SchemaReport, SchemaVerdict } from './schema-entry.js';
import { SpaceError, domainValues } from './space.js';
import type { ParamValue, SearchSpace } from './types.js';

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

function refusal(name: string, value: ParamValue, v: SchemaVerdict): SpaceError | null {
  if (v.ok) return v.keys.includes(name) ? null : unknownParam(name);
  if (v.code === 'unrecognized_keys') return unknownParam(v.key ?? name);
  const message = v.message.replace(/^Invalid input: /, '');
  return new SpaceError(`param ${name}: the value ${JSON.stringify(value)} is refused by the strategy's schema: expected ${message}`);
}

/** Runs the schema worker once over every param set; a worker past its bounds or failing is a SpaceError. */
function runChecks(init: SchemaCheckInit, bounds: SandboxBounds, clock: Clock): Promise<SchemaReport> {
  const entry = workerEntry(import.meta.url, 'schema-entry');
  const worker = new Worker(entry.script, sandboxWorkerOptions(entry, bounds.memoryMb, init));
  const abort = new AbortController();
  return new Promise<SchemaReport>((resolve, reject) => {
    const done = (out: SchemaReport | Error): void => {
      abort.abort();
      void worker.terminate();
      if (out instanceof Error) reject(out);
      else resolve(out);
    };
    worker.on('message', (r: SchemaReport) => done(r));
    worker.on('error', (err) => done(new SpaceError(`the strategy module could not check the space: ${err.message}`)));
    worker.on('exit', (code) => done(new SpaceError(`the strategy module could not check the space (its worker exited with code ${code})`)));
    clock.sleep(bounds.loadDeadlineMs, abort.signal).then(
      () => done(new SpaceError(`the strategy module did not check the space within ${bounds.loadDeadlineMs} ms (sandbox.loadDeadlineMs)`)),
      () => undefined,
    );
  });
}

/** Throws the first SpaceError (in the space's order) among every param value the schema refuses. */
export async function checkSpaceAgainstSchema(config: BotConfig, space: SearchSpace, clock: Clock = new SystemClock()): Promise<void> {
  const instance = tunedInstance(config, space);
  const bounds = { memoryMb: config.sandbox.memoryMb, loadDeadlineMs: config.sandbox.loadDeadlineMs };
  const compiled = await compileModule(instance.file, bounds, clock);
  if (!compiled.ok) throw new SpaceError(`"strategy": the module of ${instance.id} does not compile: ${compiled.message}`);
  // One param set per value: the instance's configured params with that one value in place.
  const asked = space.params.flatMap(({ name, domain }) => domainValues(domain).map((value) => ({ name, value })));
  const paramSets = asked.map(({ name, value }) => ({ ...instance.params, [name]: value }));
  const init: SchemaCheckInit = {
    file: instance.file,
    fileUrl: pathToFileURL(instance.file).href,
    program: compiled.program,
    instanceId: instance.id,
    params: instance.params,
    knownMarkets: Object.keys(config.markets),
    paramSets,
  };
  const report = await runChecks(init, bounds, clock);
  if (report.type === 'threw') throw new SpaceError(`"strategy": the module of ${instance.id} throws while loading: ${report.message}`);
  for (const [i, { name, value }] of asked.entries()) {
    const refused = refusal(name, value, report.verdicts[i] as SchemaVerdict);
    if (refused !== null) throw refused;
  }
}
