/**
 * The scheduler: node-cron decides *when*, p-queue decides *how much at once*.
 *
 * - One lane (a p-queue of concurrency 1) per strategy instance, and one per engine job, so a
 *   strategy's tick and its fill handling never overlap.
 * - A tick that finds its lane still busy is skipped and counted, never queued: a slow strategy
 *   must not build a backlog of stale ticks.
 * - A global p-queue bounds how many lanes run at once.
 * - `stop()` refuses new work; `drain(ms)` waits for in-flight work, bounded on the injected clock.
 *
 * Tests call `trigger(name)` (the cron callback) directly instead of waiting for cron.
 */
import { createTask, type ScheduledTask } from 'node-cron';
import PQueue from 'p-queue';
import type { Clock } from '../core/clock.js';
import { errorCode } from '../core/errors.js';

/** A scheduled job. */
export interface JobSpec {
  /** Unique name, e.g. `strategy:grid1`, `reconcile`. */
  name: string;
  /**
   * node-cron expression (6 fields: seconds first); absent for a job only triggered by events (a
   * strategy on a candle schedule, ticked as candles close: docs/strategies.md § Candle schedules).
   */
  cron?: string;
  /** The lane it runs in; defaults to its name. */
  lane?: string;
  /**
   * The work. Errors are caught, counted and reported, never thrown to cron. Resolves `'paused'`
   * when its gate held it back (an operator paused the strategy): recorded as such, not as a run.
   */
  run: () => Promise<JobResult>;
}

/** What a job's work says about itself: nothing (it ran), or that a pause held it back. */
export type JobResult = void | 'paused';

export type TriggerOutcome = 'ran' | 'failed' | 'paused' | 'skipped' | 'stopped';

/** What happened, for metrics and logs. */
export interface SchedulerEvents {
  onRun?(job: string, outcome: 'ran' | 'failed' | 'paused', startedMs: number, endedMs: number, error?: unknown): void;
  onSkip?(job: string): void;
}

export interface SchedulerOptions {
  clock: Clock;
  /** Most lanes running at once. */
  maxConcurrent: number;
  events?: SchedulerEvents;
}

/** A job as `/healthz` and the dashboard show it. */
export interface JobReport {
  /** End of its last real run (a tick held back by a pause is not one), ms; null before the first. */
  lastRunMs: number | null;
  /** `paused` while a pause holds its ticks back, else the outcome of the last run. */
  lastOutcome: 'ran' | 'failed' | 'paused' | null;
  skipped: number;
}

/**
 * A job with what its fires reuse: its lane (found at its first fire) and the two steps through
 * the lane and the global bound, made once per job rather than as two closures per fire. The
 * p-queue options name the task by the job (an id given spares p-queue minting one per add: a
 * BigInt step and its string); nothing here reads ids.
 */
interface Job {
  spec: JobSpec;
  lane?: PQueue;
  options: { id: string };
  /** The fire once the lane admits it: through the global bound (if kept). */
  viaGlobal: () => Promise<TriggerOutcome>;
}

/** A run that went well, when only failures are recorded. */
const outcomeOf = (r: JobResult): TriggerOutcome => (r === 'paused' ? 'paused' : 'ran');

/** The last completed run of a job. */
export interface LastRun {
  startedMs: number;
  endedMs: number;
  outcome: 'ran' | 'failed';
  /** Error code when it failed. */
  errorCode?: string;
}

export class Scheduler {
  private readonly jobs = new Map<string, Job>();
  private readonly lanes = new Map<string, PQueue>();
  private readonly global: PQueue;
  private readonly tasks: ScheduledTask[] = [];
  private readonly last = new Map<string, LastRun>();
  private readonly skips = new Map<string, number>();
  /** Jobs whose last trigger a pause held back (cleared by the next real run). */
  private readonly held = new Set<string>();
  private stopped = false;
  /** Runs that went well leave no record (recordFailuresOnly). */
  private failuresOnly = false;
  /** Work goes through the global bound (see `withoutGlobalBound`). */
  private bounded = true;

  constructor(private readonly options: SchedulerOptions) {
    this.global = new PQueue({ concurrency: options.maxConcurrent });
  }

  /**
   * From now on a run that went well (or a pause held back) leaves no record: `lastRun`, `report`
   * and the `onRun` events hear only of failures, which are recorded and reported as always. For a
   * caller that fires jobs at a high rate and reads none of it (the backtest: src/backtest/run.ts);
   * the daemon never calls this, its `/healthz`, metrics and logs read every run.
   */
  recordFailuresOnly(): void {
    this.failuresOnly = true;
  }

  /**
   * From now on a lane's work starts without passing the global bound. Only for a caller that
   * knows no more lanes than `maxConcurrent` are ever busy at once: then the bound never holds
   * anything back (every lane runs one piece of work at a time), so passing it only costs a
   * p-queue task per fire. The backtest's run loop fires one job at a time and waits for it and
   * everything it queued, so only the strategies' lanes can be busy beside it
   * (src/backtest/run.ts `globalBoundIdle`). The daemon never calls this.
   */
  withoutGlobalBound(): void {
    this.bounded = false;
  }

  add(job: JobSpec): void {
    if (this.jobs.has(job.name)) throw new RangeError(`job ${job.name} already scheduled`);
    const options = { id: job.name };
    const run = (): Promise<TriggerOutcome> => this.run(job.name, job.run);
    this.jobs.set(job.name, { spec: job, options, viaGlobal: () => (this.bounded ? this.global.add(run, options) : run()) });
  }

  get jobNames(): string[] {
    return [...this.jobs.keys()];
  }

  /** The cron expression of a job (the backtest fires it on a virtual clock: src/backtest/run.ts). */
  cronOf(name: string): string | undefined {
    return this.jobs.get(name)?.spec.cron;
  }

  /**
   * Runs the job now unless its lane is busy (then skips and counts) or the scheduler stopped.
   * Not `async`, as `enqueue` and `runOn`: the outcome is the lanes' own promise, without a
   * wrapper adding its continuations to every fire.
   */
  trigger(name: string): Promise<TriggerOutcome> {
    const job = this.jobs.get(name);
    if (job === undefined) return Promise.reject(new RangeError(`no job ${name}`));
    if (this.stopped) return Promise.resolve('stopped');
    const lane = (job.lane ??= this.lane(job.spec.lane ?? name));
    if (lane.size + lane.pending > 0) {
      this.skips.set(name, (this.skips.get(name) ?? 0) + 1);
      this.options.events?.onSkip?.(name);
      return Promise.resolve('skipped');
    }
    return lane.add(job.viaGlobal, job.options);
  }

  /**
   * Queues work on a lane without skipping (fill handling: every fill must be handled). Returns
   * 'stopped' without running once the scheduler stopped.
   */
  enqueue(laneName: string, label: string, fn: () => Promise<void>): Promise<TriggerOutcome> {
    if (this.stopped) return Promise.resolve('stopped');
    return this.runOn(this.lane(laneName), label, fn);
  }

  /** Through the lane, then the global bound (if kept): its outcome never rejects (failures are caught and recorded). */
  private runOn(lane: PQueue, name: string, fn: () => Promise<JobResult>): Promise<TriggerOutcome> {
    return lane.add(() => (this.bounded ? this.global.add(() => this.run(name, fn)) : this.run(name, fn)));
  }

  /**
   * Not `async` when only failures are recorded: the outcome follows the work's own promise with
   * one `then` (the same continuations as an `await`), without an async frame per fire.
   */
  private run(name: string, fn: () => Promise<JobResult>): Promise<TriggerOutcome> {
    if (!this.failuresOnly) return this.runRecorded(name, fn);
    const startedMs = this.options.clock.now();
    const failed = (err: unknown): TriggerOutcome => this.failed(name, startedMs, err);
    try {
      return fn().then(outcomeOf, failed);
    } catch (err) {
      return Promise.resolve(failed(err));
    }
  }

  private async runRecorded(name: string, fn: () => Promise<JobResult>): Promise<TriggerOutcome> {
    const { clock } = this.options;
    const startedMs = clock.now();
    try {
      const r = await fn();
      const endedMs = clock.now();
      if (r === 'paused') return this.heldBack(name, startedMs, endedMs);
      this.held.delete(name);
      this.last.set(name, { startedMs, endedMs, outcome: 'ran' });
      this.options.events?.onRun?.(name, 'ran', startedMs, endedMs);
      return 'ran';
    } catch (err) {
      return this.failed(name, startedMs, err);
    }
  }

  /** A run that threw or rejected: recorded and reported whatever the mode. */
  private failed(name: string, startedMs: number, err: unknown): TriggerOutcome {
    const endedMs = this.options.clock.now();
    this.held.delete(name);
    this.last.set(name, { startedMs, endedMs, outcome: 'failed', errorCode: errorCode(err) });
    this.options.events?.onRun?.(name, 'failed', startedMs, endedMs, err);
    return 'failed';
  }

  /** A trigger a pause held back: the last real run stays what it was, the job reads as paused. */
  private heldBack(name: string, startedMs: number, endedMs: number): TriggerOutcome {
    this.held.add(name);
    this.options.events?.onRun?.(name, 'paused', startedMs, endedMs);
    return 'paused';
  }

  private lane(name: string): PQueue {
    let q = this.lanes.get(name);
    if (q === undefined) {
      q = new PQueue({ concurrency: 1 });
      this.lanes.set(name, q);
    }
    return q;
  }

  lastRun(name: string): LastRun | undefined {
    return this.last.get(name);
  }

  skipped(name: string): number {
    return this.skips.get(name) ?? 0;
  }

  /** Every job's last run, outcome (`paused` while held back) and skip count. */
  report(): Record<string, JobReport> {
    const out: Record<string, JobReport> = {};
    for (const name of this.jobs.keys()) {
      const last = this.last.get(name);
      out[name] = { lastRunMs: last?.endedMs ?? null, lastOutcome: this.held.has(name) ? 'paused' : (last?.outcome ?? null), skipped: this.skipped(name) };
    }
    return out;
  }

  /** Work running or waiting, across all lanes. */
  get inFlight(): number {
    let n = 0;
    for (const q of this.lanes.values()) n += q.size + q.pending;
    return n;
  }

  /** Starts the cron triggers of every job added so far. */
  start(): void {
    for (const { spec: job } of this.jobs.values()) {
      if (job.cron === undefined) continue;
      const task = createTask(job.cron, () => {
        void this.trigger(job.name);
      }, { name: job.name });
      void task.start();
      this.tasks.push(task);
    }
  }

  /** No new work from now on: cron triggers destroyed, `trigger`/`enqueue` answer 'stopped'. */
  async stop(): Promise<void> {
    this.stopped = true;
    const tasks = this.tasks.splice(0);
    await Promise.all(tasks.map(async (t) => t.destroy()));
  }

  /** Waits until in-flight work is done or `timeoutMs` passed. True when everything finished. */
  async drain(timeoutMs: number): Promise<boolean> {
    const idle = Promise.all([...this.lanes.values()].map((q) => q.onIdle())).then(() => true as const);
    const abort = new AbortController();
    const timeout = this.options.clock.sleep(timeoutMs, abort.signal).then(
      () => false as const,
      () => false as const,
    );
    const done = await Promise.race([idle, timeout]);
    abort.abort();
    return done;
  }
}
