/**
 * One of several processes sharing an API key and a Redis budget (cluster.test.ts): saturates
 * the main-balance pool for RUN_MS and prints one JSON line with its outcomes and its start and
 * end (epoch ms).
 */
import { SystemClock } from '../../src/core/clock.js';
import { createApiClient } from '../../src/exchange/api-client.js';
import { saturate } from './saturate.js';

const env = (k: string): string => {
  const v = process.env[k];
  if (v === undefined) throw new Error(`${k} is required`);
  return v;
};

const client = createApiClient({
  baseUrl: env('BASE_URL'),
  apiKey: env('API_KEY'),
  apiSecret: env('API_SECRET'),
  nonceMode: 'window',
  clock: new SystemClock(),
  retry: { attempts: 1 },
  queueDeadlineMs: 60_000,
  rateLimits: { redisUrl: env('REDIS_URL'), pools: { mainBalance: JSON.parse(env('POOL')) as { limit: number; windowMs: number } } },
});
const startMs = Date.now();
const outcomes = await saturate(() => client.mainBalance(), Number(env('RUN_MS')), 20);
const endMs = Date.now();
await client.close();
process.stdout.write(`${JSON.stringify({ outcomes, startMs, endMs })}\n`);
