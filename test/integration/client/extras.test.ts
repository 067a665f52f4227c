/** Strict send lane priorities, bulk weight, clock skew, close(). */
import { describe, expect, it } from 'vitest';
import { dec } from '../../../src/core/decimal.js';
import { TransientError } from '../../../src/core/errors.js';
import { createLogger } from '../../../src/observability/logger.js';
import { useFixtureServer } from '../../support/fixture-server.js';
import { eventually } from '../../support/eventually.js';
import { fixtureClient, wireOrder } from '../../support/fixture-client.js';

const server = useFixtureServer();

describe('client extras', () => {
  it('strict mode: one private request in flight, a waiting cancel goes before waiting reads', async () => {
    const client = fixtureClient(server.url);
    server.setDefault('/api/v4/main-account/balance', { delayMs: 20, json: { BTC: { main_balance: '1' } } });
    server.setDefault('/api/v4/order/cancel', { json: wireOrder({ orderId: 1, status: 'CANCELED' }) });
    const reads = Array.from({ length: 4 }, () => client.mainBalance());
    await eventually(() => server.requests.length === 1, 'the first request');
    const cancel = client.cancelOrder({ market: 'BTC_USDT', orderId: 1 });
    await Promise.all([...reads, cancel]);
    expect(server.requests.map((r) => r.path)[1]).toBe('/api/v4/order/cancel');
    await client.close();
  });

  it('public calls do not wait for the private lane', async () => {
    const client = fixtureClient(server.url);
    server.setDefault('/api/v4/main-account/balance', { delayMs: 150, json: { BTC: { main_balance: '1' } } });
    server.setDefault('/api/v4/public/ping', { json: ['pong'] });
    const slow = client.mainBalance();
    await eventually(() => server.requests.length === 1, 'the first request');
    await client.ping();
    expect(server.requestsTo('/api/v4/main-account/balance')).toHaveLength(1);
    await slow;
    await client.close();
  });

  it('a bulk request takes bulkWeight tokens', async () => {
    const client = fixtureClient(server.url, { rateLimits: { bulkWeight: 3 } });
    server.setDefault('/api/v4/order/bulk', { json: [{ result: wireOrder({ clientOrderId: 'w-1' }), error: null }] });
    await client.bulkLimitOrders([{ market: 'BTC_USDT', side: 'buy', amount: dec('1'), price: dec('1'), clientOrderId: 'w-1' }]);
    expect(client.rateLimitStatus().orders.used).toBe(3);
    await client.close();
  });

  it('measures clock skew from the Date header', async () => {
    const client = fixtureClient(server.url);
    server.setDefault('/api/v4/public/ping', { json: ['pong'], headers: { Date: new Date(Date.now() + 60_000).toUTCString() } });
    expect(client.clockSkewMs()).toBeUndefined();
    await client.ping();
    expect(Math.abs(client.clockSkewMs()! - 60_000)).toBeLessThan(2000);
    await client.close();
  });

  it('a Date header more than a day off is ignored for the skew, counted, and warned about once', async () => {
    const lines: { level: number }[] = [];
    const logger = createLogger({ level: 'warn', destination: { write: (l: string) => void lines.push(JSON.parse(l) as { level: number }) } });
    const client = fixtureClient(server.url, { logger });
    server.enqueue(
      '/api/v4/public/ping',
      { json: ['pong'], headers: { Date: new Date(Date.now() + 3_000).toUTCString() } },
      { json: ['pong'], headers: { Date: 'Thu, 01 Jan 1970 00:00:00 GMT' } },
      { json: ['pong'], headers: { Date: 'Fri, 01 Jan 2500 00:00:00 GMT' } },
    );
    for (let i = 0; i < 3; i++) await client.ping();
    expect(Math.abs(client.clockSkewMs()! - 3_000)).toBeLessThan(2000);
    expect(client.clockSkewRejected()).toBe(2);
    expect(lines.filter((l) => l.level === 40)).toHaveLength(1);
    await client.close();
  });

  it('after close() calls fail fast with a TransientError and nothing is sent', async () => {
    const client = fixtureClient(server.url);
    await client.close();
    await expect(client.ping()).rejects.toBeInstanceOf(TransientError);
    expect(server.requests).toHaveLength(0);
  });
});
