/**
 * Clustered mode on a real redis-server (free loopback port, no persistence, stopped by pid):
 * two processes sharing one API key draw from one budget, and the simulator (behind a counting
 * proxy) sees no window over its limit and no 429; when Redis stops mid-run no request is sent,
 * an alert is raised and health is degraded, and requests resume when it returns.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../../support/eventually.js';
import { SystemClock } from '../../../src/core/clock.js';
import { TransientError } from '../../../src/core/errors.js';
import { Redis } from 'ioredis';
import { createApiClient } from '../../../src/exchange/api-client.js';
import { keyHash } from '../../../src/exchange/rate-limits/redis-store.js';
import type { ClientAlert } from '../../../src/exchange/request-queue.js';
import { startSimulator, type SimulatorHandle } from '../../../src/simulator/index.js';
import { CountingProxy, maxInWindow } from '../../support/counting-proxy.js';
import { failure } from '../../support/fixture-client.js';
import { RedisServer } from '../../support/redis-server.js';

const BAL = '/api/v4/main-account/balance';
const CHILD = path.resolve('test/support/cluster-child.ts');
const W = 4_000;
const L = 400;
let redis: RedisServer;
let sim: SimulatorHandle;
let proxy: CountingProxy;

beforeAll(async () => {
  redis = await RedisServer.start();
  sim = await startSimulator({ rateLimits: { balance: { limit: L, windowMs: W } } });
  proxy = await CountingProxy.start(sim.baseUrl);
});

afterAll(async () => {
  await proxy.close();
  await sim.close();
  await redis.close();
});

interface ChildReport {
  outcomes: Record<string, number>;
  startMs: number;
  endMs: number;
}

function runChild(env: Record<string, string>): Promise<ChildReport> {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => {
      if (code !== 0) reject(new Error(`child exited ${code}: ${err.slice(-500)}`));
      else resolve(JSON.parse(out.trim().split('\n').at(-1)!) as ChildReport);
    });
  });
}

describe('clustered budget (Redis)', () => {
  it('two processes on one key saturate together: one budget, no window over the limit, no 429', async () => {
    const key = sim.createAccount({ balances: { USDT: '100' } });
    const env = {
      BASE_URL: proxy.url,
      API_KEY: key.apiKey,
      API_SECRET: key.apiSecret,
      REDIS_URL: redis.url,
      POOL: JSON.stringify({ limit: L, windowMs: W }),
      RUN_MS: String(2 * W),
    };
    const reports = await Promise.all([runChild(env), runChild(env)]);
    const hits = proxy.to(BAL).filter((h) => h.at >= Math.min(...reports.map((r) => r.startMs)));
    expect(hits.filter((h) => h.status === 429)).toEqual([]);
    expect(maxInWindow(hits.map((h) => h.at), W)).toBeLessThanOrEqual(L);
    for (const r of reports) {
      expect(r.outcomes['TRANSIENT_RATE_LIMITED'] ?? 0).toBe(0);
      expect(r.outcomes['NONCE_REJECTED'] ?? 0).toBe(0); // shared window nonces never collide
      expect(r.outcomes['ok']).toBeGreaterThan(0); // both drew from the budget
    }
    // Together they use the one budget: the last window both were saturating.
    const end = Math.min(...reports.map((r) => r.endMs));
    const steady = hits.filter((h) => h.at > end - W && h.at <= end).length;
    expect(steady / L).toBeGreaterThanOrEqual(0.75);
    // The shared keys name the API key by a hash, never by its value.
    const inspect = new Redis(redis.url);
    const keys = await inspect.keys('*');
    await inspect.quit();
    expect(keys.some((k) => k.includes(keyHash(key.apiKey)))).toBe(true);
    expect(keys.filter((k) => k.includes(key.apiKey) || k.includes(key.apiSecret))).toEqual([]);
  });

  it('Redis stopped mid-run: nothing is sent, an alert is raised, health degrades; requests resume when it returns', async () => {
    const key = sim.createAccount({ balances: { USDT: '100' } });
    const alerts: ClientAlert[] = [];
    const client = createApiClient({
      baseUrl: proxy.url,
      ...key,
      nonceMode: 'window',
      clock: new SystemClock(),
      retry: { attempts: 1 },
      queueDeadlineMs: 2_000,
      rateLimits: { redisUrl: redis.url, pools: { mainBalance: { limit: 20, windowMs: 1_000 } } },
      onAlert: (a) => alerts.push(a),
    });
    const sent = (): number => proxy.to(BAL).filter((h) => h.at >= startedAt).length;
    const startedAt = CountingProxy.now();
    await client.mainBalance();
    expect(client.requestQueueHealth()).toMatchObject({ store: 'redis', storeUp: true });

    await redis.stop();
    await eventually(() => !client.requestQueueHealth().storeUp, '!client.requestQueueHealth().storeUp');
    expect(alerts.map((a) => a.kind)).toContain('rate_limit_store_down');
    const before = sent();
    const refused = await Promise.all(Array.from({ length: 10 }, () => failure(client.mainBalance())));
    for (const err of refused) {
      expect(err).toBeInstanceOf(TransientError);
      expect((err as TransientError).context).toMatchObject({ pool: 'mainBalance', reason: 'store_down' });
    }
    expect(sent()).toBe(before);

    await redis.restart(); // empty: Bottleneck recreates the bucket one increase below zero
    await eventually(() => client.requestQueueHealth().storeUp, 'client.requestQueueHealth().storeUp', { timeoutMs: 10_000 });
    expect(alerts.map((a) => a.kind)).toContain('rate_limit_store_up');
    await client.mainBalance();
    expect(sent()).toBe(before + 1);
    expect(proxy.to(BAL).filter((h) => h.status === 429)).toEqual([]);
    await client.close();
  });
});
