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

function nonEmpty(field: string, v: unknown): void {
  if (typeof v !== 'string' || v.length === 0) bad(field, 'must be a non-empty string');
}

function positive(field: string, v: unknown): void {
  if (!Decimal.isDecimal(v) || !(v as Decimal).isFinite() || !(v as Decimal).gt(0)) bad(field, 'must be a positive Decimal');
}

function intInRange(field: string, v: number | undefined, min: number, max = Number.MAX_SAFE_INTEGER): void {
  if (v === undefined) return;
  if (!Number.isSafeInteger(v) || v < min || v > max) bad(field, `must be an integer in ${min}..${max === Number.MAX_SAFE_INTEGER ? '' : max}`);
}

function clientOrderId(field: string, id: unknown, required: boolean): void {
  if (!required && (id === undefined || id === '')) return;
  if (typeof id !== 'string' || !isValidClientOrderId(id)) {
    bad(field, 'must be 1..32 characters of letters, digits, dash, dot, underscore');
  }
}

export function validateLimitOrder(o: LimitOrderInput, prefix = ''): void {
  nonEmpty(`${prefix}market`, o.market);
  if (o.side !== 'buy' && o.side !== 'sell') bad(`${prefix}side`, 'must be buy or sell');
  positive(`${prefix}amount`, o.amount);
  positive(`${prefix}price`, o.price);
  clientOrderId(`${prefix}clientOrderId`, o.clientOrderId, false);
  if (o.rpi === true && o.ioc === true) {
    throw new InvalidOrderError('rpi_ioc', `${prefix}rpi: an RPI order cannot be IOC`, null, { [`${prefix}rpi`]: ['rpi with ioc'] });
  }
}

export function validateBulk(orders: readonly LimitOrderInput[]): void {
  if (orders.length === 0) bad('orders', 'at least one order is required');
  orders.forEach((o, i) => validateLimitOrder(o, `orders[${i}].`));
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
