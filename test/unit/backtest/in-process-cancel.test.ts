/**
 * The in-process API answers a cancel with the client's model of the order it ended
 * (`orderModel`, src/backtest/in-process-orders.ts) instead of the route's wire reply read back by
 * the client. It must give exactly what the wire path gives (the simulator's `cancel` route, its
 * reply sent as JSON text, read by the client's `parseOrder`), to the last digit, refuse what the
 * route refuses and leave the venue in the same state, whatever the venue went through before:
 * random orders, brackets, partial fills, cancels, price moves and steps.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { Decimal } from '../../../src/core/decimal.js';
import { BotError } from '../../../src/core/errors.js';
import { inProcessApi } from '../../../src/backtest/in-process-api.js';
import { parseOrder } from '../../../src/exchange/parse.js';
import type { CancelRequest } from '../../../src/model/venue-orders.js';
import { SimHttpError } from '../../../src/simulator/errors.js';
import { cancel } from '../../../src/simulator/routes/orders.js';
import { orderWire } from '../../../src/simulator/wire.js';
import { Venue } from '../../../src/simulator/venue.js';
import { apply, MARKETS, op, type Op } from '../../support/venue-ops.js';

/** An order as text: every Decimal as its exact digits and a zero's sign (read before its `toJSON`). */
function asText(value: unknown): string {
  return JSON.stringify(value, function (this: Record<string, unknown>, key: string, v: unknown) {
    const raw = this[key];
    return raw instanceof Decimal ? `dec:${raw.isNeg() ? '-' : ''}${raw.abs().toFixed()}` : v;
  });
}

type Accounted = { venue: Venue; account: ReturnType<Venue['addAccount']> };

function venueAfter(ops: readonly Op[], seed: number): Accounted {
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

/** The route's reply as JSON text, read by the client; a refusal as `refused`. */
function wirePath({ venue, account }: Accounted, request: CancelRequest): string {
  venue.catchUp();
  const fields = request.orderId !== undefined ? { market: request.market, orderId: request.orderId } : { market: request.market, clientOrderId: request.clientOrderId };
  try {
    const r = cancel({ venue, options: { flatHistoryWithMarket: false } }, account, fields);
    return asText(parseOrder('cancelOrder', JSON.parse(JSON.stringify(r.body))));
  } catch (err) {
    if (!(err instanceof SimHttpError)) throw err;
    return 'refused';
  }
}

async function modelPath({ venue, account }: Accounted, request: CancelRequest): Promise<string> {
  try {
    return asText(await inProcessApi(venue, account).cancelOrder(request));
  } catch (err) {
    if (!(err instanceof BotError)) throw err;
    return 'refused';
  }
}

const target = fc.record({ pick: fc.nat(), byClientId: fc.boolean(), missing: fc.boolean() });

/** A cancel of one of the orders the ops placed (open or not), or of one that never was. */
function requestFor({ account }: Accounted, t: { pick: number; byClientId: boolean; missing: boolean }, ops: number): CancelRequest {
  const open = account.openOrders();
  const o = open[t.pick % Math.max(1, open.length)];
  if (t.missing || o === undefined) {
    return t.byClientId ? { market: 'BTC_USDT', clientOrderId: `c${ops + 5}` } : { market: 'BTC_PERP', orderId: 987_654_321 };
  }
  return t.byClientId ? { market: o.market, clientOrderId: o.clientOrderId } : { market: o.market, orderId: o.orderId };
}

describe('a cancel in process', () => {
  it('property: gives what the wire path gives, and the same venue', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { maxLength: 25 }), fc.integer({ min: 0, max: 1000 }), target, async (ops, seed, t) => {
        const a = venueAfter(ops, seed);
        const b = venueAfter(ops, seed);
        const request = requestFor(a, t, ops.length);
        const wire = wirePath(a, request);
        expect(await modelPath(b, request)).toBe(wire);
        expect(JSON.stringify(b.account.openOrders().map(orderWire))).toBe(JSON.stringify(a.account.openOrders().map(orderWire)));
      }),
      { numRuns: 200 },
    );
  });

  it('cancels a partly filled order and refuses an unknown one, as the wire path does', async () => {
    // Two buys of 0.3 at 99, the price moved there with 0.5 to trade: the second is left with 0.1.
    const ops: Op[] = [{ kind: 'spot', buy: true, offset: -1 }, { kind: 'spot', buy: true, offset: -1 }, { kind: 'price', market: 0, price: 99 }];
    const a = venueAfter(ops, 7);
    const b = venueAfter(ops, 7);
    const [o] = a.account.openOrders();
    expect(o?.left.toFixed()).toBe('0.1');
    const byId: CancelRequest = { market: 'BTC_USDT', orderId: o?.orderId ?? 0 };
    const wire = wirePath(a, byId);
    expect(wire).toContain('"filledBase":"dec:0.2"');
    expect(await modelPath(b, byId)).toBe(wire);
    const unknown: CancelRequest = { market: 'BTC_USDT', clientOrderId: 'never' };
    expect(wirePath(a, unknown)).toBe('refused');
    expect(await modelPath(b, unknown)).toBe('refused');
  });
});
