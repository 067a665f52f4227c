/**
 * Feeds a study's trials to a `TrialExecutor` and records each as it ends (docs/optimize.md §
 * Studies and resuming). Trials already in the study file are not run again; a failed trial is
 * recorded with its error and not retried (`--retry-failed` forgets failures first). An abort
 * (Ctrl-C) stops at once: what ended is recorded, trials in flight are lost and run next time.
 *
 * Trials go out in batches of several per executor slot, so an abort is seen between batches even
 * by an executor slow to notice it.
 */
import type { FinishedTrial, StudyStore } from './study-store.js';
import type { StudyInputs, TrialExecutor, TrialFailure, TrialOutcome, TrialSpec } from './types.js';

/**
 * Trials per executor slot in one batch, and the smallest batch. A batch ends when its slowest
 * trial does, so slots idle at its tail: with 8 trials per slot that costs at most about an
 * eighth of the run; larger batches only delay seeing an abort from an executor slow to notice.
 */
const BATCH_PER_SLOT = 8;
const MIN_BATCH = 32;

export type TrialEnd = { ok: true; outcome: TrialOutcome } | { ok: false; failure: TrialFailure };

export interface CoordinatorRun {
  /** Every finished trial of the specs asked for (loaded or run now), by key. */
  finished: Map<string, FinishedTrial>;
  /** Trials run by this call. */
  ran: number;
  /** Reports of a trial already recorded (ignored). */
  duplicates: number;
  /** Reports of a key that was not asked for (ignored). */
  strays: number;
  aborted: boolean;
}

/** The executor ended a batch without reporting some of its trials (not on abort). */
export class ExecutorGapError extends Error {
  constructor(readonly missing: readonly string[]) {
    super(`the executor ended a batch without reporting ${missing.length} trial(s) (first key ${missing[0] ?? ''}); they stay unrecorded and run next time`);
    this.name = 'ExecutorGapError';
  }
}

export interface CoordinatorDeps {
  executor: TrialExecutor;
  store: StudyStore;
  inputs: StudyInputs;
  /** Called once per newly recorded trial, in the order they end. */
  onRecorded?: (spec: TrialSpec, trial: FinishedTrial) => void;
}

function keyOf(end: TrialEnd): string {
  return end.ok ? end.outcome.key : end.failure.key;
}

export class Coordinator {
  constructor(private readonly deps: CoordinatorDeps) {}

  /** Runs the specs not yet finished; resolves when all have ended or `signal` aborts. */
  async run(specs: readonly TrialSpec[], signal: AbortSignal): Promise<CoordinatorRun> {
    const stored = this.deps.store.finished();
    const finished = new Map<string, FinishedTrial>();
    for (const s of specs) {
      const f = stored.get(s.key);
      if (f !== undefined) finished.set(s.key, f);
    }
    const todo = specs.filter((s) => !finished.has(s.key));
    const state = { ran: 0, strays: 0, duplicates: 0 };
    const size = Math.max(MIN_BATCH, this.deps.executor.slots * BATCH_PER_SLOT);
    for (let i = 0; i < todo.length && !signal.aborted; i += size) {
      const batch = todo.slice(i, i + size);
      await this.runBatch(batch, finished, state, signal);
    }
    return { finished, ...state, aborted: signal.aborted && finished.size < specs.length };
  }

  private async runBatch(
    batch: readonly TrialSpec[],
    finished: Map<string, FinishedTrial>,
    state: { ran: number; strays: number; duplicates: number },
    signal: AbortSignal,
  ): Promise<void> {
    const asked = new Map(batch.map((s) => [s.key, s]));
    await this.deps.executor.run(
      this.deps.inputs,
      batch,
      (end) => {
        const spec = asked.get(keyOf(end));
        if (spec === undefined) {
          state.strays += 1;
          return;
        }
        if (!this.deps.store.record(spec, end)) {
          state.duplicates += 1;
          return;
        }
        const trial: FinishedTrial = end.ok ? { ok: true, spec, outcome: end.outcome } : { ok: false, spec, error: end.failure.error };
        finished.set(spec.key, trial);
        state.ran += 1;
        this.deps.onRecorded?.(spec, trial);
      },
      signal,
    );
    if (signal.aborted) return;
    const missing = batch.filter((s) => !finished.has(s.key)).map((s) => s.key);
    if (missing.length > 0) throw new ExecutorGapError(missing);
  }
}
