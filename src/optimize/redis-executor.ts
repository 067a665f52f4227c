/**
 * The BullMQ executor (docs/optimize-workers.md § Executors): each trial becomes a job on the
 * study's queue, and any number of `optimize worker` processes, on any machines, run them. Results
 * come back as the jobs' return values: through QueueEvents as jobs end, and by reading the jobs
 * (a safety net for events missed, and for trials a previous submit already finished: the job id
 * is study + trial key, so submitting again adds nothing and the finished job's value is used).
 *
 * A job whose worker died is retried by BullMQ's stalled-job recovery; its trial may then end
 * twice, and each key is reported once. A worker whose data differs from the study's fails the
 * job without retry (`data differs`): reported as that trial's failure.
 */
import { Job, Queue, QueueEvents } from 'bullmq';
import type { Redis } from 'ioredis';
import { SystemClock } from '../core/clock.js';
import { errorMessage } from '../core/errors.js';
import type { Logger } from '../observability/logger.js';
import { maskRedisUrl, queueName, redisConnection, STUDY_REGISTRY_KEY, trialJobId, type TrialJobData, type TrialJobResult } from './redis-queue.js';
import type { StudyInputs, TrialExecutor, TrialSpec } from './types.js';

/** Finished jobs are kept this long, so a resumed or repeated submit finds their values. */
const KEEP_SECONDS = 7 * 24 * 3600;

export interface RedisExecutorOptions {
  url: string;
  study: string;
  logger: Logger;
  /** Trials in flight at once, for progress and batching (the workers decide the real figure). Default 8. */
  slots?: number;
  /** How often unfinished jobs are read back (events missed). Default 2 s. */
  pollMs?: number;
}

type End = Parameters<TrialExecutor['run']>[2] extends (end: infer E) => void ? E : never;

/** One `run`: the trials not yet reported, by job id, and reporting each key once. */
class Pending {
  private readonly byJob = new Map<string, TrialSpec>();
  private readonly reported = new Set<string>();
  private wake: (() => void) | null = null;

  constructor(
    study: string,
    trials: readonly TrialSpec[],
    private readonly onEnd: (end: End) => void,
    private readonly signal: AbortSignal,
  ) {
    for (const t of trials) this.byJob.set(trialJobId(study, t.key), t);
  }

  get size(): number {
    return this.byJob.size;
  }

  jobIds(): string[] {
    return [...this.byJob.keys()];
  }

  completed(jobId: string, value: unknown): void {
    const spec = this.take(jobId);
    if (spec === undefined) return;
    const r = value as TrialJobResult | null;
    if (r?.ok === true && r.outcome.key === spec.key) this.onEnd({ ok: true, outcome: r.outcome });
    else if (r?.ok === false) this.onEnd({ ok: false, failure: { key: spec.key, error: r.failure.error } });
    else this.onEnd({ ok: false, failure: { key: spec.key, error: 'the worker returned no outcome for the trial' } });
  }

  failed(jobId: string, reason: string): void {
    const spec = this.take(jobId);
    if (spec !== undefined) this.onEnd({ ok: false, failure: { key: spec.key, error: `refused or failed on a worker: ${reason}` } });
  }

  /** Resolves when every trial is reported or the run is aborted. */
  done(): Promise<void> {
    return new Promise((resolve) => {
      const check = (): void => {
        if (this.byJob.size === 0 || this.signal.aborted) resolve();
      };
      this.wake = check;
      this.signal.addEventListener('abort', check, { once: true });
      check();
    });
  }

  private take(jobId: string): TrialSpec | undefined {
    const spec = this.byJob.get(jobId);
    if (spec === undefined || this.signal.aborted) return undefined;
    this.byJob.delete(jobId);
    // A retried job (its first worker died) can end twice: the key is reported once.
    if (this.reported.has(spec.key)) return undefined;
    this.reported.add(spec.key);
    queueMicrotask(() => this.wake?.());
    return spec;
  }
}

export class RedisExecutor implements TrialExecutor {
  readonly slots: number;
  private readonly name: string;
  private connection: Redis | null = null;
  private queue: Queue<TrialJobData, TrialJobResult> | null = null;
  private events: QueueEvents | null = null;
  private eventsConnection: Redis | null = null;

  constructor(private readonly options: RedisExecutorOptions) {
    this.slots = options.slots ?? 8;
    this.name = queueName(options.study);
  }

  /** The study's queue name (workers find it in the registry). */
  get queueName(): string {
    return this.name;
  }

  private async open(): Promise<{ connection: Redis; queue: Queue<TrialJobData, TrialJobResult>; events: QueueEvents }> {
    if (this.connection === null) {
      this.connection = redisConnection(this.options.url);
      this.queue = new Queue<TrialJobData, TrialJobResult>(this.name, { connection: this.connection });
      this.eventsConnection = this.connection.duplicate();
      this.events = new QueueEvents(this.name, { connection: this.eventsConnection });
      // Logged, not thrown: ioredis reconnects, and unfinished jobs are read back once it has.
      const warn = (err: Error): void => this.options.logger.warn({ err: err.message }, 'optimize: redis error');
      this.connection.on('error', warn);
      this.eventsConnection.on('error', warn);
      this.queue.on('error', warn);
      this.events.on('error', warn);
      await this.events.waitUntilReady();
      this.options.logger.info({ redis: maskRedisUrl(this.options.url), queue: this.name }, 'optimize: trials go to the study queue on redis');
    }
    return { connection: this.connection, queue: this.queue as Queue<TrialJobData, TrialJobResult>, events: this.events as QueueEvents };
  }

  async run(inputs: StudyInputs, trials: readonly TrialSpec[], onEnd: (end: End) => void, signal: AbortSignal): Promise<void> {
    if (signal.aborted || trials.length === 0) return;
    const { connection, queue, events } = await this.open();
    const pending = new Pending(this.options.study, trials, onEnd, signal);
    const onCompleted = ({ jobId, returnvalue }: { jobId: string; returnvalue: unknown }): void => pending.completed(jobId, returnvalue);
    const onFailed = ({ jobId, failedReason }: { jobId: string; failedReason: string }): void => pending.failed(jobId, failedReason);
    events.on('completed', onCompleted);
    events.on('failed', onFailed);
    try {
      await connection.sadd(STUDY_REGISTRY_KEY, this.name);
      await this.clearFailed(queue, pending);
      const keep = { age: KEEP_SECONDS };
      await queue.addBulk(
        trials.map((spec) => ({ name: 'trial', data: { inputs, spec }, opts: { jobId: trialJobId(this.options.study, spec.key), removeOnComplete: keep, removeOnFail: keep } })),
      );
      await Promise.race([pending.done(), this.poll(queue, pending, signal)]);
    } finally {
      events.off('completed', onCompleted);
      events.off('failed', onFailed);
      // Aborted: trials not started are taken off the queue, so workers stop picking them up.
      if (signal.aborted) await queue.drain().catch((err: unknown) => this.options.logger.warn({ err: errorMessage(err) }, 'optimize: could not drain the queue'));
      await connection.srem(STUDY_REGISTRY_KEY, this.name).catch(() => undefined);
    }
  }

  /**
   * Jobs of these trials that failed in an earlier submit (refused data, stalled twice) are removed,
   * so this submit runs them again with its own inputs; finished trials' jobs are kept and reused.
   */
  private async clearFailed(queue: Queue<TrialJobData, TrialJobResult>, pending: Pending): Promise<void> {
    const ids = new Set(pending.jobIds());
    for (const job of await queue.getJobs(['failed'])) if (job.id !== undefined && ids.has(job.id)) await job.remove();
  }

  /** Reads unfinished jobs back until none is left (never resolves first unless the run ends). */
  private async poll(queue: Queue<TrialJobData, TrialJobResult>, pending: Pending, signal: AbortSignal): Promise<void> {
    const clock = new SystemClock();
    for (;;) {
      for (const id of pending.jobIds()) {
        const job = await Job.fromId<TrialJobData, TrialJobResult>(queue, id);
        const state = await job?.getState();
        if (state === 'completed') pending.completed(id, job?.returnvalue);
        else if (state === 'failed') pending.failed(id, job?.failedReason ?? 'unknown');
      }
      if (pending.size === 0) return;
      await clock.sleep(this.options.pollMs ?? 2_000, signal).catch(() => undefined);
      if (signal.aborted) return;
    }
  }

  async close(): Promise<void> {
    await this.events?.close();
    await this.queue?.close();
    await this.eventsConnection?.quit().catch(() => undefined);
    await this.connection?.quit().catch(() => undefined);
    this.connection = null;
    this.eventsConnection = null;
  }
}
