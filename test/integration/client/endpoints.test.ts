/**
 * One request per endpoint against the fixture server: the exact method, path, headers and
 * signed body, and every success shape of docs/api-v4.md and docs/live-service.md.
 */
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { dec } from '../../../src/core/decimal.js';
import { AuthError, ConfigError } from '../../../src/core/errors.js';
import type { ApiClient } from '../../../src/exchange/api-client.js';
import { createApiClient } from '../../../src/exchange/api-client.js';
import { useFixtureServer, type RecordedRequest } from '../../support/fixture-server.js';
import { TEST_KEY, TEST_SECRET, fixtureClient, wireDeal, wireOrder } from '../../support/fixture-client.js';

const server = useFixtureServer();
let client: ApiClient;

beforeAll(() => {
  client = fixtureClient(server.url + '/');
});
afterAll(async () => {
  await client.close();
});

/** Checks headers, signature and body of a private request; returns the parsed body. */
function signedBody(req: RecordedRequest, path: string): Record<string, unknown> {
  expect(req.method).toBe('POST');
  expect(req.path).toBe(path);
  expect(req.headers['content-type']).toBe('application/json');
  expect(req.headers['x-txc-apikey']).toBe(TEST_KEY);
  const payload = req.headers['x-txc-payload'] as string;
  expect(Buffer.from(payload, 'base64').toString('utf8')).toBe(req.body);
  expect(payload).toBe(Buffer.from(req.body, 'utf8').toString('base64'));
  expect(req.headers['x-txc-signature']).toBe(createHmac('sha512', TEST_SECRET).update(payload).digest('hex'));
  const body = JSON.parse(req.body) as Record<string, unknown>;
  expect(body['request']).toBe(path);
  expect(body['nonce']).toMatch(/^\d{13,}$/);
  return body;
}

function only(path: string): RecordedRequest {
  const reqs = server.requestsTo(path);
  expect(reqs).toHaveLength(1);
  return reqs[0]!;
}

describe('public endpoints', () => {
  it('ping: GET without auth headers, ["pong"]', async () => {
    server.enqueue('/api/v4/public/ping', { json: ['pong'] });
    await client.ping();
    const req = only('/api/v4/public/ping');
    expect(req.method).toBe('GET');
    expect(req.headers['x-txc-apikey']).toBeUndefined();
    expect(req.body).toBe('');
  });

  it('futures: strings or numbers, extra fields ignored', async () => {
    server.enqueue('/api/v4/public/futures', {
      json: {
        success: true,
        message: null,
        result: [
          {
            ticker_id: 'BTC_PERP', stock_currency: 'BTC', money_currency: 'USDT', last_price: '24005.5',
            stock_volume: 1.5, money_volume: '36000.25', bid: '24005.4', ask: 24005.6, high: '24500', low: '23000',
            product_type: 'Perpetual', open_interest: '12.5', index_price: 24001.1, index_name: 'BTC', index_currency: 'BTC',
            funding_rate: '0.0001', next_funding_rate_timestamp: '1700003600000', brackets: { '1': 0, '20': 10000 },
            max_leverage: 100, funding_interval_minutes: '480', funding_cap: '0.003', funding_floor: '-0.003',
          },
        ],
      },
    });
    const [m] = await client.futures();
    expect(m!.tickerId).toBe('BTC_PERP');
    expect(m!.baseVolume.eq(dec('1.5'))).toBe(true);
    expect(m!.ask.toFixed()).toBe('24005.6');
    expect(m!.indexPrice!.toFixed()).toBe('24001.1');
    expect(m!.nextFundingRateTimestampMs).toBe(1_700_003_600_000);
    expect(m!.fundingIntervalMinutes).toBe(480);
    expect(m!.brackets).toEqual({ '1': 0, '20': 10000 });
    expect(m).not.toHaveProperty('fundingCap');
  });

  it('public calls work without credentials; private ones are a ConfigError before sending', async () => {
    const pub = createApiClient({ baseUrl: server.url });
    server.enqueue('/api/v4/public/ping', { json: ['pong'] });
    await pub.ping();
    await expect(pub.mainBalance()).rejects.toBeInstanceOf(ConfigError);
    expect(server.requestsTo('/api/v4/main-account/balance')).toHaveLength(0);
    await pub.close();
  });
});

describe('order endpoints', () => {
  it('bulk: exact body, stopOnFail, results parsed', async () => {
    server.enqueue('/api/v4/order/bulk', {
      json: [
        { result: wireOrder({ clientOrderId: 'a-1', status: 'OPEN' }), error: null },
        { result: null, error: { code: 32, message: 'Validation failed', errors: { amount: ['Amount is less than 0.001'] } } },
      ],
    });
    const res = await client.bulkLimitOrders(
      [
        { market: 'BTC_USDT', side: 'buy', amount: dec('0.01'), price: dec('40000'), clientOrderId: 'a-1', postOnly: true },
        { market: 'BTC_USDT', side: 'sell', amount: dec('0.0001'), price: dec('41000.50'), clientOrderId: 'a-2', rpi: true },
      ],
      { stopOnFail: false },
    );
    const body = signedBody(only('/api/v4/order/bulk'), '/api/v4/order/bulk');
    expect(body).toEqual({
      orders: [
        { market: 'BTC_USDT', side: 'buy', amount: '0.01', price: '40000', postOnly: true, ioc: false, clientOrderId: 'a-1' },
        { market: 'BTC_USDT', side: 'sell', amount: '0.0001', price: '41000.5', postOnly: false, ioc: false, clientOrderId: 'a-2', rpi: true },
      ],
      stopOnFail: false,
      request: '/api/v4/order/bulk',
      nonce: body['nonce'],
    });
    expect(res[0]).toMatchObject({ status: 'placed', clientOrderId: 'a-1' });
    if (res[0]!.status === 'placed') {
      expect(res[0]!.order.status).toBe('OPEN');
      expect(res[0]!.order.orderId).toBe(4180284841);
      expect(res[0]!.order.timestampMs).toBe(1595792396166);
    }
    expect(res[1]).toMatchObject({ status: 'rejected', clientOrderId: 'a-2', error: { kind: 'invalid_amount', venueCode: 32 } });
  });

  it('collateral: body with stopLoss/takeProfit/positionSide, oto parsed', async () => {
    server.enqueue('/api/v4/order/collateral/limit', {
      json: wireOrder({ market: 'BTC_PERP', clientOrderId: 'c-1', oto: { otoId: 777, stopLoss: '39000', takeProfit: '45000' }, positionSide: 'LONG' }),
    });
    const o = await client.collateralLimitOrder({
      market: 'BTC_PERP', side: 'buy', amount: dec('0.01'), price: dec('40000'), clientOrderId: 'c-1',
      stopLoss: dec('39000'), takeProfit: dec('45000'), positionSide: 'LONG',
    });
    const body = signedBody(only('/api/v4/order/collateral/limit'), '/api/v4/order/collateral/limit');
    expect(body).toMatchObject({
      market: 'BTC_PERP', side: 'buy', amount: '0.01', price: '40000', postOnly: false, ioc: false, clientOrderId: 'c-1',
      stopLoss: '39000', takeProfit: '45000', positionSide: 'LONG',
    });
    expect(o.oto?.otoId).toBe(777);
    expect(o.oto?.stopLoss?.toFixed()).toBe('39000');
    expect(o.positionSide).toBe('LONG');
  });

  it('cancel by orderId and by clientOrderId; CANCELED spellings normalised', async () => {
    server.enqueue('/api/v4/order/cancel', { json: wireOrder({ status: 'CANCELED' }) }, { json: wireOrder({ status: 'AUTO_CANCELED_REDUCE_ONLY' }) });
    const a = await client.cancelOrder({ market: 'BTC_USDT', orderId: 4180284841 });
    const b = await client.cancelOrder({ market: 'BTC_USDT', clientOrderId: 'bot-1' });
    const [r1, r2] = server.requestsTo('/api/v4/order/cancel');
    expect(signedBody(r1!, '/api/v4/order/cancel')).toMatchObject({ market: 'BTC_USDT', orderId: 4180284841 });
    const b2 = signedBody(r2!, '/api/v4/order/cancel');
    expect(b2).toMatchObject({ market: 'BTC_USDT', clientOrderId: 'bot-1' });
    expect(b2).not.toHaveProperty('orderId');
    expect([a.status, a.rawStatus, b.status]).toEqual(['CANCELLED', 'CANCELED', 'CANCELLED']);
  });

  it.each(['NEW', 'OPEN', 'PARTIALLY_FILLED', 'FILLED', 'CANCELLED', 'CANCELED', 'CANCELED_STP', 'CANCELED_TAKER_BAND', 'AUTO_CANCELED_LIQ'])(
    'accepts status %s',
    async (status) => {
      server.enqueue('/api/v4/order/cancel', { json: wireOrder({ status }) });
      const o = await client.cancelOrder({ market: 'BTC_USDT', orderId: 4180284841 });
      expect(o.rawStatus).toBe(status);
    },
  );
});

describe('conditional orders', () => {
  const ocoSnake = {
    id: 9, type: 'oco',
    stop_loss: {
      orderId: 11, clientOrderId: '', market: 'BTC_USDT', side: 'sell', type: 'stop limit', timestamp: 1700000000.5, dealMoney: '0',
      dealStock: '0', amount: '1', left: '1', dealFee: '0', price: '39000', status: 'NEW', stp: 'no', takerFee: '0.001', makerFee: '0.001',
      post_only: false, mtime: 1700000001.25, activation_price: '39500', activation_condition: 'lte', activated: 0,
    },
    take_profit: {
      orderId: 12, clientOrderId: '', market: 'BTC_USDT', side: 'sell', type: 'limit', timestamp: 1700000000.5, dealMoney: '0',
      dealStock: '0', amount: '1', left: '1', dealFee: '0', price: '45000', status: 'NEW',
    },
  };
  const ocoCamel = {
    id: 10, type: 'oco',
    stopLoss: {
      orderId: 21, clientOrderId: 'x', market: 'BTC_PERP', side: 'buy', type: 'margin stop limit', timestamp: 1700000000, dealMoney: '0',
      dealStock: '0', amount: '1', left: '1', dealFee: '0', price: '41000', status: 'OPEN', postOnly: false,
      activationPrice: '40500', activationCondition: 'gte', activated: 1,
    },
    takeProfit: {
      orderId: 22, clientOrderId: 'x', market: 'BTC_PERP', side: 'buy', type: 'margin limit', timestamp: 1700000000, dealMoney: '0',
      dealStock: '0', amount: '1', left: '1', dealFee: '0', price: '38000', status: 'OPEN',
    },
  };
  const oto = {
    id: 777, type: 'oto', stopLossPrice: '39000', takeProfitPrice: '45000',
    conditionalOrder: {
      orderId: 31, clientOrderId: 'c-1', market: 'BTC_PERP', side: 'buy', type: 'limit', timestamp: 1700000000.1, dealMoney: '0',
      dealStock: '0', amount: '0.01', left: '0.01', dealFee: '0', price: '40000', status: 'NEW', takerFee: '0.0005', makerFee: '0.0002',
    },
  };

  it('spec path, snake_case and camelCase OCO, OTO', async () => {
    server.enqueue('/api/v4/orders/conditional', { json: { limit: 100, offset: 0, total: 3, records: [ocoSnake, ocoCamel, oto] } });
    const page = await client.conditionalOrders({ market: 'BTC_USDT', limit: 100 });
    expect(signedBody(only('/api/v4/orders/conditional'), '/api/v4/orders/conditional')).toMatchObject({ market: 'BTC_USDT', limit: 100 });
    expect(page.total).toBe(3);
    const [a, b, c] = page.records;
    if (a?.kind !== 'oco' || b?.kind !== 'oco' || c?.kind !== 'oto') throw new Error('kinds');
    expect(a.stopLoss).toMatchObject({ type: 'stop limit', activationCondition: 'lte', activated: false, modifiedMs: 1700000001250 });
    expect(a.stopLoss?.activationPrice?.toFixed()).toBe('39500');
    expect(b.stopLoss).toMatchObject({ type: 'stop limit', rawType: 'margin stop limit', status: 'OPEN', activated: true });
    expect(b.takeProfit).toMatchObject({ type: 'limit', rawType: 'margin limit' });
    expect(c.id).toBe(777);
    expect(c.parent.clientOrderId).toBe('c-1');
    expect(c.stopLossPrice?.toFixed()).toBe('39000');
  });

  it('falls back to /api/v4/conditional-orders on 404 and remembers it', async () => {
    const other = fixtureClient(server.url);
    server.setDefault('/api/v4/orders/conditional', { status: 404, raw: 'Not Found' });
    server.setDefault('/api/v4/conditional-orders', { json: { limit: 100, offset: 0, total: 0, records: [] } });
    await other.conditionalOrders({ market: 'BTC_PERP' });
    await other.conditionalOrders({ market: 'BTC_PERP' });
    expect(server.requestsTo('/api/v4/orders/conditional')).toHaveLength(1);
    const fb = server.requestsTo('/api/v4/conditional-orders');
    expect(fb).toHaveLength(2);
    // `request` must equal the path actually called.
    expect(signedBody(fb[0]!, '/api/v4/conditional-orders')['market']).toBe('BTC_PERP');
    await other.close();
  });
});

describe('conditional orders: the spec path is tried again later', () => {
  it('an hour after a 404 the spec path is tried again, and kept once it answers', async () => {
    const clock = new ManualClock(Date.now());
    const c = fixtureClient(server.url, { clock });
    const SPEC = '/api/v4/orders/conditional';
    const LIVE = '/api/v4/conditional-orders';
    const empty = { json: { limit: 100, offset: 0, total: 0, records: [] } };
    server.setDefault(SPEC, { status: 404, raw: 'Not Found' });
    server.setDefault(LIVE, empty);
    const calls = async (): Promise<[number, number]> => {
      await c.conditionalOrders({ market: 'BTC_PERP' });
      return [server.requestsTo(SPEC).length, server.requestsTo(LIVE).length];
    };
    expect(await calls()).toEqual([1, 1]);
    clock.advance(59 * 60_000);
    expect(await calls()).toEqual([1, 2]);
    clock.advance(2 * 60_000);
    expect(await calls()).toEqual([2, 3]);
    server.setDefault(SPEC, empty);
    expect(await calls()).toEqual([2, 4]);
    clock.advance(60 * 60_000);
    expect(await calls()).toEqual([3, 4]);
    expect(await calls()).toEqual([4, 4]);
    await c.close();
  });
});

describe('executed history', () => {
  it('flat array with market', async () => {
    server.enqueue('/api/v4/trade-account/executed-history', { json: [wireDeal(), wireDeal({ id: 2, role: 1, feeAsset: undefined })] });
    const fills = await client.executedHistory({ market: 'BTC_USDT', limit: 100, offset: 0, startDate: 1594000000, endDate: 1595000000 });
    expect(signedBody(only('/api/v4/trade-account/executed-history'), '/api/v4/trade-account/executed-history')).toMatchObject({
      market: 'BTC_USDT', limit: 100, offset: 0, startDate: 1594000000, endDate: 1595000000,
    });
    expect(fills).toHaveLength(2);
    expect(fills[0]).toMatchObject({ dealId: 160305483, market: 'BTC_USDT', role: 'taker', timeMs: 1594667731724, feeAsset: 'USDT' });
    expect(fills[0]!.quote.toFixed()).toBe('0.70407996');
    expect(fills[1]!.role).toBe('maker');
    expect(fills[1]).not.toHaveProperty('feeAsset');
  });

  it('object keyed by market without market', async () => {
    server.enqueue('/api/v4/trade-account/executed-history', { json: { BTC_USDT: [wireDeal()], ETH_USDT: [wireDeal({ id: 3 })] } });
    const fills = await client.executedHistory();
    expect(fills.map((f) => [f.market, f.dealId])).toEqual([['BTC_USDT', 160305483], ['ETH_USDT', 3]]);
  });

  it('clientOrderId lookup with no match is an empty list', async () => {
    server.enqueue('/api/v4/trade-account/executed-history', {
      status: 422,
      json: { code: 30, message: 'Validation failed', errors: { orderHistory: ['OrderHistory was not found.'] } },
    });
    expect(await client.executedHistory({ clientOrderId: 'bot-9' })).toEqual([]);
    expect(server.requestsTo('/api/v4/trade-account/executed-history')).toHaveLength(1);
  });
});

describe('account endpoints', () => {
  it('main balance: map without ticker, single or map with ticker', async () => {
    server.enqueue(
      '/api/v4/main-account/balance',
      { json: { BTC: { main_balance: '0.5' }, USDT: { main_balance: '1000.25' } } },
      { json: { main_balance: '0.5' } },
      { json: { BTC: { main_balance: '0.75' } } },
      { json: { ETH: { main_balance: '1' } } },
    );
    const all = await client.mainBalance();
    expect(all.get('USDT')?.toFixed()).toBe('1000.25');
    expect((await client.mainBalance('BTC')).toFixed()).toBe('0.5');
    expect((await client.mainBalance('BTC')).toFixed()).toBe('0.75');
    expect((await client.mainBalance('BTC')).toFixed()).toBe('0');
    const bodies = server.requestsTo('/api/v4/main-account/balance').map((r) => signedBody(r, '/api/v4/main-account/balance'));
    expect(bodies[0]).not.toHaveProperty('ticker');
    expect(bodies[1]).toMatchObject({ ticker: 'BTC' });
  });

  it('flex history: query body, transactionId or transaction_id', async () => {
    const rec = { createdAt: 1700000000, planId: 'p-1', investmentId: 'i-1', currency: 'USDT', amount: '1.25', actionType: 4 };
    server.enqueue('/api/v4/main-account/smart-flex/investments/history', {
      json: { data: [{ ...rec, transactionId: 't-1' }, { ...rec, transaction_id: 't-2', actionType: 1 }], limit: 50, offset: 0 },
    });
    const page = await client.flexHistory({ limit: 50, offset: 0, plan: 'p-1', dateFrom: 1690000000, actionTypes: ['DAILY_EARNING', 'INVEST'] });
    const body = signedBody(only('/api/v4/main-account/smart-flex/investments/history'), '/api/v4/main-account/smart-flex/investments/history');
    expect(body).toMatchObject({ limit: 50, offset: 0, plan: 'p-1', dateFrom: 1690000000, actionTypes: [4, 1] });
    expect(page.records.map((r) => [r.transactionId, r.actionType, r.createdAtMs])).toEqual([
      ['t-1', 'DAILY_EARNING', 1_700_000_000_000],
      ['t-2', 'INVEST', 1_700_000_000_000],
    ]);
  });

  it('flex close: 201 and 200, both spellings', async () => {
    server.enqueue(
      '/api/v4/main-account/smart-flex/investments/close',
      { status: 201, json: { data: { transactionId: 'tx-1' } } },
      { status: 200, json: { data: { transaction_id: 'tx-2' } } },
    );
    expect(await client.closeFlex('0b4c2f7e-3c1e-4c9a-9b1a-1f2e3d4c5b6a')).toEqual({ transactionId: 'tx-1' });
    expect(await client.closeFlex('0b4c2f7e-3c1e-4c9a-9b1a-1f2e3d4c5b6a')).toEqual({ transactionId: 'tx-2' });
    const [r] = server.requestsTo('/api/v4/main-account/smart-flex/investments/close');
    expect(signedBody(r!, '/api/v4/main-account/smart-flex/investments/close')).toMatchObject({ plan: '0b4c2f7e-3c1e-4c9a-9b1a-1f2e3d4c5b6a' });
  });

  it('credit line: loan, no active loan, feature not enabled', async () => {
    server.enqueue(
      '/api/v4/credit-line/loans/info',
      {
        json: {
          asset: 'USDT', amount: '1000', totalFunding: '1500', currentLtv: '0.5', initialLtv: '0.6', marginCallLtv: '0.8',
          liquidationLtv: '0.9', createdAt: 1700000000,
        },
      },
      { status: 400, json: { code: 0, message: 'No active loan at the moment' } },
      { status: 404, json: { code: 0, message: '' } },
    );
    const a = await client.creditLine();
    expect(a.active).toBe(true);
    if (a.active) expect([a.loan.marginCallLtv.toFixed(), a.loan.createdAtMs]).toEqual(['0.8', 1_700_000_000_000]);
    const body = signedBody(server.requestsTo('/api/v4/credit-line/loans/info')[0]!, '/api/v4/credit-line/loans/info');
    expect(Object.keys(body).sort()).toEqual(['nonce', 'request']);
    expect(await client.creditLine()).toEqual({ active: false });
    await expect(client.creditLine()).rejects.toMatchObject({ constructor: AuthError, kind: 'feature_unavailable' });
  });
});
