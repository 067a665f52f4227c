/** Bulk placement: chunking, request order, stopOnFail both ways, per-item outcomes. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dec } from '../../../src/core/decimal.js';
import type { InvalidOrderError} from '../../../src/core/errors.js';
import { AmbiguousOutcomeError, InvalidRequestError } from '../../../src/core/errors.js';
import type { ApiClient } from '../../../src/exchange/api-client.js';
import { createVenueGateway } from '../../../src/exchange/venue-gateway.js';
import type { LimitOrderRequest } from '../../../src/model/venue-orders.js';
import { useFixtureServer, type RecordedRequest, type Reply } from '../../support/fixture-server.js';
import { fixtureClient, wireOrder } from '../../support/fixture-client.js';

const BULK = '/api/v4/order/bulk';
const server = useFixtureServer();
let client: ApiClient;

beforeAll(() => {
  client = fixtureClient(server.url);
});
afterAll(async () => {
  await client.close();
});

function orders(n: number): LimitOrderRequest[] {
  return Array.from({ length: n }, (_, i) => ({
    market: 'BTC_USDT', side: 'buy', amount: dec('0.01'), price: dec(String(40000 + i)), clientOrderId: `b-${i}`,
  }));
}

type Item = { clientOrderId: string; price: string };
const sent = (r: RecordedRequest): Item[] => (JSON.parse(r.body) as { orders: Item[] }).orders;

/** Accepts every order of the chunk (echoing clientOrderId and price). */
const acceptAll = (r: RecordedRequest): Reply => ({
  json: sent(r).map((o, i) => ({ result: wireOrder({ orderId: 1000 + i, clientOrderId: o.clientOrderId, price: o.price }), error: null })),
});

const failItem = { code: 10, message: 'Inner validation failed', errors: { amount: ['Not enough balance.'] } };

describe('bulkLimitOrders', () => {
  it('splits 45 orders into 20/20/5, sent in order, results in request order', async () => {
    server.setDefault(BULK, acceptAll);
    const res = await client.bulkLimitOrders(orders(45));
    const reqs = server.requestsTo(BULK);
    expect(reqs.map((r) => sent(r).length)).toEqual([20, 20, 5]);
    expect(reqs.flatMap((r) => sent(r).map((o) => o.clientOrderId))).toEqual(orders(45).map((o) => o.clientOrderId));
    const nonces = reqs.map((r) => Number((JSON.parse(r.body) as { nonce: string }).nonce));
    expect(nonces[1]! > nonces[0]! && nonces[2]! > nonces[1]!).toBe(true);
    expect(res.map((r) => r.status)).toEqual(Array(45).fill('placed'));
    expect(res.map((r) => r.clientOrderId)).toEqual(orders(45).map((o) => o.clientOrderId));
    const placed = res[44]!;
    if (placed.status === 'placed') expect(placed.order.price.toFixed()).toBe('40044');
  });

  it('without stopOnFail: failed items rejected, the others placed, every chunk sent', async () => {
    server.enqueue(BULK, (r) => ({
      json: sent(r).map((o, i) => (i === 3 ? { result: null, error: failItem } : { result: wireOrder({ clientOrderId: o.clientOrderId }), error: null })),
    }));
    server.setDefault(BULK, acceptAll);
    const res = await client.bulkLimitOrders(orders(25), { stopOnFail: false });
    expect(server.requestsTo(BULK)).toHaveLength(2);
    expect(JSON.parse(server.requestsTo(BULK)[0]!.body)).toMatchObject({ stopOnFail: false });
    expect(res.filter((r) => r.status === 'placed')).toHaveLength(24);
    expect(res[3]).toMatchObject({ status: 'rejected', clientOrderId: 'b-3' });
    if (res[3]!.status === 'rejected') expect((res[3]!.error as InvalidOrderError).kind).toBe('insufficient_funds');
  });

  it('with stopOnFail: the failing item rejected, later items (missing or null/null) and later chunks not_sent', async () => {
    // The venue processed 0..2, refused 3, and stopped: item 4 comes back as null/null, the rest missing.
    server.enqueue(BULK, (r) => ({
      json: [
        ...sent(r).slice(0, 3).map((o) => ({ result: wireOrder({ clientOrderId: o.clientOrderId }), error: null })),
        { result: null, error: failItem },
        { result: null, error: null },
      ],
    }));
    server.setDefault(BULK, acceptAll);
    const res = await client.bulkLimitOrders(orders(45), { stopOnFail: true });
    expect(server.requestsTo(BULK)).toHaveLength(1);
    expect(JSON.parse(server.requestsTo(BULK)[0]!.body)).toMatchObject({ stopOnFail: true });
    expect(res.slice(0, 3).map((r) => r.status)).toEqual(['placed', 'placed', 'placed']);
    expect(res[3]!.status).toBe('rejected');
    expect(res.slice(4).every((r) => r.status === 'not_sent')).toBe(true);
    expect(res.map((r) => r.clientOrderId)).toEqual(orders(45).map((o) => o.clientOrderId));
  });

  it('a top-level 422 code 30 rejects its whole chunk; other chunks go on without stopOnFail', async () => {
    server.enqueue(BULK, { status: 422, json: { code: 30, message: 'Validation failed', errors: { orders: ['The orders must not have more than 20 items.'] } } });
    server.setDefault(BULK, acceptAll);
    const res = await client.bulkLimitOrders(orders(25));
    expect(res.slice(0, 20).every((r) => r.status === 'rejected' && r.error instanceof InvalidRequestError)).toBe(true);
    expect(res.slice(20).every((r) => r.status === 'placed')).toBe(true);
  });

  it('a later chunk timing out: its items unknown (ambiguous, with their ids), earlier ones placed', async () => {
    server.enqueue(BULK, acceptAll, { hang: true }, acceptAll);
    const res = await client.bulkLimitOrders(orders(45));
    expect(server.requestsTo(BULK)).toHaveLength(3);
    expect(res.slice(0, 20).every((r) => r.status === 'placed')).toBe(true);
    expect(res.slice(20, 40).every((r) => r.status === 'unknown')).toBe(true);
    const u = res[20]!;
    if (u.status !== 'unknown') throw new Error('expected unknown');
    expect(u.error).toBeInstanceOf(AmbiguousOutcomeError);
    expect(u.error.clientOrderIds).toEqual(orders(45).slice(20, 40).map((o) => o.clientOrderId));
    expect(res.slice(40).every((r) => r.status === 'placed')).toBe(true);
  });

  it('with stopOnFail an ambiguous chunk stops the later chunks (not_sent)', async () => {
    server.enqueue(BULK, acceptAll, { status: 503, raw: 'down' });
    server.setDefault(BULK, acceptAll);
    const res = await client.bulkLimitOrders(orders(45), { stopOnFail: true });
    expect(server.requestsTo(BULK)).toHaveLength(2);
    expect(res.slice(20, 40).every((r) => r.status === 'unknown')).toBe(true);
    expect(res.slice(40).every((r) => r.status === 'not_sent')).toBe(true);
  });

  it('a gateway 429 chunk is not_sent; auth failure stops every later chunk', async () => {
    server.enqueue(BULK, { status: 429, raw: 'slow down' }, { status: 401, json: { code: 0, message: 'Unauthorized request.' } });
    server.setDefault(BULK, acceptAll);
    const c = fixtureClient(server.url, { rateLimits: { pause: { baseMs: 5, maxMs: 10 } } });
    const res = await c.bulkLimitOrders(orders(45));
    expect(server.requestsTo(BULK)).toHaveLength(2);
    expect(res.every((r) => r.status === 'not_sent')).toBe(true);
    await c.close();
  });

  it('a shorter reply without stopOnFail leaves the missing items unknown', async () => {
    server.enqueue(BULK, (r) => ({ json: sent(r).slice(0, 2).map((o) => ({ result: wireOrder({ clientOrderId: o.clientOrderId }), error: null })) }));
    const res = await client.bulkLimitOrders(orders(3));
    expect(res.map((r) => r.status)).toEqual(['placed', 'placed', 'unknown']);
  });

  it('with stopOnFail a shorter reply without any failure leaves the missing items unknown (not not_sent)', async () => {
    server.enqueue(BULK, (r) => ({ json: sent(r).slice(0, 1).map((o) => ({ result: wireOrder({ clientOrderId: o.clientOrderId }), error: null })) }));
    const res = await client.bulkLimitOrders(orders(3), { stopOnFail: true });
    expect(res.map((r) => r.status)).toEqual(['placed', 'unknown', 'unknown']);
  });
});

describe('bulkLimitOrders: results matched by clientOrderId', () => {
  const ok = (cid: string, over: Record<string, unknown> = {}): unknown => ({ result: wireOrder({ clientOrderId: cid, ...over }), error: null });
  const statuses = async (reply: unknown[], n = 3, stopOnFail = false): Promise<[string, string][]> => {
    server.enqueue(BULK, { json: reply });
    const res = await client.bulkLimitOrders(orders(n), { stopOnFail });
    return res.map((r) => [r.clientOrderId, r.status === 'placed' ? `placed ${r.order.clientOrderId}` : r.status]);
  };

  it('results out of order are matched to their own items', async () => {
    expect(await statuses([ok('b-2'), ok('b-0'), ok('b-1')])).toEqual([
      ['b-0', 'placed b-0'], ['b-1', 'placed b-1'], ['b-2', 'placed b-2'],
    ]);
  });

  it("a result carrying another item's clientOrderId is not this item's placement", async () => {
    expect(await statuses([ok('b-1'), ok('b-1'), ok('b-2')])).toEqual([
      ['b-0', 'unknown'], ['b-1', 'unknown'], ['b-2', 'placed b-2'],
    ]);
  });

  it('a result without clientOrderId, or for another market or side, proves nothing', async () => {
    expect(await statuses([ok(''), ok('b-1', { market: 'ETH_USDT' }), ok('b-2', { side: 'sell' })])).toEqual([
      ['b-0', 'unknown'], ['b-1', 'unknown'], ['b-2', 'unknown'],
    ]);
  });

  it('a foreign clientOrderId makes the positions untrustworthy: no refusal is read from them', async () => {
    expect(await statuses([ok('zz-9'), { result: null, error: failItem }, ok('b-2')])).toEqual([
      ['b-0', 'unknown'], ['b-1', 'unknown'], ['b-2', 'placed b-2'],
    ]);
  });

  it('a reply one item short: later results keep their items, no refusal is shifted onto another item', async () => {
    expect(await statuses([ok('b-0'), ok('b-2')])).toEqual([['b-0', 'placed b-0'], ['b-1', 'unknown'], ['b-2', 'placed b-2']]);
    expect(await statuses([ok('b-0'), { result: null, error: failItem }])).toEqual([['b-0', 'placed b-0'], ['b-1', 'unknown'], ['b-2', 'unknown']]);
  });

  it('an extra item: the reply is unreadable as a whole', async () => {
    expect(await statuses([ok('b-0'), ok('b-1'), ok('b-2'), ok('b-3')])).toEqual([['b-0', 'unknown'], ['b-1', 'unknown'], ['b-2', 'unknown']]);
  });

  it.each<[string, unknown]>([
    ['{}', {}],
    ['code null', { code: null, message: 'Inner validation failed', errors: {} }],
    ['code "x"', { code: 'x', message: 'Inner validation failed', errors: {} }],
    ['a string', 'Not enough balance.'],
    ['the public shape', { success: false, message: 'bad', params: [] }],
  ])('a garbled item error (%s) is unknown, not rejected', async (_n, error) => {
    expect(await statuses([ok('b-0'), { result: null, error }, ok('b-2')])).toEqual([
      ['b-0', 'placed b-0'], ['b-1', 'unknown'], ['b-2', 'placed b-2'],
    ]);
  });

  it('an unreadable result that carries the same clientOrderId as a readable one: unknown', async () => {
    expect(await statuses([ok('b-0', { orderId: -1 }), ok('b-1'), ok('b-0')])).toEqual([
      ['b-0', 'unknown'], ['b-1', 'placed b-1'], ['b-2', 'unknown'],
    ]);
    expect(await statuses([{ result: wireOrder({ clientOrderId: 'b-0' }), error: {} }, ok('b-1'), ok('b-0')])).toEqual([
      ['b-0', 'unknown'], ['b-1', 'placed b-1'], ['b-2', 'unknown'],
    ]);
  });

  it('an item with both a result and an error is unknown', async () => {
    expect(await statuses([ok('b-0'), { result: wireOrder({ clientOrderId: 'b-1' }), error: failItem }, ok('b-2')])).toEqual([
      ['b-0', 'placed b-0'], ['b-1', 'unknown'], ['b-2', 'placed b-2'],
    ]);
  });

  it('with stopOnFail a result after the failure contradicts the flag: the refusal is not trusted', async () => {
    expect(await statuses([ok('b-0'), { result: null, error: failItem }, ok('b-2')], 3, true)).toEqual([
      ['b-0', 'placed b-0'], ['b-1', 'unknown'], ['b-2', 'placed b-2'],
    ]);
  });

  it('validates every order before sending anything', async () => {
    const bad = orders(30);
    bad[25] = { ...bad[25]!, clientOrderId: 'bad id' };
    await expect(client.bulkLimitOrders(bad)).rejects.toBeInstanceOf(InvalidRequestError);
    await expect(client.bulkLimitOrders([])).rejects.toBeInstanceOf(InvalidRequestError);
    expect(server.requests).toHaveLength(0);
  });

  it('through the gateway port too: an invalid item in a later chunk stops the placement before the first request', async () => {
    const gateway = createVenueGateway(client);
    const bad = orders(30);
    bad[25] = { ...bad[25]!, clientOrderId: 'bad id' };
    const drain = async (): Promise<void> => {
      for await (const batch of gateway.submitLimitOrders(bad)) expect(batch).toBeDefined();
    };
    await expect(drain()).rejects.toBeInstanceOf(InvalidRequestError);
    expect(server.requests).toHaveLength(0);
  });
});
