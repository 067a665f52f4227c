/**
 * `optimize worker --redis URL [--concurrency N]` (docs/optimize-workers.md § Workers): serves
 * every open study on that Redis. It watches the study registry (redis-queue.ts), runs a BullMQ
 * worker on each open study's queue and hands each job to its runner processes (runner-pool.ts),
 * `concurrency` of them, shared by all studies. Trials run in those child processes, so this
 * process's event loop is free to renew its job locks however long a trial takes.
 *
 * A job whose data differs from this machine's (hashes) fails with `data differs` and is not
 * retried (UnrecoverableError). A trial's own failure (a rejected param) is the job's value: it
 * would fail the same way anywhere. If this process dies, its jobs' locks expire and BullMQ's
 * stalled-job check of another worker puts them back in the queue.
 */
import os from 'node:os';
import { UnrecoverableError, Worker, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import { SystemClock } from '../core/clock.js';
import { errorMessage } from '../core/errors.js';
import type { Logger } from '../observability/logger.js';
import { maskRedisUrl, redisConnection, STUDY_REGISTRY_KEY, type TrialJobData, type TrialJobResult } from './redis-queue.js';
import { RunnerPool } from './runner-pool.js';

export interface RedisWorkerOptions {
  url: string;
  /** Trials run at once (runner processes); default `os.availableParallelism()`. */
  concurrency?: number;
  logger: Logger;
  /** BullMQ's lock on a running job, renewed at half this; a dead worker's job waits this long before it counts as stalled. Default 30 s. */
  lockDurationMs?: number;
  /** How often this worker looks for stalled jobs of dead workers. Default 30 s. */
  stalledIntervalMs?: number;
  /** How many times a job may stall before it fails instead of being retried. Default 1. */
  maxStalledCount?: number;
  /** How often the study registry is read. Default 1 s. */
  discoverEveryMs?: number;
  /** Stops the worker: running trials finish and their results are delivered first. */
  signal: AbortSignal;
}

/** This worker's name in jobs (`processedBy`) and outcomes (`ranBy`). */
export function workerName(): string {
  return `${os.hostname()}:${process.pid}`;
}

function processor(pool: RunnerPool, logger: Logger): (job: Job<TrialJobData, TrialJobResult>) => Promise<TrialJobResult> {
  return async (job) => {
    const { inputs, spec } = job.data;
    const end = await pool.run(inputs, spec);
    if (end.ok) return { ok: true, outcome: end.outcome };
    if (end.refused) {
      logger.warn({ trial: spec.key, error: end.failure.error }, 'optimize worker: trial refused');
      throw new UnrecoverableError(end.failure.error);
    }
    return { ok: false, failure: end.failure };
  };
}

/** Runs until `options.signal` aborts; then closes its BullMQ workers (letting running trials finish) and runners. */
export async function runRedisWorker(options: RedisWorkerOptions): Promise<void> {
  const { logger, signal } = options;
  const concurrency = options.concurrency ?? os.availableParallelism();
  const name = workerName();
  const pool = new RunnerPool(concurrency, () => `redis:${name}`);
  const connection = redisConnection(options.url);
  const workers = new Map<string, { worker: Worker<TrialJobData, TrialJobResult>; connection: Redis }>();
  const settings = {
    concurrency,
    name,
    lockDuration: options.lockDurationMs ?? 30_000,
    stalledInterval: options.stalledIntervalMs ?? 30_000,
    maxStalledCount: options.maxStalledCount ?? 1,
  };
  // Connection errors (Redis restarting, a network blip) are logged; ioredis reconnects by itself.
  const watched = (conn: Redis): Redis => conn.on('error', (err: Error) => logger.warn({ err: err.message }, 'optimize worker: redis connection error'));
  watched(connection);
  const serve = (queue: string): void => {
    const conn = watched(connection.duplicate());
    const worker = new Worker<TrialJobData, TrialJobResult>(queue, processor(pool, logger), { ...settings, connection: conn });
    worker.on('error', (err) => logger.warn({ queue, err: errorMessage(err) }, 'optimize worker: queue error'));
    worker.on('failed', (job, err) => logger.warn({ queue, trial: job?.data.spec.key, err: err.message }, 'optimize worker: job failed'));
    workers.set(queue, { worker, connection: conn });
    logger.info({ queue }, 'optimize worker: serving study queue');
  };
  const stop = async (queue: string): Promise<void> => {
    const w = workers.get(queue);
    workers.delete(queue);
    await w?.worker.close();
    await w?.connection.quit().catch(() => undefined);
  };
  logger.info({ redis: maskRedisUrl(options.url), concurrency, name }, 'optimize worker: started');
  const clock = new SystemClock();
  try {
    while (!signal.aborted) {
      const open = new Set(await connection.smembers(STUDY_REGISTRY_KEY).catch(() => [...workers.keys()]));
      [...open].filter((q) => !workers.has(q)).forEach(serve);
      // A closed study's worker finishes what it runs and stops.
      await Promise.all([...workers.keys()].filter((q) => !open.has(q)).map(stop));
      await clock.sleep(options.discoverEveryMs ?? 1_000, signal).catch(() => undefined);
    }
  } finally {
    await Promise.all([...workers.keys()].map(stop));
    await pool.stop();
    await connection.quit().catch(() => undefined);
    logger.info({ name }, 'optimize worker: stopped');
  }
}
