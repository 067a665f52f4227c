/**
 * Why the request queue is our own sliding-window pool and not Bottleneck (which the design
 * named): the per-job cost of each, for sequential no-op jobs (the shape of strict-nonce private
 * calls, where every request waits for the previous one). Prints µs per job and the ratio.
 */
import Bottleneck from 'bottleneck';
import { SystemClock } from '../../src/core/clock.js';
import { PRIORITY, RatePool } from '../../src/exchange/rate-limits.js';

const JOBS = 1000;

async function timeSequential(run: () => Promise<unknown>): Promise<number> {
  for (let i = 0; i < 50; i++) await run(); // warm-up
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < JOBS; i++) await run();
  return Number(process.hrtime.bigint() - t0) / 1e3 / JOBS;
}

export default async function bench(): Promise<void> {
  const limiter = new Bottleneck({ maxConcurrent: 1, highWater: 1000, strategy: Bottleneck.strategy.OVERFLOW });
  const bottleneckUs = await timeSequential(() => limiter.schedule({ priority: 5 }, async () => 1));
  await limiter.stop({ dropWaitingJobs: true });

  const pool = new RatePool({
    name: 'orders',
    spec: { limit: 1_000_000, windowMs: 10_000, safetyMargin: 0.8 },
    clock: new SystemClock(),
    maxQueued: 1000,
    pause: { baseMs: 1000, maxMs: 30_000 },
    random: Math.random,
  });
  const poolUs = await timeSequential(() => pool.schedule(PRIORITY.read, 1, async () => 1));
  await pool.stop();

  console.log(`sequential no-op jobs: ${JOBS}`);
  console.log(`  Bottleneck 2.19.5   ${bottleneckUs.toFixed(1)} µs/job`);
  console.log(`  RatePool (ours)     ${poolUs.toFixed(1)} µs/job`);
  console.log(`  ratio Bottleneck/RatePool: ${(bottleneckUs / poolUs).toFixed(0)}x`);
}
