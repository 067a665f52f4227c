/**
 * The study's objective: a built-in (objectives.ts) or a custom module (`--objective ./file.js`)
 * run in the strategy sandbox (objective-entry.ts) with a time bound per call. A custom objective
 * that throws, returns something other than a number, a decimal string or null, or passes its
 * bound is an `ObjectiveError`: the study stops with that message rather than rank on garbage.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { pathToFileURL } from 'node:url';
import { SystemClock, type Clock } from '../core/clock.js';
import { Decimal, isDecimalString, toWire } from '../core/decimal.js';
import { RATIO_DP } from '../backtest/metrics.js';
import { compileModule } from '../strategy-api/sandbox/load.js';
import { sandboxWorkerOptions, workerEntry } from '../strategy-api/sandbox/entry-path.js';
import { OBJECTIVES, objectiveValue, type ObjectiveInput } from './objectives.js';
import { READY, type ObjectiveReply } from './objective-protocol.js';
import type { ObjectiveName } from './types.js';

/** Time one call of a custom objective may take. */
export const CUSTOM_OBJECTIVE_DEADLINE_MS = 2_000;
/** Time the sandbox worker may take to start and evaluate the module. */
const CUSTOM_OBJECTIVE_LOAD_MS = 10_000;
const CUSTOM_OBJECTIVE_MEMORY_MB = 128;

export class ObjectiveError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ObjectiveError';
  }
}

export interface Objective {
  name: ObjectiveName | 'custom';
  /** The custom module's path, null for a built-in. */
  file: string | null;
  value(o: ObjectiveInput): Promise<string | null>;
  close(): Promise<void>;
}

export function isBuiltinObjective(s: string): s is ObjectiveName {
  return (OBJECTIVES as readonly string[]).includes(s);
}

function builtin(name: ObjectiveName): Objective {
  return { name, file: null, value: (o) => Promise.resolve(objectiveValue(name, o)), close: () => Promise.resolve() };
}

/** A custom objective's return value as a decimal string (rounded like the built-in ratios), or null. */
export function normaliseObjective(file: string, value: number | string | null): string | null {
  if (value === null) return null;
  if (typeof value === 'number' && !Number.isFinite(value)) return null;
  if (typeof value === 'string' && !isDecimalString(value)) throw new ObjectiveError(`custom objective ${file}: returned ${JSON.stringify(value.slice(0, 40))}, not a decimal string`);
  return toWire(new Decimal(typeof value === 'number' ? value.toString() : value).toDecimalPlaces(RATIO_DP, Decimal.ROUND_HALF_EVEN));
}

/** Resolves when the worker has evaluated the module; rejects past the load bound or when the worker fails. */
function readiness(file: string, worker: Worker, clock: Clock): Promise<void> {
  const abort = new AbortController();
  return new Promise<void>((resolve, reject) => {
    const done = (err: Error | null): void => {
      abort.abort();
      worker.off('message', onMessage);
      worker.off('error', onError);
      if (err === null) return resolve();
      void worker.terminate();
      reject(err);
    };
    const onMessage = (m: unknown): void => (m === READY ? done(null) : undefined);
    const onError = (err: Error): void => done(new ObjectiveError(`custom objective ${file}: the sandbox worker failed: ${err.message}`));
    worker.on('message', onMessage);
    worker.on('error', onError);
    clock.sleep(CUSTOM_OBJECTIVE_LOAD_MS, abort.signal).then(
      () => done(new ObjectiveError(`custom objective ${file}: did not load within ${CUSTOM_OBJECTIVE_LOAD_MS} ms`)),
      () => undefined,
    );
  });
}

class CustomObjective implements Objective {
  readonly name = 'custom' as const;
  private nextId = 0;

  constructor(
    readonly file: string,
    private readonly worker: Worker,
    private readonly clock: Clock,
    private readonly ready: Promise<void>,
  ) {}

  async value(o: ObjectiveInput): Promise<string | null> {
    await this.ready;
    return this.call(o);
  }

  private call(o: ObjectiveInput): Promise<string | null> {
    const id = this.nextId++;
    const abort = new AbortController();
    return new Promise<string | null>((resolve, reject) => {
      const fail = (message: string): void => {
        cleanup();
        void this.worker.terminate();
        reject(new ObjectiveError(`custom objective ${this.file}: ${message}`));
      };
      const onMessage = (reply: ObjectiveReply): void => {
        if (reply.id !== id) return;
        cleanup();
        if (!reply.ok) return reject(new ObjectiveError(`custom objective ${this.file}: ${reply.message}`));
        try {
          resolve(normaliseObjective(this.file, reply.value));
        } catch (err) {
          reject(err as Error);
        }
      };
      const onError = (err: Error): void => fail(`the sandbox worker failed: ${err.message}`);
      const cleanup = (): void => {
        abort.abort();
        this.worker.off('message', onMessage);
        this.worker.off('error', onError);
      };
      this.worker.on('message', onMessage);
      this.worker.on('error', onError);
      this.clock.sleep(CUSTOM_OBJECTIVE_DEADLINE_MS, abort.signal).then(
        () => fail(`did not return within ${CUSTOM_OBJECTIVE_DEADLINE_MS} ms`),
        () => undefined,
      );
      this.worker.postMessage({ id, outcome: { metrics: o.metrics, equity: o.equity, tradePnls: o.tradePnls } });
    });
  }

  async close(): Promise<void> {
    await this.worker.terminate();
  }
}

/** `--objective`: a built-in name, or the path of a module whose default export maps an outcome to a number. */
export async function loadObjective(spec: string, clock: Clock = new SystemClock()): Promise<Objective> {
  if (isBuiltinObjective(spec)) return builtin(spec);
  const file = path.resolve(spec);
  if (!existsSync(file)) throw new ObjectiveError(`--objective ${spec}: neither a built-in objective (${OBJECTIVES.join(', ')}) nor a file`);
  const compiled = await compileModule(file, { memoryMb: CUSTOM_OBJECTIVE_MEMORY_MB, loadDeadlineMs: 10_000 }, clock);
  if (!compiled.ok) throw new ObjectiveError(`custom objective ${spec}: ${compiled.message}`);
  const entry = workerEntry(import.meta.url, 'objective-entry');
  const init = { program: compiled.program, fileUrl: pathToFileURL(file).href };
  const worker = new Worker(entry.script, sandboxWorkerOptions(entry, CUSTOM_OBJECTIVE_MEMORY_MB, init));
  worker.unref();
  const ready = readiness(spec, worker, clock);
  // Seen by value(); a load failure with no call must not end the process as unhandled.
  ready.catch(() => undefined);
  return new CustomObjective(spec, worker, clock, ready);
}
