/**
 * What a library user of createApiClient may do that the bot never does: orders without a
 * clientOrderId, the conditional listing without a market, and every leg field the spec lists.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dec } from '../../../src/core/decimal.js';
import type { ApiClient } from '../../../src/exchange/api-client.js';
import { useFixtureServer, type RecordedRequest } from '../../support/fixture-server.js';
import { fixtureClient, wireOrder } from '../../support/fixture-client.js';

const BULK = '/api/v4/order/bulk';
const COLL = '/api/v4/order/collateral/limit';
const COND = '/api/v4/orders/conditional';
const server = useFixtureServer();
let client: ApiClient;

beforeAll(() => {
  client = fixtureClient(server.url);
});
afterAll(async () => {
  await client.close();
});

const body = (r: RecordedRequest | undefined): Record<string, unknown> => JSON.parse(r!.body) as Record<string, unknown>;

describe('orders without clientOrderId', () => {
  const noId = (price: string): { market: string; side: 'buy'; amount: ReturnType<typeof dec>; price: ReturnType<typeof dec> } => ({
    market: 'BTC_USDT', side: 'buy', amount: dec('0.01'), price: dec(price),
  });
  const refused = { result: null, error: { code: 10, message: 'Inner validation failed', errors: { amount: ['Not enough balance.'] } } };

  it("bulk: sent with '' and matched by position, market, side, amount and price", async () => {
    server.enqueue(BULK, {
      json: [
        { result: wireOrder({ clientOrderId: '', price: '40000', amount: '0.01' }), error: null },
        { result: wireOrder({ clientOrderId: '', price: '40500.00', amount: '0.0100' }), error: null },
        refused,
      ],
    });
    const res = await client.bulkLimitOrders([noId('40000'), noId('40500'), noId('40600')]);
    const sent = (body(server.requestsTo(BULK)[0]) as { orders: { clientOrderId: string }[] }).orders;
    expect(sent.map((o) => o.clientOrderId)).toEqual(['', '', '']);
    expect(res.map((r) => [r.clientOrderId, r.status])).toEqual([['', 'placed'], ['', 'placed'], ['', 'rejected']]);
  });

  it('bulk: one result that is not its position\'s order makes every position untrustworthy', async () => {
    server.enqueue(BULK, {
      json: [
        { result: wireOrder({ clientOrderId: '', price: '40000', amount: '0.01' }), error: null },
        { result: wireOrder({ clientOrderId: '', price: '41000', amount: '0.01' }), error: null },
        refused,
      ],
    });
    const res = await client.bulkLimitOrders([noId('40000'), noId('40500'), noId('40600')]);
    expect(res.map((r) => r.status)).toEqual(['unknown', 'unknown', 'unknown']);
    const u = res[1]!;
    if (u.status === 'unknown') expect(u.error.clientOrderIds).toEqual([]);
  });

  it('bulk: several orders without id do not count as duplicates', async () => {
    server.enqueue(BULK, { json: [0, 1].map((i) => ({ result: wireOrder({ clientOrderId: '', price: String(40000 + i) }), error: null })) });
    const res = await client.bulkLimitOrders([0, 1].map((i) => ({ market: 'BTC_USDT', side: 'buy' as const, amount: dec('0.01'), price: dec(String(40000 + i)) })));
    expect(res.map((r) => r.status)).toEqual(['placed', 'placed']);
  });

  it('collateral: the body carries no clientOrderId', async () => {
    server.enqueue(COLL, { json: wireOrder({ market: 'BTC_PERP', clientOrderId: '' }) });
    const o = await client.collateralLimitOrder({ market: 'BTC_PERP', side: 'buy', amount: dec('0.01'), price: dec('40000') });
    expect(body(server.requestsTo(COLL)[0])).not.toHaveProperty('clientOrderId');
    expect(o.clientOrderId).toBe('');
  });
});

describe('conditional listing', () => {
  const leg = {
    orderId: 11, clientOrderId: '', market: 'BTC_USDT', side: 'sell', type: 'stop limit', timestamp: 1700000000.5, dealMoney: '0',
    dealStock: '0', amount: '1', left: '1', dealFee: '0', price: '39000', status: 'NEW', stp: 'cb', takerFee: '0.001', makerFee: '-0.0001',
    post_only: true, activation_price: '39500', activation_condition: 'lte', activated: 1,
  };

  it('without a market: the body has none', async () => {
    server.enqueue(COND, { json: { limit: 100, offset: 0, total: 0, records: [] } });
    await client.conditionalOrders();
    expect(body(server.requestsTo(COND)[0])).not.toHaveProperty('market');
  });

  it('leg fee rates, post_only, stp and activated as sent', async () => {
    server.enqueue(COND, {
      json: { limit: 100, offset: 0, total: 1, records: [{ id: 9, type: 'oco', stop_loss: leg, take_profit: { ...leg, type: 'limit', activated: 2 } }] },
    });
    const [rec] = (await client.conditionalOrders({ market: 'BTC_USDT' })).records;
    if (rec?.kind !== 'oco') throw new Error('expected an OCO record');
    expect(rec.stopLoss).toMatchObject({ postOnly: true, stp: 'cb', rawActivated: 1, activated: true });
    expect([rec.stopLoss?.takerFeeRate?.toFixed(), rec.stopLoss?.makerFeeRate?.toFixed()]).toEqual(['0.001', '-0.0001']);
    expect(rec.takeProfit?.rawActivated).toBe(2);
    expect(rec.takeProfit).not.toHaveProperty('activated');
  });
});
