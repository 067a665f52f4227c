/**
 * Budget adherence against the simulator's sliding windows: every kind of pool saturated at
 * once through a counting proxy. The venue answers no 429, and in the last window of the run
 * (past the bucket's initial burst) it receives at least 75 % of its limit: the token bucket's
 * burst and the heartbeat's lateness cost a few percent of the 80 % budget (bucket.ts).
 *
 * Windows of 6 s instead of the venue's 10 s keep the run short; the bucket is built by the
 * same rule for any window.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SystemClock } from '../../../src/core/clock.js';
import { createApiClient, type ApiClient } from '../../../src/exchange/api-client.js';
import type { PoolName } from '../../../src/exchange/rate-limits/pools.js';
import { startSimulator, type SimulatorHandle } from '../../../src/simulator/index.js';
import { CountingProxy, maxInWindow } from '../../support/counting-proxy.js';
import { saturate } from '../../support/saturate.js';

const W = 6_000;
const L = 500;
let sim: SimulatorHandle;
let proxy: CountingProxy;
let client: ApiClient;

beforeAll(async () => {
  const limit = { limit: L, windowMs: W };
  sim = await startSimulator({ rateLimits: { orders: limit, history: limit, conditional: limit, balance: limit, public: limit } });
  proxy = await CountingProxy.start(sim.baseUrl);
  const pools: Partial<Record<PoolName, { limit: number; windowMs: number }>> = {};
  for (const p of ['public', 'orders', 'executedHistory', 'conditional', 'mainBalance'] as const) pools[p] = limit;
  client = createApiClient({
    baseUrl: proxy.url,
    ...sim.defaultAccount,
    nonceMode: 'window',
    clock: new SystemClock(),
    retry: { attempts: 1 },
    queueDeadlineMs: 60_000,
    rateLimits: { pools },
  });
});

afterAll(async () => {
  await client.close();
  await proxy.close();
  await sim.close();
});

const KINDS = {
  '/api/v4/public/ping': () => client.ping(),
  '/api/v4/order/cancel': () => client.cancelOrder({ market: 'BTC_USDT', orderId: 1 }),
  '/api/v4/trade-account/executed-history': () => client.executedHistory({ market: 'BTC_USDT', limit: 1 }),
  '/api/v4/orders/conditional': () => client.conditionalOrders({ market: 'BTC_USDT', limit: 1 }),
  '/api/v4/main-account/balance': () => client.mainBalance(),
} as const;

describe('budget adherence against the simulator', () => {
  it('saturated pools: no 429, no window over the limit, and ≥ 75 % of the venue limit in steady state', async () => {
    const start = CountingProxy.now();
    const runMs = 1.5 * W;
    const outcomes = await Promise.all(Object.values(KINDS).map((call) => saturate(call, runMs, 40)));
    const end = start + runMs;
    for (const [i, path] of Object.keys(KINDS).entries()) {
      const hits = proxy.to(path);
      expect(hits.filter((h) => h.status === 429), path).toEqual([]);
      expect(outcomes[i]!['TRANSIENT_RATE_LIMITED'] ?? 0, path).toBe(0);
      expect(maxInWindow(hits.map((h) => h.at), W), path).toBeLessThanOrEqual(L);
      // The last full window of the run: past the bucket's initial burst, the sustained rate.
      const steady = hits.filter((h) => h.at > end - W && h.at <= end).length;
      expect(steady / L, path).toBeGreaterThanOrEqual(0.75);
    }
  });
});
