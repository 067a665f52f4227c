/**
 * The request queue (one Bottleneck limiter per pool), local and on Redis, with no-op jobs so
 * the figures are the queue's own:
 * - overhead per request: sequential (one job after another, the shape of strict-nonce private
 *   calls) and 16 concurrent;
 * - ceiling per limiter: jobs/s one limiter grants when the budget is not the limit;
 * - sustained fraction of a pool's budget under saturation (the last window of a 2-window run).
 * The Redis rows need `redis-server` on the PATH (started on a free port, stopped afterwards).
 */
import Bottleneck from 'bottleneck';
import { SystemClock } from '../../src/core/clock.js';
import { PRIORITY, type PoolSpec } from '../../src/exchange/rate-limits/pools.js';
import { planBucket } from '../../src/exchange/rate-limits/bucket.js';
import { PoolLimiter } from '../../src/exchange/rate-limits/pool-limiter.js';
import { RedisStore } from '../../src/exchange/rate-limits/redis-store.js';
import type { JobTicket } from '../../src/exchange/rate-limits/ticket.js';
import { RedisServer, redisAvailable } from '../support/redis-server.js';

const clock = new SystemClock();
const UNLIMITED: PoolSpec = { limit: 10_000_000, windowMs: 10_000, safetyMargin: 1 };
const SATURATED: PoolSpec = { limit: 1_000, windowMs: 5_000, safetyMargin: 0.8 };

function limiter(spec: PoolSpec, store: RedisStore | undefined, name: 'orders' | 'public' = 'orders'): PoolLimiter {
  return new PoolLimiter({
    name,
    spec,
    plan: planBucket(spec, { slack: 0, minCapacity: 1 }),
    clock,
    maxQueued: 100_000,
    deadlineMs: 600_000,
    pause: { baseMs: 1000, maxMs: 30_000, maxRetryAfterMs: 60_000 },
    random: Math.random,
    shared: store,
  });
}

const noop = async (ticket: JobTicket): Promise<void> => ticket.claim();

async function sequentialUs(p: PoolLimiter, n: number): Promise<number> {
  for (let i = 0; i < 20; i++) await p.schedule(PRIORITY.read, 1, noop); // warm-up
  const t0 = performance.now();
  for (let i = 0; i < n; i++) await p.schedule(PRIORITY.read, 1, noop);
  return ((performance.now() - t0) * 1000) / n;
}

/** µs per job with `lanes` jobs outstanding; also the mean time one job spends in the queue. */
async function concurrent(p: PoolLimiter, n: number, lanes: number): Promise<{ perJobUs: number; latencyUs: number }> {
  let done = 0;
  let latency = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: lanes }, async () => {
      while (done < n) {
        done += 1;
        const s = performance.now();
        await p.schedule(PRIORITY.read, 1, noop);
        latency += performance.now() - s;
      }
    }),
  );
  return { perJobUs: ((performance.now() - t0) * 1000) / n, latencyUs: (latency * 1000) / n };
}

/** Jobs/s with everything submitted at once. */
async function ceiling(p: PoolLimiter, n: number): Promise<number> {
  const t0 = performance.now();
  await Promise.all(Array.from({ length: n }, () => p.schedule(PRIORITY.read, 1, noop)));
  return n / ((performance.now() - t0) / 1000);
}

/** Grants in the last window of a 2-window saturation, over the budget. */
async function sustained(p: PoolLimiter, spec: PoolSpec): Promise<number> {
  const grants: number[] = [];
  const end = performance.now() + 2 * spec.windowMs;
  const job = async (ticket: JobTicket): Promise<void> => {
    ticket.claim();
    grants.push(performance.now());
  };
  await Promise.all(
    Array.from({ length: 50 }, async () => {
      while (performance.now() < end) await p.schedule(PRIORITY.read, 1, job);
    }),
  );
  const last = grants.filter((t) => t > end - spec.windowMs && t <= end).length;
  return last / p.budget;
}

async function measure(label: string, store: RedisStore | undefined): Promise<void> {
  const fast = limiter(UNLIMITED, store);
  if (store !== undefined) await waitGranting(fast);
  const seq = await sequentialUs(fast, 300);
  const par = await concurrent(fast, 2000, 16);
  const ceil = await ceiling(fast, 3000);
  await fast.stop();
  const slow = limiter(SATURATED, store, 'public');
  const frac = await sustained(slow, SATURATED);
  await slow.stop();
  console.log(
    `  ${label.padEnd(6)} sequential ${seq.toFixed(0).padStart(6)} µs/req | 16 concurrent ${par.perJobUs.toFixed(0).padStart(5)} µs/req ` +
      `(each waits ${(par.latencyUs / 1000).toFixed(1)} ms) | ceiling ${ceil.toFixed(0).padStart(5)} req/s per limiter | ` +
      `sustained ${(frac * 100).toFixed(1)} % of budget = ${(frac * SATURATED.safetyMargin * 100).toFixed(1)} % of the venue limit`,
  );
}

/** A fresh shared bucket starts one increase below zero: wait for its first tokens. */
async function waitGranting(p: PoolLimiter): Promise<void> {
  await p.schedule(PRIORITY.read, 1, noop);
}

export default async function bench(): Promise<void> {
  console.log(`request queue (Bottleneck ${(Bottleneck as unknown as { version: string }).version}), no-op jobs; saturation: ${SATURATED.limit} per ${SATURATED.windowMs} ms, margin ${SATURATED.safetyMargin}`);
  // The bot's timers never hold the process open (a daemon has its sockets); here nothing else would.
  const keepAlive = setInterval(() => undefined, 1000);
  try {
    await measure('local', undefined);
    await measureRedis();
  } finally {
    clearInterval(keepAlive);
  }
}

async function measureRedis(): Promise<void> {
  if (!redisAvailable()) {
    console.log('  redis  skipped: redis-server not installed');
    return;
  }
  const redis = await RedisServer.start();
  const store = new RedisStore(redis.url, `bench-${Date.now()}`, clock);
  try {
    while (!store.health().up) await new Promise((r) => setTimeout(r, 20));
    await measure('redis', store);
  } finally {
    await store.close();
    await redis.close();
  }
}
