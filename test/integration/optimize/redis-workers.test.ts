/**
 * Trials over Redis (src/optimize/redis-executor.ts, redis-worker.ts): a real redis-server, two
 * `optimize worker` processes started through their command, one SIGKILLed while it runs a
 * trial. BullMQ's stalled-job check (short lock and interval, set through the workers' flags)
 * gives that trial to the other worker; the study completes with every trial reported once, and
 * the outcomes equal a local run of the same trials. Submitting the study again runs nothing and
 * reports the finished trials from their jobs. A worker whose data differs refuses the trial, and
 * a later submit with matching data runs it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Queue } from 'bullmq';
import { describe, expect, it, onTestFinished } from 'vitest';
import { LocalExecutor, type ExecutorEnd } from '../../../src/optimize/local-executor.js';
import { RedisExecutor } from '../../../src/optimize/redis-executor.js';
import { queueName, trialJobId } from '../../../src/optimize/redis-queue.js';
import { silentLogger } from '../../../src/observability/logger.js';
import type { StudyInputs, TrialSpec } from '../../../src/optimize/types.js';
import { eventually } from '../../support/eventually.js';
import { RedisServer, redisAvailable } from '../../support/redis-server.js';
import { closeAfterTest } from '../../support/test-scope.js';
import { comparable, gridTrials, studyInputs } from './study-fixture.js';

const TSX = pathToFileURL(path.join(path.dirname(createRequire(import.meta.url).resolve('tsx/package.json')), 'dist/esm/index.mjs')).href;

/** An `optimize worker` process (the command's own entry, from source), stopped when the test ends. */
function startWorker(url: string, logLevel = 'info'): ChildProcess & { log: () => string } {
  const args = ['--import', TSX, 'src/cli/optimize-worker.ts', '--redis', url, '--concurrency', '1', '--lock-duration', '2000', '--stalled-interval', '1000', '--log-level', logLevel];
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  child.stderr?.on('data', (d: Buffer) => (log += d.toString()));
  onTestFinished(async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  });
  return Object.assign(child, { log: () => log });
}

async function runStudy(executor: RedisExecutor | LocalExecutor, inputs: StudyInputs, trials: readonly TrialSpec[]): Promise<ExecutorEnd[]> {
  const ends: ExecutorEnd[] = [];
  await executor.run(inputs, trials, (end) => ends.push(end), new AbortController().signal);
  return ends;
}

describe.skipIf(!redisAvailable())('trials on workers over Redis', () => {
  it('survives a worker killed mid-trial: every trial reported once, outcomes equal a local run', async () => {
    const redis = closeAfterTest(await RedisServer.start());
    const inputs = studyInputs(1);
    const trials = gridTrials(inputs, 4);
    const study = 'killed-worker';
    const executor = closeAfterTest(new RedisExecutor({ url: redis.url, study, logger: silentLogger(), pollMs: 250 }));
    const queue = closeAfterTest(new Queue(queueName(study), { connection: { host: '127.0.0.1', port: redis.port } }));
    const doomed = startWorker(redis.url);
    const survivor = startWorker(redis.url);
    const ends: ExecutorEnd[] = [];
    const done = executor.run(inputs, trials, (end) => ends.push(end), new AbortController().signal);

    // The first worker is killed while it runs a trial.
    const held = await eventually(
      async () => (await queue.getActive()).find((j) => j.processedBy?.endsWith(`:${doomed.pid}`)),
      'a trial running on the first worker',
      { timeoutMs: 60_000, everyMs: 50 },
    );
    doomed.kill('SIGKILL');
    await done;

    expect(ends).toHaveLength(trials.length);
    expect(new Set(ends.map((e) => (e.ok ? e.outcome.key : e.failure.key))).size).toBe(trials.length);
    expect(ends.every((e) => e.ok)).toBe(true);
    // The killed worker's trial was put back by the stalled-job check and finished by the other.
    const retried = await queue.getJob(held.id as string);
    expect(retried?.stalledCounter).toBeGreaterThanOrEqual(1);
    expect(retried?.processedBy).toMatch(new RegExp(`:${survivor.pid}$`));
    expect(ends.every((e) => e.ok && e.outcome.ranBy.startsWith('redis:'))).toBe(true);

    const local = await runStudy(closeAfterTest(new LocalExecutor({ workers: 1 })), inputs, trials);
    expect(comparable(ends)).toEqual(comparable(local));

    // The same study again: the jobs exist (ids are study + trial key), nothing is added or run.
    const again = await runStudy(executor, inputs, trials);
    expect(comparable(again)).toEqual(comparable(ends));
    expect(await queue.getJobCounts('completed', 'waiting', 'active')).toEqual({ completed: trials.length, waiting: 0, active: 0 });
  }, 600_000);

  it('fails a trial as refused, without retry, on a worker whose data differs; a resubmit runs it', async () => {
    const redis = closeAfterTest(await RedisServer.start());
    const inputs = studyInputs(1);
    // The coordinator's config differs from what it says it hashed: every worker's own hash differs.
    const stale = { ...inputs, configSha256: '0'.repeat(64) };
    const [trial] = gridTrials(inputs, 1) as [TrialSpec];
    const executor = closeAfterTest(new RedisExecutor({ url: redis.url, study: 'refused', logger: silentLogger(), pollMs: 250 }));
    const worker = startWorker(redis.url);
    const ends = await runStudy(executor, stale, [trial]);
    expect(ends).toEqual([{ ok: false, failure: { key: trial.key, error: expect.stringMatching(/data differs from the study's: config/) as string } }]);
    const queue = closeAfterTest(new Queue(queueName('refused'), { connection: { host: '127.0.0.1', port: redis.port } }));
    const job = await queue.getJob(trialJobId('refused', trial.key));
    expect(job?.attemptsMade).toBe(1);
    await eventually(() => worker.log().includes('trial refused'), 'the worker to log the refusal');
    // Submitted again with inputs that match: the failed job is replaced and the trial runs.
    const retried = await runStudy(executor, inputs, [trial]);
    expect(retried.map((e) => e.ok && e.outcome.key)).toEqual([trial.key]);
  }, 300_000);

  it('never shows the password of its Redis URL', async () => {
    const redis = closeAfterTest(await RedisServer.start());
    // The test server has no password: the worker still connects, and logs what it was given.
    const worker = startWorker(`redis://:s3cret-worker-pass@127.0.0.1:${redis.port}`, 'debug');
    const log = await eventually(() => worker.log().includes('optimize worker: started') && worker.log(), 'the worker to start', { timeoutMs: 60_000, everyMs: 100 });
    expect(log).toContain('redis://:***@127.0.0.1');
    expect(log).not.toContain('s3cret-worker-pass');
  }, 120_000);
});
