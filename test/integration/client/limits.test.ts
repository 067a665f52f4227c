/**
 * Rate limits over real HTTP with short real windows: the budget holds over every sliding window
 * of the server's receive times, a cancel overtakes 200 queued reads, the queue is bounded, a
 * gateway 429 pauses the pool (Retry-After capped) and the pool resumes, queued calls time out.
 */
import { describe, expect, it } from 'vitest';
import { ConfigError, TransientError } from '../../../src/core/errors.js';
import { useFixtureServer } from '../../support/fixture-server.js';
import { eventually } from '../../support/eventually.js';
import { failure, fixtureClient, wireDeal, wireOrder } from '../../support/fixture-client.js';
import { maxInWindow } from '../../support/counting-proxy.js';

const BAL = '/api/v4/main-account/balance';
const HIST = '/api/v4/trade-account/executed-history';
const CANCEL = '/api/v4/order/cancel';
const server = useFixtureServer();

describe('rate-limit pools over HTTP', () => {
  it.each(['strict', 'window'] as const)('never exceed the budget per 300 ms at the server, any window (%s nonces)', async (nonceMode) => {
    const client = fixtureClient(server.url, { nonceMode, rateLimits: { pools: { mainBalance: { limit: 10, windowMs: 300 } } } });
    server.setDefault(BAL, { json: { BTC: { main_balance: '1' } } });
    await Promise.all(Array.from({ length: 24 }, () => client.mainBalance()));
    const times = server.requestsTo(BAL).map((r) => r.receivedAt);
    expect(times).toHaveLength(24);
    // Budget 8 (80 % of 10): the margin absorbs network jitter between sending and receiving.
    expect(maxInWindow(times, 300)).toBeLessThanOrEqual(8);
    expect(client.rateLimitStatus().mainBalance.limit).toBe(8);
    await client.close();
  });

  it('a cancel queued behind 200 reads starts before them', async () => {
    const client = fixtureClient(server.url, {
      nonceMode: 'window',
      endpointPools: { executedHistory: 'orders' },
      rateLimits: { pools: { orders: { limit: 10, windowMs: 1000, safetyMargin: 1 } } },
    });
    server.setDefault(HIST, { json: [wireDeal()] });
    server.setDefault(CANCEL, { json: wireOrder({ orderId: 1, status: 'CANCELED' }) });
    const reads = Array.from({ length: 200 }, () => client.executedHistory({ market: 'BTC_USDT' }).catch((e: unknown) => e));
    // Bottleneck takes a few ms to queue each job: wait until all 200 are queued or sent.
    await eventually(() => client.rateLimitStatus().orders.queued + server.requestsTo(HIST).length === 200, 'all 200 reads queued or sent');
    const waiting = client.rateLimitStatus().orders.queued;
    expect(waiting).toBeGreaterThan(150);
    await client.cancelOrder({ market: 'BTC_USDT', orderId: 1 });
    const readsBefore = server.requests.findIndex((r) => r.path === CANCEL);
    expect(readsBefore).toBeLessThanOrEqual(200 - waiting);
    await client.close(); // the reads still queued fail as closed, unsent
    const closed = (await Promise.all(reads)).filter((r) => r instanceof TransientError);
    expect(closed.length).toBeGreaterThanOrEqual(waiting - 20);
  });

  it('the bounded queue refuses when full, without sending', async () => {
    const client = fixtureClient(server.url, { nonceMode: 'window', maxQueued: 2, rateLimits: { pools: { mainBalance: { limit: 2, windowMs: 400, safetyMargin: 1 } } } });
    server.setDefault(BAL, { json: { BTC: { main_balance: '1' } } });
    const first = [client.mainBalance(), client.mainBalance(), client.mainBalance()];
    await eventually(() => client.rateLimitStatus().mainBalance.queued === 2, 'two queued balance reads');
    // The cheap count the backtest polls agrees with the full status.
    expect(client.rateLimitQueued()).toBe(2);
    const err = await failure(client.mainBalance());
    expect(err).toBeInstanceOf(TransientError);
    expect((err as TransientError).kind).toBe('rate_limited');
    expect((err as TransientError).context).toMatchObject({ pool: 'mainBalance', reason: 'queue_full' });
    await Promise.all(first);
    expect(server.requestsTo(BAL)).toHaveLength(3);
    expect(client.rateLimitStatus().mainBalance.refused).toBe(1);
    expect(client.rateLimitQueued()).toBe(0);
    await client.close();
  });

  it('a gateway 429 pauses the pool, then the pool resumes and the read succeeds', async () => {
    const client = fixtureClient(server.url, { rateLimits: { pause: { baseMs: 120, maxMs: 1000 } } });
    server.setDefault(HIST, { json: [wireDeal()] });
    server.enqueue(HIST, { status: 429, raw: '<html>Too Many Requests</html>' });
    const fills = await client.executedHistory({ market: 'BTC_USDT' });
    expect(fills).toHaveLength(1);
    const [a, b] = server.requestsTo(HIST);
    // Pause = 120 × (0.5 + 0.5 × 0.5) = 90 ms with the fixed jitter source.
    expect(b!.receivedAt - a!.receivedAt).toBeGreaterThanOrEqual(85);
    await eventually(() => !client.rateLimitStatus().executedHistory.paused, '!client.rateLimitStatus().executedHistory.paused');
    await client.executedHistory({ market: 'BTC_USDT' });
    expect(server.requestsTo(HIST)).toHaveLength(3);
    await client.close();
  });

  it('a Retry-After of days is capped: the pool resumes after the cap', async () => {
    const client = fixtureClient(server.url, { rateLimits: { pause: { baseMs: 10, maxMs: 20, maxRetryAfterMs: 300 } } });
    server.enqueue(BAL, { status: 429, raw: 'slow down', headers: { 'retry-after': '999999' } }, { json: { BTC: { main_balance: '1' } } });
    const read = client.mainBalance();
    await eventually(() => client.rateLimitStatus().mainBalance.paused, 'client.rateLimitStatus().mainBalance.paused');
    await read;
    const [a, b] = server.requestsTo(BAL);
    expect(b!.receivedAt - a!.receivedAt).toBeGreaterThanOrEqual(290);
    expect(b!.receivedAt - a!.receivedAt).toBeLessThan(5_000);
    await client.close();
  });

  it('a call still queued at its deadline fails with a clear transient error, and is never sent', async () => {
    const client = fixtureClient(server.url, { nonceMode: 'window', queueDeadlineMs: 150, rateLimits: { pools: { mainBalance: { limit: 2, windowMs: 700, safetyMargin: 1 } } } });
    server.setDefault(BAL, { json: { BTC: { main_balance: '1' } } });
    await client.mainBalance();
    const err = await failure(client.mainBalance());
    expect(err).toBeInstanceOf(TransientError);
    expect((err as TransientError).context).toMatchObject({ pool: 'mainBalance', reason: 'deadline' });
    expect(err.message).toMatch(/queued after 150 ms/);
    // The abandoned job leaves the queue at the next refill and sends nothing.
    await eventually(() => client.rateLimitStatus().mainBalance.queued === 0, 'client.rateLimitStatus().mainBalance.queued === 0');
    await new Promise((r) => setTimeout(r, 20));
    expect(server.requestsTo(BAL)).toHaveLength(1);
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
    expect(s.mainBalance).toEqual({ limit: 800, used: 1, queued: 0, paused: false, refused: 0 });
    expect(s.orders.limit).toBe(8000);
    expect(s.conditional.limit).toBe(800);
    await client.close();
  });

  it('strict nonces with a shared Redis budget are refused at construction, naming both options', () => {
    let err: unknown;
    try {
      fixtureClient(server.url, { nonceMode: 'strict', rateLimits: { redisUrl: 'redis://127.0.0.1:1' } });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as Error).message).toMatch(/nonceMode/);
    expect((err as Error).message).toMatch(/rateLimits\.redisUrl/);
  });
});
