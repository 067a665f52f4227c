/**
 * The in-process API answers a bulk placement with the client's model of each item
 * (src/backtest/in-process-orders.ts) instead of the route's wire reply read back by the client.
 * It must give exactly what the wire path gives (the simulator's `bulk` route, its reply sent as
 * JSON text, read by the client's `chunkReply`), item by item and to the last digit, and leave
 * the venue in the same state, whatever the venue went through before: random orders, brackets,
 * cancels, price moves and steps; refusals, fills, orders without clientOrderId included.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { Decimal } from '../../../src/core/decimal.js';
import { AmbiguousOutcomeError, type BotError } from '../../../src/core/errors.js';
import { inProcessApi } from '../../../src/backtest/in-process-api.js';
import { chunkReply } from '../../../src/exchange/bulk/reply.js';
import { bulkChunks } from '../../../src/exchange/bulk/request.js';
import { orderItem, type LimitOrderInput } from '../../../src/exchange/requests.js';
import { ENDPOINTS } from '../../../src/exchange/endpoints.js';
import type { BulkItemResult } from '../../../src/model/venue-orders.js';
import { SimHttpError } from '../../../src/simulator/errors.js';
import { bulk } from '../../../src/simulator/routes/orders.js';
import { orderWire } from '../../../src/simulator/wire.js';
import { Venue } from '../../../src/simulator/venue.js';
import { apply, MARKETS, op, type Op } from '../../support/venue-ops.js';

/** Items and errors as text: every Decimal as its exact digits (and a zero's sign), errors by class, code and message. */
function asText(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (v instanceof Decimal) return `dec:${v.isNeg() ? '-' : ''}${v.abs().toFixed()}`;
    if (v instanceof Error) return { error: v.constructor.name, code: (v as BotError).code, message: v.message, cause: asText((v as { cause?: unknown }).cause ?? null) };
    return v;
  });
}

const ambiguous = (cause: BotError, cids: string[]): AmbiguousOutcomeError =>
  new AmbiguousOutcomeError('bulkLimitOrders', cids, `bulkLimitOrders: outcome unknown (${cause.message})`, { cause });

function wirePath(venue: Venue, account: ReturnType<Venue['addAccount']>, orders: readonly LimitOrderInput[]): BulkItemResult[] {
  venue.catchUp();
  const r = bulk({ venue, options: { flatHistoryWithMarket: false } }, account, { orders: orders.map(orderItem), stopOnFail: false });
  const spec = ENDPOINTS.bulkLimitOrders;
  const ctx = { endpoint: 'bulkLimitOrders' as const, orderEndpoint: spec.orderEndpoint, privateEndpoint: spec.method === 'POST', rpiIoc: false };
  return chunkReply(ctx, orders, JSON.parse(JSON.stringify(r.body)), false, ambiguous).items;
}

const order = fc.record({
  market: fc.constantFrom('BTC_USDT', 'BTC_PERP', 'ETH_USDT'),
  buy: fc.boolean(),
  offset: fc.integer({ min: -4, max: 4 }),
  amount: fc.constantFrom('0.001', '0.3', '0.75', '5000', '0.0001'),
  postOnly: fc.option(fc.boolean(), { nil: undefined }),
  ioc: fc.option(fc.boolean(), { nil: undefined }),
  named: fc.boolean(),
});

function venueAfter(ops: readonly Op[], seed: number): { venue: Venue; account: ReturnType<Venue['addAccount']> } {
  const clock = new ManualClock(1_700_000_000_000 + seed * 61_000 + 137);
  const venue = new Venue(clock, seed, MARKETS, 1000);
  const account = venue.addAccount({ apiKey: 'k', apiSecret: 's', balances: { USDT: '1000', BTC: '1' } });
  ops.forEach((o, n) => {
    try {
      apply(venue, account, o, n);
    } catch (err) {
      if (!(err instanceof SimHttpError)) throw err;
    }
  });
  return { venue, account };
}

describe('a bulk placement in process', () => {
  it('property: gives what the wire path gives, item by item, and the same venue', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { maxLength: 20 }), fc.integer({ min: 0, max: 1000 }), fc.array(order, { minLength: 1, maxLength: 20 }), async (ops, seed, specs) => {
        const a = venueAfter(ops, seed);
        const b = venueAfter(ops, seed);
        const price = a.venue.markets.get('BTC_USDT')?.price ?? new Decimal(100);
        const orders: LimitOrderInput[] = specs.map((s, i) => ({
          market: s.market,
          side: s.buy ? 'buy' : 'sell',
          amount: new Decimal(s.amount),
          price: price.plus(s.offset),
          ...(s.postOnly === undefined ? {} : { postOnly: s.postOnly }),
          ...(s.ioc === undefined ? {} : { ioc: s.ioc }),
          ...(s.named ? { clientOrderId: `b-${i}` } : {}),
        }));
        const [chunk] = bulkChunks(orders);
        const wire = wirePath(a.venue, a.account, chunk ?? []);
        const model = await inProcessApi(b.venue, b.account).bulkLimitOrders(chunk ?? []);
        expect(asText(model)).toBe(asText(wire));
        expect(JSON.stringify(b.account.openOrders().map(orderWire))).toBe(JSON.stringify(a.account.openOrders().map(orderWire)));
      }),
      { numRuns: 150 },
    );
  });

  it('places, fills and refuses in one chunk, as the wire path does', async () => {
    const a = venueAfter([], 3);
    const b = venueAfter([], 3);
    const orders: LimitOrderInput[] = [
      { market: 'BTC_USDT', side: 'buy', amount: new Decimal('0.3'), price: new Decimal('101'), clientOrderId: 'taker' },
      { market: 'BTC_USDT', side: 'buy', amount: new Decimal('0.3'), price: new Decimal('99') },
      { market: 'BTC_USDT', side: 'buy', amount: new Decimal('5000'), price: new Decimal('99'), clientOrderId: 'too-big' },
    ];
    const [chunk] = bulkChunks(orders);
    const wire = wirePath(a.venue, a.account, chunk ?? []);
    const model = await inProcessApi(b.venue, b.account).bulkLimitOrders(chunk ?? []);
    expect(model.map((r) => r.status)).toEqual(['placed', 'placed', 'rejected']);
    expect(asText(model)).toBe(asText(wire));
  });
});
