/**
 * Start-up steps of one instance, each in a bounded worker, never in the daemon's thread:
 * compiling the module (compile-entry.ts: TypeScript stays out of the daemon; modules asked for
 * together share one compile worker, compile-worker.ts) and the load probe (load-entry.ts: the
 * module's top-level code and its params schema, in the sandbox, one worker per instance). The probe
 * has `loadDeadlineMs` to report and `memoryMb` of heap; past either the worker is terminated and
 * the outcome says which bound it passed.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { pathToFileURL } from 'node:url';
import type { Clock } from '../../core/clock.js';
import { errorMessage } from '../../core/errors.js';
import { sandboxWorkerOptions, workerEntry } from './entry-path.js';
import { CompileWorker } from './compile-worker.js';
import type { SandboxInit } from './instance.js';
import type { LoadReport } from './report.js';
import type { Compiled } from './transform.js';

export interface SandboxBounds {
  memoryMb: number;
  loadDeadlineMs: number;
}

/** A report, or the bound the load passed (the instance is then quarantined, the others go on). */
export type LoadOutcome = LoadReport | { type: 'bound'; reason: string };

export interface ProbeRequest {
  file: string;
  program: string;
  instanceId: string;
  params: unknown;
  knownMarkets: readonly string[];
}

type Ended<T> = { type: 'message'; value: T } | { type: 'memory' } | { type: 'deadline' } | { type: 'failed'; message: string };

/** Runs entry `name` with `data` until its first message, an error, its exit or the deadline. */
function runOnce<T>(name: string, data: unknown, bounds: SandboxBounds, clock: Clock): Promise<Ended<T>> {
  const entry = workerEntry(import.meta.url, name);
  const worker = new Worker(entry.script, sandboxWorkerOptions(entry, bounds.memoryMb, data));
  const abort = new AbortController();
  return new Promise<Ended<T>>((resolve) => {
    const done = (outcome: Ended<T>): void => {
      abort.abort();
      void worker.terminate();
      resolve(outcome);
    };
    worker.on('message', (value: T) => done({ type: 'message', value }));
    worker.on('error', (err) => done((err as { code?: unknown }).code === 'ERR_WORKER_OUT_OF_MEMORY' ? { type: 'memory' } : { type: 'failed', message: errorMessage(err) }));
    worker.on('exit', (code) => done({ type: 'failed', message: `the sandbox worker exited with code ${code}` }));
    clock.sleep(bounds.loadDeadlineMs, abort.signal).then(
      () => done({ type: 'deadline' }),
      () => undefined,
    );
  });
}

/**
 * Programs compiled in this process, by file and SHA-256 of its source: the compile is a pure
 * function of the source, and a process that loads one module many times (an optimisation's
 * trial runner) compiles it once. Changed source hashes differently and compiles again.
 */
const compiledBySource = new Map<string, Compiled>();

function sourceKey(file: string): string | null {
  try {
    return `${file}\0${createHash('sha256').update(readFileSync(file)).digest('hex')}`;
  } catch {
    return null;
  }
}

/** The compile worker of each heap bound: modules asked for together are compiled in one (compile-worker.ts). */
const compileWorkers = new Map<number, CompileWorker>();

/** The module compiled for the sandbox, or why it is refused (a compile past a bound is a syntax-level refusal). */
export async function compileModule(file: string, bounds: SandboxBounds, clock: Clock): Promise<Compiled> {
  const key = sourceKey(file);
  const hit = key === null ? undefined : compiledBySource.get(key);
  if (hit !== undefined) return hit;
  // The compiler needs room of its own: the strategy's memory bound is for the strategy.
  const memoryMb = Math.max(bounds.memoryMb, 512);
  let worker = compileWorkers.get(memoryMb);
  if (worker === undefined) {
    worker = new CompileWorker(memoryMb);
    compileWorkers.set(memoryMb, worker);
  }
  const out = await worker.compile(file, bounds.loadDeadlineMs, clock);
  if (out.type === 'message') {
    if (key !== null && out.value.ok) compiledBySource.set(key, out.value);
    return out.value;
  }
  return { ok: false, kind: 'syntax', message: `${file}: could not be compiled (${out.type === 'failed' ? out.message : `past its ${out.type} bound`})` };
}

export async function probeModule(req: ProbeRequest, bounds: SandboxBounds, clock: Clock): Promise<LoadOutcome> {
  const { file, program, instanceId, params } = req;
  const init: SandboxInit = { file, fileUrl: pathToFileURL(file).href, program, instanceId, params, knownMarkets: [...req.knownMarkets] };
  const out = await runOnce<LoadReport>('load-entry', init, bounds, clock);
  switch (out.type) {
    case 'message':
      return out.value;
    case 'memory':
      return { type: 'bound', reason: `the module passed its memory bound (sandbox.memoryMb = ${bounds.memoryMb}) while loading` };
    case 'deadline':
      return { type: 'bound', reason: `the module did not load within its deadline (sandbox.loadDeadlineMs = ${bounds.loadDeadlineMs})` };
    case 'failed':
      return { type: 'threw', message: `${file}: ${out.message.slice(0, 400)}` };
  }
}
