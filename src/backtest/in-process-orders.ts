/**
 * A bulk placement answered in process as the client's model: each validated order is handed to
 * the simulator as its bulk route reads the wire item (`readOrder`, src/simulator/routes/orders.ts),
 * and each placed order comes back as the client reads the route's `orderWire` reply
 * (`parseOrder`, src/exchange/parse.ts), so no decimal is printed and parsed back. The reply's
 * checks (identity, alignment, refusals) are the client's own (`slotOutcomes`, bulk/reply.ts).
 * test/unit/backtest/in-process-bulk.test.ts holds this path equal to the wire path after random
 * venue operations.
 */
import { Decimal, dec, toWire, ZERO } from '../core/decimal.js';
import { errorSlot, type Slot } from '../exchange/bulk/reply.js';
import { normaliseStatus } from '../exchange/parse.js';
import { cidOf, type LimitOrderInput } from '../exchange/requests.js';
import type { VenueOrder } from '../model/venue-orders.js';
import type { Account } from '../simulator/account.js';
import { SimHttpError } from '../simulator/errors.js';
import type { SimOrder } from '../simulator/types.js';
import type { PlaceInput, Venue } from '../simulator/venue.js';

/** What the route reads from the printed decimal: the same value (a foreign Decimal class printed and read). */
function exact(d: Decimal): Decimal {
  return d instanceof Decimal ? d : dec(toWire(d));
}

/** A decimal as the client reads it back from its printed form: a zero has no sign. */
function read(d: Decimal): Decimal {
  return d.isZero() ? ZERO : d;
}

/** A validated limit order (validate.ts) as the simulator's bulk route reads its wire item (`orderItem`). */
export function placeInput(o: LimitOrderInput): PlaceInput {
  return {
    market: o.market,
    side: o.side,
    amount: exact(o.amount),
    price: exact(o.price),
    postOnly: o.postOnly ?? false,
    ioc: o.ioc ?? false,
    rpi: o.rpi ?? false,
    clientOrderId: cidOf(o),
    kind: 'spot',
  };
}

/**
 * A placed order as the client reads the route's reply (`orderWire` → `parseOrder`), taken at
 * once: the simulator's order moves on with later deals.
 */
export function orderModel(o: SimOrder): VenueOrder {
  const status = normaliseStatus(o.status);
  if (status === undefined) throw new RangeError(`unknown simulator order status ${o.status}`);
  const order: VenueOrder = {
    orderId: o.orderId,
    clientOrderId: o.clientOrderId,
    market: o.market,
    side: o.side,
    type: o.type,
    // The wire carries fractional seconds, which the client rounds back to ms.
    timestampMs: Math.round((o.createdMs / 1000) * 1000),
    amount: read(o.amount),
    price: read(o.price),
    filledBase: read(o.dealStock),
    filledQuote: read(o.dealMoney),
    remaining: read(o.left),
    fee: read(o.dealFee),
    status,
    rawStatus: o.status,
    postOnly: o.postOnly,
    ioc: o.ioc,
    rpi: o.rpi,
    stp: 'no',
  };
  if (o.positionSide !== undefined) order.positionSide = o.positionSide;
  if (o.oto !== undefined) {
    const { otoId, stopLoss, takeProfit } = o.oto;
    order.oto = { otoId };
    if (stopLoss !== undefined) order.oto.stopLoss = read(stopLoss);
    if (takeProfit !== undefined) order.oto.takeProfit = read(takeProfit);
  }
  return order;
}

/**
 * Places a validated chunk (without `stopOnFail`, as the in-process API sends it) and reads each
 * item as `readSlot` reads the route's reply: a placement as its model, a refusal as its error
 * body. Any other error is thrown, as the route throws it.
 */
export function placeBulk(venue: Venue, account: Account, endpoint: string, orders: readonly LimitOrderInput[]): Slot[] {
  return orders.map((o, i): Slot => {
    try {
      return { kind: 'result', order: orderModel(venue.place(account, placeInput(o))) };
    } catch (err) {
      if (!(err instanceof SimHttpError)) throw err;
      return errorSlot(endpoint, err.body, i);
    }
  });
}
