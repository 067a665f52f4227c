/**
 * Rate limits over real HTTP with short real windows: the budget holds over every sliding window
 * of the server's receive times, cancels overtake queued reads, the queue is bounded, a gateway
 * 429 pauses the pool and the read then succeeds.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { TransientError } from '../../../src/core/errors.js';
import { FixtureServer } from '../../support/fixture-server.js';
import { eventually } from '../../support/eventually.js';
import { fixtureClient, wireDeal, wireOrder } from '../../support/fixture-client.js';

const BAL = '/api/v4/main-account/balance';
const HIST = '/api/v4/trade-account/executed-history';
const CANCEL = '/api/v4/order/cancel';
let server: FixtureServer;

beforeAll(async () => {
  server = await FixtureServer.start();
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => server.reset());

function maxInSlidingWindow(times: number[], windowMs: number): number {
  let max = 0;
  for (const t of times) max = Math.max(max, times.filter((s) => s >= t && s < t + windowMs).length);
  return max;
}

describe('rate-limit pools over HTTP', () => {
  it.each(['strict', 'window'] as const)('never exceed 5 per 200 ms at the server, any window (%s nonces)', async (nonceMode) => {
    // Budget 4 (80 % of 5): the margin absorbs network jitter between sending and receiving.
    const client = fixtureClient(server.url, { nonceMode, rateLimits: { pools: { mainBalance: { limit: 5, windowMs: 200 } } } });
    server.setDefault(BAL, { json: { BTC: { main_balance: '1' } } });
    await Promise.all(Array.from({ length: 18 }, () => client.mainBalance()));
    const times = server.requestsTo(BAL).map((r) => r.receivedAt);
    expect(times).toHaveLength(18);
    expect(maxInSlidingWindow(times, 200)).toBeLessThanOrEqual(5);
    expect(client.rateLimitStatus().mainBalance.limit).toBe(4);
    await client.close();
  });

  it('cancels overtake queued reads in a shared pool', async () => {
    const client = fixtureClient(server.url, {
      nonceMode: 'window',
      endpointPools: { executedHistory: 'orders' },
      rateLimits: { pools: { orders: { limit: 2, windowMs: 150, safetyMargin: 1 } } },
    });
    server.setDefault(HIST, { json: [wireDeal()] });
    server.setDefault(CANCEL, { json: wireOrder({ orderId: 1, status: 'CANCELED' }) });
    const reads = Array.from({ length: 6 }, () => client.executedHistory({ market: 'BTC_USDT' }));
    await eventually(() => client.rateLimitStatus().orders.queued === 4, 'four queued orders');
    const cancel = client.cancelOrder({ market: 'BTC_USDT', orderId: 1 });
    await Promise.all([...reads, cancel]);
    const order = server.requests.map((r) => (r.path === CANCEL ? 'cancel' : 'read'));
    expect(order).toEqual(['read', 'read', 'cancel', 'read', 'read', 'read', 'read']);
    await client.close();
  });

  it('the bounded queue refuses when full, without sending', async () => {
    const client = fixtureClient(server.url, { maxQueued: 2, rateLimits: { pools: { mainBalance: { limit: 1, windowMs: 300, safetyMargin: 1 } } } });
    server.setDefault(BAL, { json: { BTC: { main_balance: '1' } } });
    const first = [client.mainBalance(), client.mainBalance(), client.mainBalance()];
    await eventually(() => client.rateLimitStatus().mainBalance.queued === 2, 'two queued balance reads');
    const err = await client.mainBalance().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TransientError);
    expect((err as TransientError).kind).toBe('rate_limited');
    expect((err as Error).message).toMatch(/local queue .* full/);
    await Promise.all(first);
    expect(server.requestsTo(BAL)).toHaveLength(3);
    await client.close();
  });

  it('a gateway 429 pauses the pool, then the read succeeds', async () => {
    const client = fixtureClient(server.url, { rateLimits: { pause: { baseMs: 120, maxMs: 1000 } } });
    server.enqueue(HIST, { status: 429, raw: '<html>Too Many Requests</html>' }, { json: [wireDeal()] });
    const fills = await client.executedHistory({ market: 'BTC_USDT' });
    expect(fills).toHaveLength(1);
    const [a, b] = server.requestsTo(HIST);
    // Pause = 120 × (0.5 + 0.5 × 0.5) = 90 ms with the fixed jitter source.
    expect(b!.receivedAt - a!.receivedAt).toBeGreaterThanOrEqual(85);
    await client.close();
  });

  it('rateLimitStatus reports every pool', async () => {
    const client = fixtureClient(server.url);
    server.setDefault(BAL, { json: { BTC: { main_balance: '1' } } });
    await client.mainBalance();
    const s = client.rateLimitStatus();
    expect(Object.keys(s).sort()).toEqual(
      ['conditional', 'creditLine', 'executedHistory', 'flexClose', 'flexHistory', 'mainBalance', 'orders', 'public'].sort(),
    );
    expect(s.mainBalance).toEqual({ limit: 800, used: 1, queued: 0, paused: false });
    expect(s.orders.limit).toBe(8000);
    expect(s.conditional.limit).toBe(800);
    await client.close();
  });
});
