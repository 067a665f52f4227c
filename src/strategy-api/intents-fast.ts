/**
 * The common results of a hook without the schema: no intent, or intents that are plain objects
 * with valid fields (a grid's every re-quote, its re-centring cancel, an entry with its stop-loss
 * and take-profit). The schema's parse of such a result was a good part of a strategy tick's cost
 * (an entry's about 10 µs, a cancel's about 2); this gives what the schema gives for it (the same
 * fields in the same order, Decimals made the same way) and `undefined` for anything else, which
 * `parseIntents` then hands to the schema, so every refusal and its message come from there.
 */
import { Decimal, isDecimalString } from '../core/decimal.js';
import { CLIENT_ORDER_ID_RE } from '../core/ids.js';
import { MARKET_RE } from '../core/market-names.js';
import { MAX_FLEX_PLAN_LENGTH, stopLossSideOk, takeProfitSideOk } from './intent-rules.js';
import type { CancelAllIntent, CancelIntent, CloseFlexIntent, Intent, LimitOrderIntent, PlaceCollateralIntent } from './intents.js';

const ORDER_KEYS: ReadonlySet<string> = new Set(['market', 'side', 'amount', 'price', 'postOnly']);
const INTENT_KEYS: ReadonlySet<string> = new Set(['type', 'orders']);
const COLLATERAL_KEYS: ReadonlySet<string> = new Set(['type', 'market', 'side', 'amount', 'price', 'stopLoss', 'takeProfit', 'exit', 'postOnly', 'ioc']);
const CANCEL_KEYS: ReadonlySet<string> = new Set(['type', 'clientOrderId']);
const CANCEL_ALL_KEYS: ReadonlySet<string> = new Set(['type', 'market']);
const CLOSE_FLEX_KEYS: ReadonlySet<string> = new Set(['type', 'plan']);
/** The optional flags of a collateral order, in the schema's order. */
const COLLATERAL_FLAGS = ['exit', 'postOnly', 'ioc'] as const;

/** A plain object (a literal, or one without a prototype) with only `keys`. */
function plainWith(v: unknown, keys: ReadonlySet<string>): v is Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const proto: unknown = Object.getPrototypeOf(v);
  if (proto !== Object.prototype && proto !== null) return false;
  return Object.keys(v).every((k) => keys.has(k));
}

const isMarket = (v: unknown): v is string => typeof v === 'string' && MARKET_RE.test(v);
const isSide = (v: unknown): v is 'buy' | 'sell' => v === 'buy' || v === 'sell';

/** As the schema's `positive`: a Decimal or a plain decimal string, copied as a Decimal, finite and > 0. */
function positive(v: unknown): Decimal | undefined {
  if (!Decimal.isDecimal(v) && !(typeof v === 'string' && isDecimalString(v))) return undefined;
  const d = new Decimal(v as Decimal | string);
  return d.isFinite() && d.gt(0) ? d : undefined;
}

function limitOrder(v: unknown): LimitOrderIntent | undefined {
  if (!plainWith(v, ORDER_KEYS)) return undefined;
  const { market, side, amount, price, postOnly } = v;
  if (!isMarket(market) || !isSide(side)) return undefined;
  // A postOnly key must hold a boolean (one set to undefined is left to the schema).
  if ('postOnly' in v && typeof postOnly !== 'boolean') return undefined;
  const a = positive(amount);
  const p = positive(price);
  if (a === undefined || p === undefined) return undefined;
  return typeof postOnly === 'boolean' ? { market, side, amount: a, price: p, postOnly } : { market, side, amount: a, price: p };
}

function placeLimits(v: Record<string, unknown>): Intent | undefined {
  if (!plainWith(v, INTENT_KEYS)) return undefined;
  const orders = v['orders'];
  if (!Array.isArray(orders) || orders.length < 1 || orders.length > 100) return undefined;
  const out: LimitOrderIntent[] = [];
  for (const o of orders) {
    const parsed = limitOrder(o);
    if (parsed === undefined) return undefined;
    out.push(parsed);
  }
  return { type: 'placeLimits', orders: out };
}

/**
 * An optional field as the schema gives it: absent stays absent (`undefined`), a value of the
 * wrong kind (or a key set to undefined, left to the schema) is `null`.
 */
function optionalPositive(v: Record<string, unknown>, key: string): Decimal | undefined | null {
  if (!(key in v)) return undefined;
  return positive(v[key]) ?? null;
}

/** Whether the entry's stop-loss and take-profit are on the sides the schema's refinement asks for. */
function guarded(side: 'buy' | 'sell', price: Decimal, stopLoss: Decimal | undefined, takeProfit: Decimal | undefined, exit: boolean): boolean {
  if (exit) return true;
  if (stopLoss === undefined || !stopLossSideOk(side, price, stopLoss)) return false;
  return takeProfit === undefined || takeProfitSideOk(side, price, takeProfit);
}

function placeCollateral(v: Record<string, unknown>): PlaceCollateralIntent | undefined {
  if (!plainWith(v, COLLATERAL_KEYS)) return undefined;
  const { market, side } = v;
  if (!isMarket(market) || !isSide(side)) return undefined;
  const amount = positive(v['amount']);
  const price = positive(v['price']);
  const stopLoss = optionalPositive(v, 'stopLoss');
  const takeProfit = optionalPositive(v, 'takeProfit');
  if (amount === undefined || price === undefined || stopLoss === null || takeProfit === null) return undefined;
  // Fields set in the schema's order (its output's order), each optional one only when given.
  const out: PlaceCollateralIntent = { type: 'placeCollateral', market, side, amount, price };
  if (stopLoss !== undefined) out.stopLoss = stopLoss;
  if (takeProfit !== undefined) out.takeProfit = takeProfit;
  if (!withFlags(v, out)) return undefined;
  return guarded(side, price, stopLoss, takeProfit, out.exit === true) ? out : undefined;
}

/** Copies the optional flags given to `out`; false when one is not a boolean (left to the schema). */
function withFlags(v: Record<string, unknown>, out: PlaceCollateralIntent): boolean {
  for (const flag of COLLATERAL_FLAGS) {
    if (!(flag in v)) continue;
    const f = v[flag];
    if (typeof f !== 'boolean') return false;
    out[flag] = f;
  }
  return true;
}

function cancel(v: Record<string, unknown>): CancelIntent | undefined {
  if (!plainWith(v, CANCEL_KEYS)) return undefined;
  const id = v['clientOrderId'];
  return typeof id === 'string' && CLIENT_ORDER_ID_RE.test(id) ? { type: 'cancel', clientOrderId: id } : undefined;
}

function cancelAll(v: Record<string, unknown>): CancelAllIntent | undefined {
  if (!plainWith(v, CANCEL_ALL_KEYS)) return undefined;
  if (!('market' in v)) return { type: 'cancelAll' };
  const market = v['market'];
  return isMarket(market) ? { type: 'cancelAll', market } : undefined;
}

function closeFlex(v: Record<string, unknown>): CloseFlexIntent | undefined {
  if (!plainWith(v, CLOSE_FLEX_KEYS)) return undefined;
  const plan = v['plan'];
  return typeof plan === 'string' && plan.length >= 1 && plan.length <= MAX_FLEX_PLAN_LENGTH ? { type: 'closeFlex', plan } : undefined;
}

/** One intent by its type; undefined for anything not a plain object of a known type with valid fields. */
function intentOf(v: unknown): Intent | undefined {
  if (typeof v !== 'object' || v === null) return undefined;
  const i = v as Record<string, unknown>;
  switch (i['type']) {
    case 'placeLimits':
      return placeLimits(i);
    case 'placeCollateral':
      return placeCollateral(i);
    case 'cancel':
      return cancel(i);
    case 'cancelAll':
      return cancelAll(i);
    case 'closeFlex':
      return closeFlex(i);
    default:
      return undefined;
  }
}

/** The intents of `value` when it is one of the common results, else undefined (parse it with the schema). */
export function commonIntents(value: unknown, maxIntents: number): Intent[] | undefined {
  if (!Array.isArray(value) || value.length > maxIntents) return undefined;
  const out: Intent[] = [];
  for (const v of value) {
    const parsed = intentOf(v);
    if (parsed === undefined) return undefined;
    out.push(parsed);
  }
  return out;
}
