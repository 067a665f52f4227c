/**
 * Secret scan: a batch of calls, failing ones included, logged at trace into a collecting
 * stream. No key, secret, signature, base64 payload or request body may appear in any log line
 * or in any thrown error's message or JSON.
 */
import { Writable } from 'node:stream';
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { dec } from '../../../src/core/decimal.js';
import { createLogger } from '../../../src/observability/logger.js';
import { useFixtureServer } from '../../support/fixture-server.js';
import { TEST_KEY, TEST_SECRET, fixtureClient, wireOrder } from '../../support/fixture-client.js';

const server = useFixtureServer();

describe('no secrets in logs or errors', () => {
  it('scans every log line and error', async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _enc, cb) {
        lines.push(chunk.toString('utf8'));
        cb();
      },
    });
    const client = fixtureClient(server.url, { logger: createLogger({ level: 'trace', destination: sink }) });
    server
      .enqueue('/api/v4/order/collateral/limit', { json: wireOrder() }, { hang: true }, { status: 500, raw: 'boom' }, { status: 200, raw: '<html>' })
      .enqueue('/api/v4/main-account/balance', { status: 401, json: { code: 0, message: 'Unauthorized request.' } })
      .enqueue('/api/v4/main-account/balance', { status: 429, json: { code: 0, errors: {}, message: 'Too many requests.' } })
      .setDefault('/api/v4/trade-account/executed-history', { destroy: true })
      .setDefault('/api/v4/order/bulk', { status: 422, json: { code: 30, message: 'Validation failed', errors: { orders: ['bad'] } } })
      .setDefault('/api/v4/order/cancel', { status: 400, json: { code: 9, message: 'Invalid payload.' } });
    const order = { market: 'BTC_PERP', side: 'buy' as const, amount: dec('0.01'), price: dec('40000'), clientOrderId: 'sec-1' };
    const outcomes = await Promise.allSettled([
      client.collateralLimitOrder(order),
      client.collateralLimitOrder(order),
      client.collateralLimitOrder(order),
      client.collateralLimitOrder(order),
      client.mainBalance(),
      client.mainBalance('BTC'),
      client.executedHistory({ market: 'BTC_USDT' }),
      client.cancelOrder({ market: 'BTC_USDT', orderId: 1 }),
      client.bulkLimitOrders([order]),
      client.collateralLimitOrder({ ...order, clientOrderId: 'bad id' }),
    ]);
    const errors = outcomes.flatMap((o) => (o.status === 'rejected' ? [o.reason as Error] : []));
    const bulk = outcomes[8];
    if (bulk?.status === 'fulfilled') errors.push(...(bulk.value as { error?: Error }[]).flatMap((i) => (i.error ? [i.error] : [])));
    expect(errors.length).toBeGreaterThanOrEqual(8);
    expect(lines.length).toBeGreaterThanOrEqual(10);
    await client.close();

    const forbidden = new Set<string>([TEST_KEY, TEST_SECRET]);
    for (const r of server.requests) {
      if (r.body !== '') forbidden.add(r.body);
      for (const h of ['x-txc-payload', 'x-txc-signature'] as const) {
        const v = r.headers[h];
        if (typeof v === 'string') forbidden.add(v);
      }
      // Fragments too: a truncated body or payload must not leak either.
      if (r.body.length > 40) forbidden.add(r.body.slice(0, 40));
    }
    const texts = [
      ...lines,
      ...errors.flatMap((e) => [e.message, JSON.stringify(e), String(e.stack ?? ''), JSON.stringify((e as { cause?: unknown }).cause ?? null)]),
      inspect(client, { depth: 8 }),
      JSON.stringify(client),
      inspect({ client }, { depth: 8 }),
    ];
    for (const text of texts) for (const secret of forbidden) expect(text.includes(secret)).toBe(false);
  });
});
