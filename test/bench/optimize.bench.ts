/**
 * `npm run bench -- optimize`: trials per second of the optimiser's executors over the same short
 * trials (config/bot.json's grid instance, `BENCH_OPTIMIZE_HOURS` sample hours each, default 2;
 * `BENCH_OPTIMIZE_TRIALS` of them, default 8): the floor (the same trials back to back in this
 * thread with runTrial, no runner process), the local executor on one runner and on every core,
 * and two `optimize worker` processes (one runner each) over a redis-server on a free port. Each
 * executor first runs one round of trials so runner start-up is not measured (the floor one
 * trial: its module compile is cached after). Ratios are to the floor. Skips the Redis row without `redis-server`.
 */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { LocalExecutor } from '../../src/optimize/local-executor.js';
import { RedisExecutor } from '../../src/optimize/redis-executor.js';
import { runTrial } from '../../src/optimize/trial.js';
import type { StudyInputs, TrialExecutor, TrialSpec } from '../../src/optimize/types.js';
import { silentLogger } from '../../src/observability/logger.js';
import { RedisServer, redisAvailable } from '../support/redis-server.js';
import { gridTrials, studyInputs } from '../integration/optimize/study-fixture.js';

const HOURS = Number(process.env['BENCH_OPTIMIZE_HOURS'] ?? 2);
const TRIALS = Number(process.env['BENCH_OPTIMIZE_TRIALS'] ?? 8);
const TSX = pathToFileURL(path.join(path.dirname(createRequire(import.meta.url).resolve('tsx/package.json')), 'dist/esm/index.mjs')).href;

interface Row {
  name: string;
  slots: number;
  seconds: number;
  failed: number;
}

async function timed(name: string, slots: number, run: () => Promise<number>): Promise<Row> {
  const started = performance.now();
  const failed = await run();
  return { name, slots, seconds: (performance.now() - started) / 1000, failed };
}

async function runAll(executor: TrialExecutor, inputs: StudyInputs, trials: readonly TrialSpec[]): Promise<number> {
  let failed = 0;
  await executor.run(inputs, trials, (end) => (failed += end.ok ? 0 : 1), new AbortController().signal);
  return failed;
}

/** Times `trials` on `executor` after a first round of `slots` trials has started its runners (start-up is not measured). */
async function onExecutor(name: string, executor: TrialExecutor, inputs: StudyInputs, trials: readonly TrialSpec[]): Promise<Row> {
  try {
    await runAll(executor, inputs, trials.slice(0, executor.slots));
    return await timed(name, executor.slots, () => runAll(executor, inputs, trials));
  } finally {
    await executor.close();
  }
}

async function floor(inputs: StudyInputs, trials: readonly TrialSpec[]): Promise<number> {
  let failed = 0;
  for (const t of trials) await runTrial(inputs, t).catch(() => failed++);
  return failed;
}

async function overRedis(inputs: StudyInputs, trials: readonly TrialSpec[]): Promise<Row | null> {
  if (!redisAvailable()) return null;
  const redis = await RedisServer.start();
  const args = ['--import', TSX, 'src/cli/optimize-worker.ts', '--redis', redis.url, '--concurrency', '1', '--log-level', 'warn'];
  const workers = [0, 1].map(() => spawn(process.execPath, args, { stdio: 'ignore' }));
  try {
    // The warm-up round is a study of its own: the timed study's jobs are all new.
    const warm = new RedisExecutor({ url: redis.url, study: 'bench-warm', logger: silentLogger(), pollMs: 250, slots: 2 });
    await runAll(warm, inputs, trials.slice(0, 2)).finally(() => warm.close());
    const timedStudy = new RedisExecutor({ url: redis.url, study: 'bench', logger: silentLogger(), pollMs: 250, slots: 2 });
    return await timed('2 workers over Redis', 2, () => runAll(timedStudy, inputs, trials)).finally(() => timedStudy.close());
  } finally {
    await Promise.all(workers.map((w) => new Promise((resolve) => (w.once('exit', resolve), w.kill('SIGTERM')))));
    await redis.close();
  }
}

export default async function bench(): Promise<void> {
  const inputs = studyInputs(HOURS);
  const trials = gridTrials(inputs, TRIALS);
  const cores = os.availableParallelism();
  await floor(inputs, trials.slice(0, 1));
  const rows: Row[] = [await timed('floor: runTrial back to back in this thread', 1, () => floor(inputs, trials))];
  rows.push(await onExecutor('local executor, 1 runner', new LocalExecutor({ workers: 1 }), inputs, trials));
  rows.push(await onExecutor(`local executor, ${cores} runners (all cores)`, new LocalExecutor({ workers: cores }), inputs, trials));
  const redis = await overRedis(inputs, trials);
  if (redis !== null) rows.push(redis);
  const base = TRIALS / (rows[0] as Row).seconds;
  console.log(`${TRIALS} trials of ${HOURS} h (one-minute prices), load average ${os.loadavg()[0]?.toFixed(1)} on ${cores} cores`);
  console.log('| executor | slots | trials/s | wall s | failed | × floor |');
  console.log('|---|---|---|---|---|---|');
  for (const r of rows) {
    const rate = TRIALS / r.seconds;
    console.log(`| ${r.name} | ${r.slots} | ${rate.toFixed(3)} | ${r.seconds.toFixed(1)} | ${r.failed} | ${(rate / base).toFixed(2)} |`);
  }
  if (redis === null) console.log('(redis-server not found: the Redis row is skipped)');
}
