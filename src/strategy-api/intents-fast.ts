/**
 * The common results of a hook without the schema: no intent, or `placeLimits` intents whose
 * orders are plain objects with valid fields (a grid's every re-quote). The schema's parse of such
 * a result was a good part of a strategy tick's cost; this gives what the schema gives for it
 * (the same fields, Decimals made the same way) and `undefined` for anything else, which
 * `parseIntents` then hands to the schema, so every refusal and its message come from there.
 */
import { Decimal, isDecimalString } from '../core/decimal.js';
import { MARKET_RE } from '../core/market-names.js';
import type { Intent, LimitOrderIntent } from './intents.js';

const ORDER_KEYS: ReadonlySet<string> = new Set(['market', 'side', 'amount', 'price', 'postOnly']);
const INTENT_KEYS: ReadonlySet<string> = new Set(['type', 'orders']);

/** A plain object (a literal, or one without a prototype) with only `keys`. */
function plainWith(v: unknown, keys: ReadonlySet<string>): v is Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const proto: unknown = Object.getPrototypeOf(v);
  if (proto !== Object.prototype && proto !== null) return false;
  return Object.keys(v).every((k) => keys.has(k));
}

/** As the schema's `positive`: a Decimal or a plain decimal string, copied as a Decimal, finite and > 0. */
function positive(v: unknown): Decimal | undefined {
  if (!Decimal.isDecimal(v) && !(typeof v === 'string' && isDecimalString(v))) return undefined;
  const d = new Decimal(v as Decimal | string);
  return d.isFinite() && d.gt(0) ? d : undefined;
}

function limitOrder(v: unknown): LimitOrderIntent | undefined {
  if (!plainWith(v, ORDER_KEYS)) return undefined;
  const { market, side, amount, price, postOnly } = v;
  if (typeof market !== 'string' || !MARKET_RE.test(market) || (side !== 'buy' && side !== 'sell')) return undefined;
  // A postOnly key must hold a boolean (one set to undefined is left to the schema).
  if ('postOnly' in v && typeof postOnly !== 'boolean') return undefined;
  const a = positive(amount);
  const p = positive(price);
  if (a === undefined || p === undefined) return undefined;
  return typeof postOnly === 'boolean' ? { market, side, amount: a, price: p, postOnly } : { market, side, amount: a, price: p };
}

function placeLimits(v: unknown): Intent | undefined {
  if (!plainWith(v, INTENT_KEYS) || v['type'] !== 'placeLimits') return undefined;
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

/** The intents of `value` when it is one of the common results, else undefined (parse it with the schema). */
export function commonIntents(value: unknown, maxIntents: number): Intent[] | undefined {
  if (!Array.isArray(value) || value.length > maxIntents) return undefined;
  const out: Intent[] = [];
  for (const v of value) {
    const parsed = placeLimits(v);
    if (parsed === undefined) return undefined;
    out.push(parsed);
  }
  return out;
}
