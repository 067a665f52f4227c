/**
 * The error matrix: every venue error of docs/api-v4.md §7 and docs/live-service.md §3 maps to its
 * class and kind, reads are retried exactly as configured, writes are sent exactly once.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dec } from '../../../src/core/decimal.js';
import {
  AmbiguousOutcomeError,
  AuthError,
  BadResponseError,
  InvalidOrderError,
  InvalidRequestError,
  NonceError,
  TransientError,
} from '../../../src/core/errors.js';
import type { ApiClient } from '../../../src/exchange/api-client.js';
import type { CollateralOrderRequest } from '../../../src/model/venue-orders.js';
import { refusalError } from '../../../src/exchange/errors.js';
import { useFixtureServer, type Reply } from '../../support/fixture-server.js';
import { failure, fixtureClient, wireDeal, wireOrder } from '../../support/fixture-client.js';

const COLL = '/api/v4/order/collateral/limit';
const CANCEL = '/api/v4/order/cancel';
const HIST = '/api/v4/trade-account/executed-history';
const BAL = '/api/v4/main-account/balance';
const FLEXH = '/api/v4/main-account/smart-flex/investments/history';
const FLEXC = '/api/v4/main-account/smart-flex/investments/close';
const FUT = '/api/v4/public/futures';

const server = useFixtureServer();
let client: ApiClient;

beforeAll(() => {
  client = fixtureClient(server.url, { rateLimits: { pause: { baseMs: 20, maxMs: 50 } } });
});
afterAll(async () => {
  await client.close();
});

const order: CollateralOrderRequest = { market: 'BTC_PERP', side: 'buy', amount: dec('0.01'), price: dec('40000'), clientOrderId: 'c-7' };

describe('venue refusals (never retried)', () => {
  const cases: [string, number, unknown, string][] = [
    ['validation', 422, { code: 30, message: 'Validation failed', errors: { amount: ['x'] } }, 'validation'],
    ['market', 422, { code: 31, message: 'Validation failed', errors: { market: ['Market is not available'] } }, 'market_unavailable'],
    ['amount', 422, { code: 32, message: 'Validation failed', errors: { amount: ['Amount step'] } }, 'invalid_amount'],
    ['price', 422, { code: 33, message: 'Validation failed', errors: { price: ['Price step'] } }, 'invalid_price'],
    ['duplicate', 422, { code: 36, message: 'This client order id is already used by the current account.', errors: {} }, 'duplicate_client_order_id'],
    ['ioc+postOnly', 422, { code: 37, message: 'Validation failed', errors: {} }, 'ioc_post_only'],
    ['rpi+ioc (vendor 40)', 422, { code: 40, message: 'Validation failed', errors: {} }, 'rpi_ioc'],
    ['min total', 422, { code: 30, message: 'Validation failed', errors: { total: ['Total (amount * price) is less than 5.05'] } }, 'min_total'],
    ['invalid argument', 400, { code: 1, message: 'Inner validation failed', errors: {} }, 'invalid_argument'],
    ['not found', 400, { code: 2, message: 'Inner validation failed', errors: { orderId: ['Unexecuted order was not found.'] } }, 'order_not_found'],
    ['balance', 400, { code: 10, message: 'Inner validation failed', errors: { amount: ['Not enough balance.'] } }, 'insufficient_funds'],
    ['too small', 400, { code: 11, message: 'Inner validation failed', errors: {} }, 'amount_too_small'],
    ['post only', 400, { code: 13, message: 'Inner validation failed', errors: {} }, 'post_only_would_take'],
  ];
  it.each(cases)('collateral %s → InvalidOrderError(%s)', async (_n, status, json, kind) => {
    server.enqueue(COLL, { status, json });
    const err = await failure(client.collateralLimitOrder(order));
    expect(err).toBeInstanceOf(InvalidOrderError);
    expect((err as InvalidOrderError).kind).toBe(kind);
    expect(server.requestsTo(COLL)).toHaveLength(1);
  });

  it('37 and 40 both mean rpi+ioc when the request had rpi and ioc', () => {
    const ctx = { endpoint: 'collateralLimitOrder', orderEndpoint: true, rpiIoc: true };
    expect((refusalError(ctx, 422, { code: 37, message: '', fieldErrors: {} }) as InvalidOrderError).kind).toBe('rpi_ioc');
    expect((refusalError(ctx, 422, { code: 40, message: '', fieldErrors: {} }) as InvalidOrderError).kind).toBe('rpi_ioc');
  });

  it('cancel not found keeps the field errors', async () => {
    server.enqueue(CANCEL, { status: 400, json: { code: 2, message: 'Inner validation failed', errors: { orderId: ['Unexecuted order was not found.'] } } });
    const err = (await failure(client.cancelOrder({ market: 'BTC_USDT', orderId: 5 }))) as InvalidOrderError;
    expect(err.kind).toBe('order_not_found');
    expect(err.fieldErrors).toEqual({ orderId: ['Unexecuted order was not found.'] });
  });

  it('code 9 "Invalid payload." is an InvalidRequestError, not retried even on a read', async () => {
    server.setDefault(BAL, { status: 400, json: { code: 9, message: 'Invalid payload.' } });
    const err = await failure(client.mainBalance());
    expect(err).toBeInstanceOf(InvalidRequestError);
    expect((err as InvalidRequestError).venueCode).toBe(9);
    expect(server.requestsTo(BAL)).toHaveLength(1);
  });

  it.each([
    [401, 'Unauthorized request.', 'unauthorized'],
    [403, 'This action is unauthorized. Enable your key in API settings', 'key_disabled'],
    [403, "You don't have permission to use this endpoint.", 'permission_denied'],
  ])('HTTP %i "%s" → AuthError(%s), one request', async (status, message, kind) => {
    server.setDefault(FLEXH, { status, json: { code: 0, message, errors: {} } });
    const err = await failure(client.flexHistory());
    expect(err).toBeInstanceOf(AuthError);
    expect((err as AuthError).kind).toBe(kind);
    expect(server.requestsTo(FLEXH)).toHaveLength(1);
  });

  it('flex history validation 400 code 0 with actionTypes.0', async () => {
    server.enqueue(FLEXH, { status: 400, json: { code: 0, message: 'Validation failed', errors: { 'actionTypes.0': ['The selected actionTypes.0 is invalid.'] } } });
    const err = (await failure(client.flexHistory({ actionTypes: ['INVEST'] }))) as InvalidRequestError;
    expect(err).toBeInstanceOf(InvalidRequestError);
    expect(err.venueCode).toBe(0);
    expect(Object.keys(err.fieldErrors)).toEqual(['actionTypes.0']);
  });

  it.each([2, 0])('flex close 422 code %i → InvalidRequestError, sent once', async (code) => {
    server.enqueue(FLEXC, { status: 422, json: { code, message: 'Inner validation failed', errors: { investment: ['Investment is not active'] } } });
    const err = await failure(client.closeFlex('plan-1'));
    expect(err).toBeInstanceOf(InvalidRequestError);
    expect(err).not.toBeInstanceOf(InvalidOrderError);
    expect(server.requestsTo(FLEXC)).toHaveLength(1);
  });

  it('futures region block 451 → AuthError(feature_unavailable)', async () => {
    server.setDefault(FUT, { status: 451, json: { success: false, message: 'api.futures.unavailable', errors: [] } });
    const err = await failure(client.futures());
    expect((err as AuthError).kind).toBe('feature_unavailable');
    expect(server.requestsTo(FUT)).toHaveLength(1);
  });

  it.each<[string, Reply]>([
    ['spec params', { status: 400, json: { success: false, message: 'bad', params: [] } }],
    ['errors []', { status: 400, json: { success: false, message: 'bad', errors: [] } }],
    ['flat 422', { status: 422, json: { market: ['The market field is required.'] } }],
  ])('public error body (%s) → InvalidRequestError', async (_n, reply) => {
    server.setDefault(FUT, reply);
    expect(await failure(client.futures())).toBeInstanceOf(InvalidRequestError);
    expect(server.requestsTo(FUT)).toHaveLength(1);
  });
});

describe('reads: transient failures retried exactly `attempts` times', () => {
  it.each<[string, Reply, string]>([
    ['503 non-JSON maintenance', { status: 503, raw: '<html>maintenance</html>' }, 'unavailable'],
    ['500 {"error":[...]}', { status: 500, json: { error: ['Internal server error.'] } }, 'unavailable'],
    ['timeout', { hang: true }, 'timeout'],
    ['reset', { destroy: true }, 'network'],
    ['garbage 200', { status: 200, raw: '<html>oops</html>' }, 'bad_response'],
    ['wrong shape', { status: 200, json: [wireDeal({ price: 9264.21 })] }, 'bad_response'],
  ])('%s → 3 requests then TransientError(%s)', async (_n, reply, kind) => {
    server.setDefault(HIST, reply);
    const err = await failure(client.executedHistory({ market: 'BTC_USDT' }));
    expect(err).toBeInstanceOf(TransientError);
    expect((err as TransientError).kind).toBe(kind);
    expect(server.requestsTo(HIST)).toHaveLength(3);
  });

  it('succeeds when a retry succeeds', async () => {
    server.enqueue(HIST, { status: 503, raw: 'down' }, { destroy: true }, { json: [wireDeal()] });
    expect(await client.executedHistory({ market: 'BTC_USDT' })).toHaveLength(1);
    expect(server.requestsTo(HIST)).toHaveLength(3);
  });

  it('attempts: 1 means no retry', async () => {
    const once = fixtureClient(server.url, { retry: { attempts: 1, baseDelayMs: 1, maxDelayMs: 1 } });
    server.setDefault(HIST, { status: 503, raw: 'down' });
    await failure(once.executedHistory());
    expect(server.requestsTo(HIST)).toHaveLength(1);
    await once.close();
  });

  it('a bad field names the endpoint and the field', async () => {
    server.setDefault(HIST, { json: [wireDeal(), wireDeal({ orderId: '13963704' })] });
    const err = (await failure(client.executedHistory({ market: 'BTC_USDT' }))) as BadResponseError;
    expect(err).toBeInstanceOf(BadResponseError);
    expect([err.endpoint, err.field]).toEqual(['executedHistory', '[1].orderId']);
  });

  it.each<[string, Record<string, unknown>, string]>([
    ['unsafe id', { orderId: 2 ** 53 + 2 }, 'orderId'],
    ['float id', { orderId: 1.5 }, 'orderId'],
    ['unknown status', { status: 'PENDING_NEW' }, 'status'],
    ['exponent money', { amount: '1e-7' }, 'amount'],
    ['missing field', { left: undefined }, 'left'],
  ])('%s → BadResponseError naming %s (on a write: ambiguous)', async (_n, over, field) => {
    server.enqueue(CANCEL, { json: wireOrder(over) });
    const err = (await failure(client.cancelOrder({ market: 'BTC_USDT', clientOrderId: 'bot-1' }))) as AmbiguousOutcomeError;
    expect(err).toBeInstanceOf(AmbiguousOutcomeError);
    expect(err.clientOrderIds).toEqual(['bot-1']);
    expect((err.cause as BadResponseError).field).toBe(field);
  });
});

describe('writes: a reply about another order proves nothing', () => {
  it.each<[string, () => Promise<unknown>, Record<string, unknown>, string]>([
    ['collateral, another clientOrderId', () => client.collateralLimitOrder(order), { market: 'BTC_PERP', clientOrderId: 'c-8' }, 'clientOrderId'],
    ['collateral, no clientOrderId', () => client.collateralLimitOrder(order), { market: 'BTC_PERP', clientOrderId: '' }, 'clientOrderId'],
    ['collateral, another market', () => client.collateralLimitOrder(order), { market: 'ETH_PERP', clientOrderId: 'c-7' }, 'market'],
    ['collateral, another side', () => client.collateralLimitOrder(order), { market: 'BTC_PERP', clientOrderId: 'c-7', side: 'sell' }, 'side'],
    ['cancel by orderId, another orderId', () => client.cancelOrder({ market: 'BTC_USDT', orderId: 5 }), { orderId: 6, status: 'CANCELED' }, 'orderId'],
    ['cancel by clientOrderId, another one', () => client.cancelOrder({ market: 'BTC_USDT', clientOrderId: 'bot-2' }), { status: 'CANCELED' }, 'clientOrderId'],
  ])('%s → ambiguous', async (_n, call, over, field) => {
    server.setDefault(COLL, { json: wireOrder(over) });
    server.setDefault(CANCEL, { json: wireOrder(over) });
    const err = (await failure(call())) as AmbiguousOutcomeError;
    expect(err).toBeInstanceOf(AmbiguousOutcomeError);
    expect((err.cause as BadResponseError).field).toBe(field);
  });
});

describe('writes: sent exactly once', () => {
  it.each<[string, Reply]>([
    ['timeout', { hang: true }],
    ['reset', { destroy: true }],
    ['503', { status: 503, raw: 'down' }],
    ['500 JSON', { status: 500, json: { error: ['Internal server error.'] } }],
    ['garbage 200', { status: 200, raw: 'not json' }],
    ['empty 200', { status: 200, raw: '' }],
  ])('%s → AmbiguousOutcomeError with the clientOrderIds', async (_n, reply) => {
    server.setDefault(COLL, reply);
    const err = (await failure(client.collateralLimitOrder(order))) as AmbiguousOutcomeError;
    expect(err).toBeInstanceOf(AmbiguousOutcomeError);
    expect(err.endpoint).toBe('collateralLimitOrder');
    expect(err.clientOrderIds).toEqual(['c-7']);
    expect(server.requestsTo(COLL)).toHaveLength(1);
  });

  it.each<[string, unknown]>([
    ['{}', {}],
    ['code null', { code: null, message: 'Validation failed', errors: {} }],
    ['code "x"', { code: 'x', message: 'Validation failed', errors: {} }],
    ['no code (not the private shape)', { message: 'Inner validation failed', errors: { amount: ['Not enough balance.'] } }],
    ['flat (the public shape)', { amount: ['Not enough balance.'] }],
    ['an HTML page', '<html><body>400 Bad Request</body></html>'],
    ['an empty body', ''],
  ])('a 4xx whose error object is garbled or missing (%s) is ambiguous, not a refusal', async (_n, json) => {
    server.setDefault(COLL, typeof json === 'string' ? { status: 400, raw: json } : { status: 422, json });
    const err = (await failure(client.collateralLimitOrder(order))) as AmbiguousOutcomeError;
    expect(err).toBeInstanceOf(AmbiguousOutcomeError);
    expect(err.clientOrderIds).toEqual(['c-7']);
    expect(server.requestsTo(COLL)).toHaveLength(1);
  });

  it('flex close timeout is ambiguous too', async () => {
    server.setDefault(FLEXC, { hang: true });
    expect(await failure(client.closeFlex('plan-1'))).toBeInstanceOf(AmbiguousOutcomeError);
    expect(server.requestsTo(FLEXC)).toHaveLength(1);
  });

  it('a gateway 429 (non-JSON) on a write is not applied: TransientError(rate_limited), not retried', async () => {
    server.setDefault(CANCEL, { status: 429, raw: '<html>429 Too Many Requests</html>' });
    const err = await failure(client.cancelOrder({ market: 'BTC_USDT', orderId: 1 }));
    expect(err).toBeInstanceOf(TransientError);
    expect(err).not.toBeInstanceOf(AmbiguousOutcomeError);
    expect((err as TransientError).kind).toBe('rate_limited');
    expect(server.requestsTo(CANCEL)).toHaveLength(1);
  });

  it('connection refused: provably not sent, TransientError (not ambiguous)', async () => {
    const tmp = http.createServer();
    await new Promise<void>((r) => tmp.listen(0, '127.0.0.1', r));
    const port = (tmp.address() as AddressInfo).port;
    await new Promise<void>((r) => tmp.close(() => r()));
    const dead = fixtureClient(`http://127.0.0.1:${port}`);
    const err = await failure(dead.collateralLimitOrder(order));
    expect(err).toBeInstanceOf(TransientError);
    expect(err).not.toBeInstanceOf(AmbiguousOutcomeError);
    await dead.close();
  });
});

describe('nonce 429', () => {
  const nonce429: Reply = { status: 429, json: { code: 0, errors: {}, message: 'Too many requests.' } };
  it('JSON "Too many requests." → NonceError, no retry on a read', async () => {
    server.setDefault(BAL, nonce429);
    expect(await failure(client.mainBalance('BTC'))).toBeInstanceOf(NonceError);
    expect(server.requestsTo(BAL)).toHaveLength(1);
  });
  it('and on a write', async () => {
    server.setDefault(COLL, nonce429);
    expect(await failure(client.collateralLimitOrder(order))).toBeInstanceOf(NonceError);
    expect(server.requestsTo(COLL)).toHaveLength(1);
  });
});

describe('local validation: nothing is sent', () => {
  it.each<[string, () => Promise<unknown>, string]>([
    ['bad clientOrderId charset', () => client.collateralLimitOrder({ ...order, clientOrderId: 'has space' }), 'clientOrderId'],
    ['clientOrderId too long', () => client.collateralLimitOrder({ ...order, clientOrderId: 'x'.repeat(33) }), 'clientOrderId'],
    ['rpi with ioc', () => client.collateralLimitOrder({ ...order, rpi: true, ioc: true }), 'rpi'],
    ['zero amount', () => client.collateralLimitOrder({ ...order, amount: dec('0') }), 'amount'],
    ['negative price', () => client.bulkLimitOrders([{ ...order, price: dec('-1') }]), 'orders[0].price'],
    ['cancel with both ids', () => client.cancelOrder({ market: 'BTC_USDT', orderId: 1, clientOrderId: 'a' } as never), 'orderId'],
    ['cancel with neither', () => client.cancelOrder({ market: 'BTC_USDT' } as never), 'orderId'],
    ['history limit 0', () => client.executedHistory({ limit: 0 }), 'limit'],
    ['history limit 101', () => client.executedHistory({ limit: 101 }), 'limit'],
    ['history offset -1', () => client.executedHistory({ offset: -1 }), 'offset'],
    ['flex limit -1', () => client.flexHistory({ limit: -1 }), 'limit'],
    ['flex offset 1.5', () => client.flexHistory({ offset: 1.5 }), 'offset'],
    ['conditional limit 101', () => client.conditionalOrders({ market: 'BTC_USDT', limit: 101 }), 'limit'],
  ])('%s', async (_n, call, field) => {
    const err = (await failure(call())) as InvalidRequestError;
    expect(err).toBeInstanceOf(InvalidRequestError);
    expect(Object.keys(err.fieldErrors)).toContain(field);
    expect(server.requests).toHaveLength(0);
  });

  it('rpi with ioc is an InvalidOrderError(rpi_ioc)', async () => {
    const err = (await failure(client.collateralLimitOrder({ ...order, rpi: true, ioc: true }))) as InvalidOrderError;
    expect(err.kind).toBe('rpi_ioc');
  });
});
