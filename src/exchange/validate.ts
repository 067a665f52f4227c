/**
 * Local validation before anything is sent: a refusal here costs no request, no nonce and no
 * rate-limit budget. Errors name the field (and the item index for bulk).
 *
 * A clientOrderId is optional here (absent or `''` = none), for library users; the bot's own
 * requirement is in the request types of src/model/venue-orders.ts, which make it a string the engine always fills in.
 */
import { InvalidOrderError, InvalidRequestError } from '../core/errors.js';
import { Decimal } from '../core/decimal.js';
import { isValidClientOrderId } from '../core/ids.js';
import type { CancelRequest } from '../model/venue-orders.js';
import type { ExecutedHistoryQuery } from '../model/fills.js';
import type { FlexHistoryQuery } from '../model/flex.js';
import type { CollateralOrderInput, ConditionalQuery, LimitOrderInput } from './requests.js';

function bad(field: string, message: string): never {
  throw new InvalidRequestError(`${field}: ${message}`, null, { [field]: [message] }, { field });
}

const isNonEmpty = (v: unknown): boolean => typeof v === 'string' && v.length > 0;
const isPositive = (v: unknown): boolean => Decimal.isDecimal(v) && (v as Decimal).isFinite() && (v as Decimal).gt(0);
const NON_EMPTY = 'must be a non-empty string';
const POSITIVE = 'must be a positive Decimal';

function nonEmpty(field: string, v: unknown): void {
  if (!isNonEmpty(v)) bad(field, NON_EMPTY);
}

function positive(field: string, v: unknown): void {
  if (!isPositive(v)) bad(field, POSITIVE);
}

function intInRange(field: string, v: number | undefined, min: number, max = Number.MAX_SAFE_INTEGER): void {
  if (v === undefined) return;
  if (!Number.isSafeInteger(v) || v < min || v > max) bad(field, `must be an integer in ${min}..${max === Number.MAX_SAFE_INTEGER ? '' : max}`);
}

const isClientOrderId = (id: unknown, required: boolean): boolean =>
  (!required && (id === undefined || id === '')) || (typeof id === 'string' && isValidClientOrderId(id));
const CLIENT_ORDER_ID = 'must be 1..32 characters of letters, digits, dash, dot, underscore';

function clientOrderId(field: string, id: unknown, required: boolean): void {
  if (!isClientOrderId(id, required)) bad(field, CLIENT_ORDER_ID);
}

/**
 * A limit order's fields; `index`: its place in a bulk list, which prefixes the field names.
 * A field's name is built only for its refusal (every placement's items are checked).
 */
function checkLimitOrder(o: LimitOrderInput, index: number | undefined): void {
  const name = (field: string): string => (index === undefined ? field : `orders[${index}].${field}`);
  if (!isNonEmpty(o.market)) bad(name('market'), NON_EMPTY);
  if (o.side !== 'buy' && o.side !== 'sell') bad(name('side'), 'must be buy or sell');
  if (!isPositive(o.amount)) bad(name('amount'), POSITIVE);
  if (!isPositive(o.price)) bad(name('price'), POSITIVE);
  if (!isClientOrderId(o.clientOrderId, false)) bad(name('clientOrderId'), CLIENT_ORDER_ID);
  if (o.rpi === true && o.ioc === true) {
    throw new InvalidOrderError('rpi_ioc', `${name('rpi')}: an RPI order cannot be IOC`, null, { [name('rpi')]: ['rpi with ioc'] });
  }
}

export function validateLimitOrder(o: LimitOrderInput): void {
  checkLimitOrder(o, undefined);
}

export function validateBulk(orders: readonly LimitOrderInput[]): void {
  if (orders.length === 0) bad('orders', 'at least one order is required');
  orders.forEach((o, i) => checkLimitOrder(o, i));
  // Replies are matched to items by clientOrderId (bulk/reply.ts): a duplicate would make both ambiguous.
  const seen = new Set<string>();
  orders.forEach((o, i) => {
    const cid = o.clientOrderId ?? '';
    if (cid !== '' && seen.has(cid)) bad(`orders[${i}].clientOrderId`, 'duplicate within the request');
    seen.add(cid);
  });
}

export function validateCollateral(o: CollateralOrderInput): void {
  validateLimitOrder(o);
  if (o.stopLoss !== undefined) positive('stopLoss', o.stopLoss);
  if (o.takeProfit !== undefined) positive('takeProfit', o.takeProfit);
  if (o.positionSide !== undefined && !['LONG', 'SHORT', 'BOTH'].includes(o.positionSide)) bad('positionSide', 'must be LONG, SHORT or BOTH');
}

export function validateCancel(r: CancelRequest): void {
  nonEmpty('market', r.market);
  const hasId = r.orderId !== undefined;
  const hasCid = r.clientOrderId !== undefined;
  if (hasId === hasCid) bad('orderId', 'exactly one of orderId and clientOrderId is required');
  if (hasId && !(Number.isSafeInteger(r.orderId) && (r.orderId as number) >= 0)) bad('orderId', 'must be a safe non-negative integer');
  if (hasCid) clientOrderId('clientOrderId', r.clientOrderId, true);
}

export function validateConditional(q: ConditionalQuery): void {
  if (q.market !== undefined) nonEmpty('market', q.market);
  intInRange('offset', q.offset, 0);
  intInRange('limit', q.limit, 1, 100);
}

export function validateExecutedHistory(q: ExecutedHistoryQuery): void {
  if (q.market !== undefined) nonEmpty('market', q.market);
  clientOrderId('clientOrderId', q.clientOrderId, false);
  intInRange('startDate', q.startDate, 0);
  intInRange('endDate', q.endDate, 0);
  intInRange('offset', q.offset, 0);
  intInRange('limit', q.limit, 1, 100);
}

export function validateFlexHistory(q: FlexHistoryQuery): void {
  intInRange('limit', q.limit, 0);
  intInRange('offset', q.offset, 0);
  intInRange('dateFrom', q.dateFrom, 0);
  intInRange('dateTo', q.dateTo, 0);
}
