/**
 * The request path's fast lane (src/exchange/rate-limits/fast-path.ts): a call whose pool has
 * the tokens leaves without waiting on any timer. Every global timer is frozen (Bottleneck
 * schedules its jobs on them) and the injected clock is a manual one that is never advanced:
 * the request still reaches the server and its reply comes back. When the bucket runs dry the
 * calls queue in Bottleneck again (their timers thawed), and the budget still holds.
 */
import { describe, expect, it, vi } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { useFixtureServer } from '../../support/fixture-server.js';
import { fixtureClient } from '../../support/fixture-client.js';
import { eventually } from '../../support/eventually.js';
import { maxInWindow } from '../../support/counting-proxy.js';

const BAL = '/api/v4/main-account/balance';
const server = useFixtureServer();

describe('fast path: a call with budget available waits on no timer', () => {
  it.each(['strict', 'window'] as const)(
    'reaches the server with global timers frozen and a manual clock never advanced (%s nonces)',
    async (nonceMode) => {
      const clock = new ManualClock();
      const client = fixtureClient(server.url, { nonceMode, clock });
      server.setDefault(BAL, { json: { BTC: { main_balance: '1.5' } } });
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'setImmediate', 'clearImmediate'] });
      try {
        // Sequential calls, as a strategy makes them: each one finds the bucket open.
        for (let i = 0; i < 3; i++) expect((await client.mainBalance()).get('BTC')?.toFixed()).toBe('1.5');
      } finally {
        vi.useRealTimers();
      }
      expect(server.requestsTo(BAL)).toHaveLength(3);
      expect(client.rateLimitStatus().mainBalance.used).toBe(3);
      await client.close();
    },
    10_000,
  );

  it('once the bucket is dry the calls queue in Bottleneck, and none is lost', async () => {
    const client = fixtureClient(server.url, { nonceMode: 'window', rateLimits: { pools: { mainBalance: { limit: 10, windowMs: 300 } } } });
    server.setDefault(BAL, { json: { BTC: { main_balance: '1' } } });
    const calls = Array.from({ length: 20 }, () => client.mainBalance());
    // The bucket's capacity went out at once; the rest wait for the refill in the queue.
    await eventually(() => client.rateLimitStatus().mainBalance.queued > 0, 'calls queued in Bottleneck');
    await Promise.all(calls);
    const times = server.requestsTo(BAL).map((r) => r.receivedAt);
    expect(times).toHaveLength(20);
    // The venue counts arrivals, and its limit is 10 per 300 ms. The bucket sends at most 8 (its
    // safety margin); arrivals on a loaded machine can bunch a little, so the bound asserted is the
    // venue's. A fast path that ignored the bucket would land all 20 together.
    expect(maxInWindow(times, 300)).toBeLessThanOrEqual(10);
    await client.close();
  });
});
