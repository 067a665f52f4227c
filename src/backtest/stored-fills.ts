/**
 * The store's fill rows in the result's shape, read once for the whole result: each row's
 * decimal text is what the result prints (the Decimal's toFixed) without a round trip through a
 * Decimal when it is already in that form, and its amounts are parsed once for every fold that
 * reads them (round-trips.ts parseFill).
 */
import { toWire } from '../core/decimal.js';
import type { ResultFillRow } from '../store/fills-repo.js';
import { storedDecimal } from '../store/stored-decimal.js';
import type { BacktestFill } from './result.js';
import { parseFill, type ParsedFill } from './round-trips.js';

/**
 * Decimal text that toFixed() of its Decimal prints unchanged: no sign on a zero, no leading
 * zero but a lone one before the point, no trailing zero after it, no exponent. The store keeps
 * its amounts so (toWire), so a stored value is printed without being parsed.
 */
const FIXED_FORM = /^(?:0|-?[1-9]\d*(?:\.\d*[1-9])?|-?0\.\d*[1-9])$/;

/** `toWire(dec(text))`, read off the text when it is in that form already. */
export function fixedText(text: string): string {
  return FIXED_FORM.test(text) ? text : toWire(storedDecimal(text));
}

/** A stored row as the result lists it (strategy "unattributed" when the fill has no owner). */
export function resultFillOf(r: ResultFillRow): BacktestFill {
  return {
    timeMs: r.time_ms,
    strategy: r.strategy_id ?? 'unattributed',
    market: r.market,
    side: r.side as BacktestFill['side'],
    price: fixedText(r.price),
    amount: fixedText(r.amount),
    fee: fixedText(r.fee),
    orderId: String(r.order_id),
  };
}

/** The rows in the result's shape, in their order. */
export function* resultFillsOf(rows: Iterable<ResultFillRow>): Generator<BacktestFill> {
  for (const r of rows) yield resultFillOf(r);
}

/** The rows in the result's shape, parsed (the index of each is its place among the rows). */
export function* parsedFillsOf(rows: Iterable<ResultFillRow>): Generator<ParsedFill> {
  let i = 0;
  // The store's cache of parsed text: a grid's prices and amounts recur from fill to fill.
  for (const r of rows) yield parseFill(resultFillOf(r), i++, storedDecimal);
}
