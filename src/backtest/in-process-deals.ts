/**
 * A venue deal as the client's model (`Fill`), built from the simulator's deal directly: what
 * `parseExecutedHistory` reads from the deal's wire form (`dealWire`), without printing each
 * decimal and parsing it back. The simulator's decimals are immutable and print as the wire's
 * plain strings, which parse to the same values; the time goes through the same seconds and
 * rounding. A deal outside what this takes for plain (a negative amount, a decimal too long for
 * the parser, an id or time the parser refuses) is read through the wire form, so the parser's
 * error is the one raised (test/unit/backtest/in-process-deals.test.ts holds both equal).
 */
import { isSafeId } from '../core/ids.js';
import type { Decimal } from '../core/decimal.js';
import { parseExecutedHistory } from '../exchange/parse.js';
import { MAX_TIME_MS, MIN_TIME_MS } from '../exchange/fields.js';
import type { Fill } from '../model/fills.js';
import type { Deal } from '../simulator/types.js';
import { dealWire, seconds } from '../simulator/wire.js';

/** A deal as the client reads it: its wire form through the client's own parser. */
export function parseDeal(d: Deal): readonly Fill[] {
  return parseExecutedHistory('executedHistory', [dealWire(d)], d.market);
}

/** Prints plainly in well under the parser's 100 characters (at most 56 digits, exponent within ±30). */
export function plain(x: Decimal, signed: boolean): boolean {
  return x.isFinite() && (signed || !x.isNeg()) && x.e >= -30 && x.e <= 30 && x.d.length <= 8;
}

function plainFields(d: Deal): boolean {
  const texts = typeof d.clientOrderId === 'string' && typeof d.feeAsset === 'string';
  return texts && isSafeId(d.id) && isSafeId(d.orderId) && (d.side === 'buy' || d.side === 'sell') && (d.role === 1 || d.role === 2);
}

function plainDeal(d: Deal, timeMs: number): boolean {
  const decimals = plain(d.amount, false) && plain(d.price, false) && plain(d.deal, false) && plain(d.fee, true);
  return decimals && plainFields(d) && timeMs >= MIN_TIME_MS && timeMs <= MAX_TIME_MS;
}

/** The client's model of one deal: equal to `parseDeal(d)`, built without the wire round trip. */
export function dealFill(d: Deal): readonly Fill[] {
  const timeMs = Math.round(seconds(d.timeMs) * 1000);
  if (!plainDeal(d, timeMs)) return parseDeal(d);
  const fill: Fill = {
    dealId: d.id,
    orderId: d.orderId,
    clientOrderId: d.clientOrderId,
    market: d.market,
    side: d.side,
    role: d.role === 1 ? 'maker' : 'taker',
    timeMs,
    amount: d.amount,
    price: d.price,
    quote: d.deal,
    fee: d.fee,
    feeAsset: d.feeAsset,
  };
  return [fill];
}
