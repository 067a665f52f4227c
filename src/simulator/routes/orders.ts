/** Order endpoints: bulk limit, collateral limit, cancel (api-v4 4.3, 4.4, 4.7; docs/live-service.md §3). */
import { isValidClientOrderId } from '../../core/ids.js';
import { isRecord } from '../../core/records.js';
import { SimHttpError, validation } from '../errors.js';
import { FieldReader } from '../validate.js';
import type { Side } from '../../core/orders.js';
import type { PlaceInput } from '../venue.js';
import { orderWire } from '../wire.js';
import type { Account } from '../account.js';
import type { SimOrder } from '../types.js';
import type { PrivateHandler, RouteContext } from './types.js';

export const MAX_BULK = 20;

function readSide(r: FieldReader): Side {
  const side = r.string('side', true);
  if (side !== undefined && side !== 'buy' && side !== 'sell') r.fail('side', 'The selected side is invalid.');
  return side === 'sell' ? 'sell' : 'buy';
}

function readClientOrderId(r: FieldReader): string {
  const clientOrderId = r.string('clientOrderId', false) ?? '';
  if (clientOrderId !== '' && !isValidClientOrderId(clientOrderId)) {
    r.fail('clientOrderId', 'The clientOrderId may contain letters, digits, dashes, dots and underscores (max 32).');
  }
  return clientOrderId;
}

/** The fields only a collateral order has, each present only when given. */
function readCollateralFields(r: FieldReader): Pick<PlaceInput, 'positionSide' | 'stopLoss' | 'takeProfit'> {
  const ps = r.string('positionSide', false);
  const valid = ps === undefined || ps === 'LONG' || ps === 'SHORT' || ps === 'BOTH';
  if (!valid) r.fail('positionSide', 'The selected positionSide is invalid.');
  const stopLoss = r.decimal('stopLoss', false);
  const takeProfit = r.decimal('takeProfit', false);
  return {
    ...(valid && ps !== undefined ? { positionSide: ps } : {}),
    ...(stopLoss === undefined ? {} : { stopLoss }),
    ...(takeProfit === undefined ? {} : { takeProfit }),
  };
}

/** Shape validation of one order body; throws code 30 with per-field errors. */
function readOrder(raw: unknown, kind: 'spot' | 'collateral'): PlaceInput {
  if (!isRecord(raw)) throw validation({ order: ['The order must be an object.'] });
  const r = new FieldReader(raw);
  const market = r.string('market', true);
  const side = readSide(r);
  const amount = r.decimal('amount', true);
  const price = r.decimal('price', true);
  const flags = { postOnly: r.bool('postOnly'), ioc: r.bool('ioc'), rpi: r.bool('rpi') };
  const clientOrderId = readClientOrderId(r);
  const collateral = kind === 'collateral' ? readCollateralFields(r) : {};
  if (!r.ok || market === undefined || amount === undefined || price === undefined) throw validation(r.errors);
  return { market, side, amount, price, ...flags, clientOrderId, kind, ...collateral };
}

export const bulk: PrivateHandler = (ctx, account, body) => {
  const orders = body['orders'];
  if (!Array.isArray(orders) || orders.length < 1 || orders.length > MAX_BULK) {
    throw validation({ orders: [`The orders must be an array of 1 to ${MAX_BULK} orders.`] });
  }
  const so = body['stopOnFail'];
  if (so !== undefined && typeof so !== 'boolean') throw validation({ stopOnFail: ['The stopOnFail field must be true or false.'] });
  const stopOnFail = so === true;
  const results: unknown[] = [];
  for (const raw of orders) {
    try {
      const order = ctx.venue.place(account, readOrder(raw, 'spot'));
      results.push({ result: orderWire(order), error: null });
    } catch (err) {
      if (!(err instanceof SimHttpError)) throw err;
      results.push({ result: null, error: err.body });
      // stopOnFail: the failing item is reported; the orders after it are not processed or listed.
      if (stopOnFail) break;
    }
  }
  return { status: 200, body: results };
};

export const collateralLimit: PrivateHandler = (ctx, account, body) => {
  const order = ctx.venue.place(account, readOrder(body, 'collateral'));
  return { status: 200, body: orderWire(order) };
};

/**
 * The order a cancel request ends, after the route's checks of its fields. The route replies with
 * its wire form; the in-process API reads it as the client's model (src/backtest/in-process-orders.ts).
 */
export function cancelledOrder(ctx: RouteContext, account: Account, body: Record<string, unknown>): SimOrder {
  const r = new FieldReader(body);
  const market = r.string('market', true);
  const orderId = r.int('orderId', 0, Number.MAX_SAFE_INTEGER);
  const clientOrderId = r.string('clientOrderId', false);
  if (orderId === undefined && (clientOrderId === undefined || clientOrderId === '') && !r.has('orderId')) {
    r.fail('orderId', 'The orderId field is required when clientOrderId is not present.');
  }
  if (!r.ok || market === undefined) throw validation(r.errors);
  return ctx.venue.cancel(account, market, orderId, clientOrderId);
}

export const cancel: PrivateHandler = (ctx, account, body) => ({ status: 200, body: orderWire(cancelledOrder(ctx, account, body)) });
