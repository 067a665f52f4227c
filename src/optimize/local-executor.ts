/**
 * The local executor (docs/optimize-workers.md § Executors): trials on this machine's cores, one
 * per runner process (runner-pool.ts), `--workers N` runners (default: every core Node reports).
 * Outcomes are reported as trials end, in any order; a trial does not depend on which runner ran
 * it, so one slot and many give the same outcomes. Abort stops every runner; trials in flight are
 * abandoned and not reported.
 */
import os from 'node:os';
import { RunnerPool, type TrialEnd } from './runner-pool.js';
import type { StudyInputs, TrialExecutor, TrialFailure, TrialOutcome, TrialSpec } from './types.js';

export type ExecutorEnd = { ok: true; outcome: TrialOutcome } | { ok: false; failure: TrialFailure };

export function executorEnd(end: TrialEnd): ExecutorEnd {
  return end.ok ? end : { ok: false, failure: end.failure };
}

export interface LocalExecutorOptions {
  /** `--workers N`; default `os.availableParallelism()`. */
  workers?: number;
}

export class LocalExecutor implements TrialExecutor {
  readonly slots: number;
  private readonly pool: RunnerPool;

  constructor(options: LocalExecutorOptions = {}) {
    this.slots = options.workers ?? os.availableParallelism();
    this.pool = new RunnerPool(this.slots, (slot) => `local:${slot}`);
  }

  /** Process ids of runners busy with a trial. */
  busyPids(): number[] {
    return this.pool.busyPids();
  }

  async run(inputs: StudyInputs, trials: readonly TrialSpec[], onEnd: (end: ExecutorEnd) => void, signal: AbortSignal): Promise<void> {
    if (signal.aborted) return;
    let next = 0;
    let stopping: Promise<void> | null = null;
    const onAbort = (): void => {
      stopping = this.pool.stop();
    };
    signal.addEventListener('abort', onAbort, { once: true });
    const lane = async (): Promise<void> => {
      while (!signal.aborted && next < trials.length) {
        const end = await this.pool.run(inputs, trials[next++] as TrialSpec);
        if (signal.aborted) return;
        onEnd(executorEnd(end));
      }
    };
    try {
      await Promise.all(Array.from({ length: Math.min(this.slots, trials.length) }, lane));
    } finally {
      signal.removeEventListener('abort', onAbort);
      await (stopping ?? Promise.resolve());
    }
  }

  close(): Promise<void> {
    return this.pool.stop();
  }
}
