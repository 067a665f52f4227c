/**
 * Property tests of the client over HTTP: every endpoint answers a mutated reply (a field dropped,
 * a wrong type, a negative or huge number, an extra item, a garbled error, a wrong clientOrderId,
 * an empty, HTML or truncated body). The client never throws an untyped error, never returns a
 * negative unsigned amount or an implausible time, and reports a write as done (placed,
 * cancelled, closed) or refused only when the reply proves it. Run counts stay modest: each run is
 * one request to the fixture server.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dec } from '../../../src/core/decimal.js';
import { BotError, InvalidRequestError } from '../../../src/core/errors.js';
import type { ApiClient } from '../../../src/exchange/api-client.js';
import type { LimitOrderRequest } from '../../../src/model/venue-orders.js';
import { ERROR_SAMPLES, ORDER_SAMPLE, REPLY_SAMPLES as S } from '../../../src/exchange/samples.js';
import { useFixtureServer } from '../../support/fixture-server.js';
import { fixtureClient } from '../../support/fixture-client.js';
import { FUZZ_SEED, bodyArb, domainViolations, isWellFormedError, provesRefusal, resultsCarrying } from '../../support/fixture-mutations.js';

const RUNS = { numRuns: 30, seed: FUZZ_SEED };
const server = useFixtureServer();
let client: ApiClient;

beforeAll(() => {
  // One attempt: a retried read would only repeat the same reply.
  client = fixtureClient(server.url, { retry: { attempts: 1, baseDelayMs: 1, maxDelayMs: 1 }, rateLimits: { pause: { baseMs: 1, maxMs: 2 } } });
});
afterAll(async () => {
  await client.close();
});

/** The settled outcome of a call: its value, or the error it rejected with (must be typed). */
async function settle<T>(p: Promise<T>): Promise<{ ok: true; value: T } | { ok: false; error: BotError }> {
  try {
    return { ok: true, value: await p };
  } catch (err) {
    expect(err).toBeInstanceOf(BotError);
    return { ok: false, error: err as BotError };
  }
}

/** The first error sample with this venue code, as JSON. */
const errorSample = (code: number): unknown => JSON.parse(ERROR_SAMPLES.find((e) => e.body.includes(`"code":${code},`))!.body);

/** A reply: a sample under its status, the body mutated. */
const reply = (status: number, sample: unknown): fc.Arbitrary<{ status: number; raw: string }> => bodyArb(sample).map((raw) => ({ status, raw }));

/** A refusal is proven only by a 4xx carrying the spec's private error object. */
function refusalProven(r: { status: number; raw: string }): boolean {
  if (r.status < 400 || r.status >= 500) return false;
  try {
    return isWellFormedError(JSON.parse(r.raw));
  } catch {
    return false;
  }
}

async function answer(path: string, r: { status: number; raw: string }): Promise<void> {
  server.reset();
  // The fixture server labels raw bodies text/html; the client reads the body, not the type.
  server.setDefault(path, { status: r.status, raw: r.raw });
}

describe('reads over mutated replies', () => {
  const reads: readonly [string, string, fc.Arbitrary<{ status: number; raw: string }>, () => Promise<unknown>][] = [
    ['futures', '/api/v4/public/futures', reply(200, S.futures), () => client.futures()],
    ['conditional', '/api/v4/orders/conditional', fc.oneof(reply(200, S.conditional), reply(200, S.conditionalLive)), () => client.conditionalOrders({ market: 'BTC_USDT' })],
    ['history', '/api/v4/trade-account/executed-history', fc.oneof(reply(200, S.executedHistoryFlat), reply(422, { code: 30, message: 'Validation failed', errors: { orderHistory: ['OrderHistory was not found.'] } })), () => client.executedHistory({ market: 'BTC_USDT', clientOrderId: 'bot-1' })],
    ['balance', '/api/v4/main-account/balance', fc.oneof(reply(200, S.balanceMap), reply(200, S.balanceOne)), () => client.mainBalance('BTC')],
    ['flex history', '/api/v4/main-account/smart-flex/investments/history', reply(200, S.flexHistory), () => client.flexHistory()],
    ['credit line', '/api/v4/credit-line/loans/info', fc.oneof(reply(200, S.creditLine), reply(400, { code: 0, message: 'No active loan at the moment' })), () => client.creditLine()],
  ];

  it.each(reads)('%s: a value within bounds, or a typed error', async (_n, path, replies, call) => {
    await fc.assert(
      fc.asyncProperty(replies, async (r) => {
        await answer(path, r);
        const out = await settle(call());
        if (out.ok) expect(domainViolations(out.value)).toEqual([]);
      }),
      RUNS,
    );
  });
});

describe('writes over mutated replies', () => {
  const COLL = '/api/v4/order/collateral/limit';
  const CANCEL = '/api/v4/order/cancel';
  const FLEXC = '/api/v4/main-account/smart-flex/investments/close';

  it('collateral: placed only with its own order in a 2xx, refused only by a well-formed error', async () => {
    const replies = fc.oneof(reply(200, S.collateral), reply(400, errorSample(10)), reply(422, errorSample(36)));
    await fc.assert(
      fc.asyncProperty(replies, async (r) => {
        await answer(COLL, r);
        const out = await settle(client.collateralLimitOrder({ market: 'BTC_PERP', side: 'buy', amount: dec('0.01'), price: dec('40000'), clientOrderId: 'c-1' }));
        if (out.ok) {
          expect(r.status).toBe(200);
          expect([out.value.clientOrderId, out.value.market, out.value.side]).toEqual(['c-1', 'BTC_PERP', 'buy']);
          expect(domainViolations(out.value)).toEqual([]);
        } else if (out.error instanceof InvalidRequestError) {
          expect(refusalProven(r)).toBe(true);
        }
      }),
      RUNS,
    );
  });

  it('cancel: done only with its own order in a 2xx, refused only by a well-formed error', async () => {
    const replies = fc.oneof(reply(200, S.cancel), reply(400, errorSample(2)));
    await fc.assert(
      fc.asyncProperty(replies, async (r) => {
        await answer(CANCEL, r);
        const out = await settle(client.cancelOrder({ market: 'BTC_USDT', orderId: ORDER_SAMPLE.orderId }));
        if (out.ok) {
          expect(r.status).toBe(200);
          expect([out.value.orderId, out.value.market]).toEqual([ORDER_SAMPLE.orderId, 'BTC_USDT']);
          expect(domainViolations(out.value)).toEqual([]);
        } else if (out.error instanceof InvalidRequestError) {
          expect(refusalProven(r)).toBe(true);
        }
      }),
      RUNS,
    );
  });

  it('flex close: closed only by a 2xx, refused only by a well-formed error', async () => {
    const replies = fc.oneof(reply(201, S.flexClose), reply(422, { code: 2, message: 'Inner validation failed', errors: { investment: ['Investment is not active'] } }));
    await fc.assert(
      fc.asyncProperty(replies, async (r) => {
        await answer(FLEXC, r);
        const out = await settle(client.closeFlex('0b4c2f7e-3c1e-4c9a-9b1a-1f2e3d4c5b6a'));
        if (out.ok) expect(r.status).toBe(201);
        else if (out.error instanceof InvalidRequestError) expect(refusalProven(r)).toBe(true);
      }),
      RUNS,
    );
  });

  it('bulk: each item placed or rejected only when the reply proves it', async () => {
    const orders: LimitOrderRequest[] = ['b-0', 'b-1', 'b-2'].map((cid, i) => ({
      market: 'BTC_USDT', side: 'buy', amount: dec('0.01'), price: dec(String(40000 + i)), clientOrderId: cid,
    }));
    const ok = (i: number): unknown => ({ result: { ...ORDER_SAMPLE, clientOrderId: `b-${i}`, price: String(40000 + i) }, error: null });
    const replies = fc.oneof(reply(200, [ok(0), { result: null, error: errorSample(10) }, ok(2)]), reply(422, errorSample(30)));
    await fc.assert(
      fc.asyncProperty(replies, fc.boolean(), async (r, stopOnFail) => {
        await answer('/api/v4/order/bulk', r);
        const items = await client.bulkLimitOrders(orders, { stopOnFail });
        let json: unknown;
        try {
          json = JSON.parse(r.raw);
        } catch {
          json = undefined;
        }
        items.forEach((it, i) => {
          const o = orders[i]!;
          expect(it.clientOrderId).toBe(o.clientOrderId);
          if (it.status === 'placed') {
            expect(r.status).toBe(200);
            expect(resultsCarrying(json, o.clientOrderId)).toHaveLength(1);
            expect(domainViolations(it.order)).toEqual([]);
          }
          if (it.status === 'rejected') expect(r.status === 200 ? provesRefusal(json, orders, i, stopOnFail) : refusalProven(r)).toBe(true);
          if (it.status === 'not_sent') expect(stopOnFail).toBe(true);
        });
      }),
      RUNS,
    );
  });
});
