/**
 * Runs the load probe (load-entry.ts) for one instance in its own bounded worker: the module's
 * top-level code and its params schema run there, never in the daemon's thread. The probe has
 * `deadlineMs` to report and `memoryMb` of heap; past either the worker is terminated and the
 * outcome says which bound it passed.
 */
import { Worker } from 'node:worker_threads';
import { pathToFileURL } from 'node:url';
import type { Clock } from '../../core/clock.js';
import { errorMessage } from '../../core/errors.js';
import { sandboxWorkerOptions, workerEntry } from './entry-path.js';
import type { SandboxInit } from './instance.js';
import type { LoadReport } from './report.js';

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

const isOutOfMemory = (err: unknown): boolean => (err as { code?: unknown }).code === 'ERR_WORKER_OUT_OF_MEMORY';

export function probeModule(req: ProbeRequest, bounds: SandboxBounds, clock: Clock): Promise<LoadOutcome> {
  const { file, program, instanceId, params } = req;
  const init: SandboxInit = { file, fileUrl: pathToFileURL(file).href, program, instanceId, params, knownMarkets: [...req.knownMarkets] };
  const entry = workerEntry(import.meta.url, 'load-entry');
  const worker = new Worker(entry.script, sandboxWorkerOptions(entry, bounds.memoryMb, init));
  const abort = new AbortController();
  return new Promise<LoadOutcome>((resolve) => {
    const done = (outcome: LoadOutcome): void => {
      abort.abort();
      void worker.terminate();
      resolve(outcome);
    };
    worker.on('message', (m: LoadReport) => done(m));
    worker.on('error', (err) =>
      done(
        isOutOfMemory(err)
          ? { type: 'bound', reason: `the module passed its memory bound (sandbox.memoryMb = ${bounds.memoryMb}) while loading` }
          : { type: 'threw', message: `${req.file}: ${errorMessage(err).slice(0, 400)}` },
      ),
    );
    worker.on('exit', (code) => done({ type: 'threw', message: `${req.file}: the sandbox worker exited with code ${code} while loading` }));
    clock.sleep(bounds.loadDeadlineMs, abort.signal).then(
      () => done({ type: 'bound', reason: `the module did not load within its deadline (sandbox.loadDeadlineMs = ${bounds.loadDeadlineMs})` }),
      () => undefined,
    );
  });
}
