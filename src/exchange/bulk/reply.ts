/**
 * One bulk chunk's reply → per-item outcomes. The venue answers an array in request order
 * (docs/live-service.md §3), e.g. for two orders with `stopOnFail: false`:
 *
 *   [{"result":{"orderId":4180284841,"clientOrderId":"b-0",...,"status":"NEW"},"error":null},
 *    {"result":null,"error":{"code":10,"message":"Inner validation failed","errors":{"amount":["Not enough balance."]}}}]
 *
 * Positions alone prove nothing: a reply one item short or reordered would credit one order with
 * another's outcome, and a placed order reported "rejected" invites a duplicate. So:
 * - a result is an item's placement only when it carries the item's clientOrderId (and market and
 *   side; for an order without clientOrderId, its position, amount and price too), once;
 * - an error carries no clientOrderId, so it is an item's refusal only when the reply lines up
 *   with the request as a whole (see `linesUp`) and the error object is well formed;
 * - anything else is `unknown`, resolved later from evidence.
 */
import { BadResponseError, BotError, type AmbiguousOutcomeError } from '../../core/errors.js';
import { BatchStoppedError, chunkFailed, stoppedItems } from './outcomes.js';
import { readPrivateError, refusalError, type CallContext, type VenueErrorBody } from '../errors.js';
import { isRecord } from '../../core/records.js';
import type { BulkItemResult, VenueOrder } from '../../model/venue-orders.js';
import { parseOrder } from '../parse.js';
import { cidOf, namedCids, type LimitOrderInput } from '../requests.js';

/** One reply item, read on its own. `empty` is `{result:null, error:null}` or missing. */
export type Slot =
  | { kind: 'result'; order: VenueOrder }
  | { kind: 'error'; body: VenueErrorBody }
  | { kind: 'empty' }
  /** `claims`: the clientOrderId an unreadable result still carries (it may be that order's placement). */
  | { kind: 'garbled'; cause: BadResponseError; claims?: string };

type Ambiguous = (cause: BotError, clientOrderIds: string[]) => AmbiguousOutcomeError;

/** The clientOrderId an unreadable item's result still carries, if any. */
function claimOf(result: unknown): { claims?: string } {
  const cid = isRecord(result) ? result['clientOrderId'] : undefined;
  return typeof cid === 'string' ? { claims: cid } : {};
}

function readResult(endpoint: string, result: unknown, i: number): Slot {
  try {
    return { kind: 'result', order: parseOrder(endpoint, result, `[${i}].result`) };
  } catch (err) {
    if (!(err instanceof BadResponseError)) throw err;
    return { kind: 'garbled', cause: err, ...claimOf(result) };
  }
}

function readSlot(endpoint: string, reply: readonly unknown[], i: number): Slot {
  if (i >= reply.length) return { kind: 'empty' };
  const item = reply[i];
  if (!isRecord(item)) return { kind: 'garbled', cause: new BadResponseError(endpoint, `[${i}]`, 'expected {result, error}') };
  const result = item['result'] ?? null;
  const error = item['error'] ?? null;
  if (result !== null && error !== null) {
    return { kind: 'garbled', cause: new BadResponseError(endpoint, `[${i}]`, 'both result and error'), ...claimOf(result) };
  }
  if (result !== null) return readResult(endpoint, result, i);
  if (error === null) return { kind: 'empty' };
  return errorSlot(endpoint, error, i);
}

/** An item's `error` object (not null), read as `readSlot` reads it. */
export function errorSlot(endpoint: string, error: unknown, i: number): Slot {
  const body = readPrivateError(error);
  return body === undefined ? { kind: 'garbled', cause: new BadResponseError(endpoint, `[${i}].error`, 'not a well-formed error object') } : { kind: 'error', body };
}

/**
 * The venue order is this request's: same clientOrderId, market and side (and amount and price
 * when there is no id). `mismatchedField(v, placementIdentity(o)) === undefined`, compared field
 * by field without building the identity (every placement's reply item is compared).
 */
export function isOrderOf(o: LimitOrderInput, v: VenueOrder): boolean {
  const cid = cidOf(o);
  if (v.clientOrderId !== cid || v.market !== o.market || v.side !== o.side) return false;
  return cid !== '' || (v.amount.eq(o.amount) && v.price.eq(o.price));
}

/** Per slot: it is a result and the order at its own position's (each pair is compared once, for `linesUp` and `decide`). */
function ownResults(orders: readonly LimitOrderInput[], slots: readonly Slot[]): boolean[] {
  return slots.map((s, i) => s.kind === 'result' && isOrderOf(orders[i]!, s.order));
}

/**
 * Whether positions can be trusted for what carries no clientOrderId (errors, empty items, orders
 * without id): nothing garbled, every result at its own order's position, the full length without
 * `stopOnFail`; with it, nothing but empty items after the first item that is not a result.
 */
function linesUp(orders: readonly LimitOrderInput[], slots: readonly Slot[], own: readonly boolean[], replyLength: number, stopOnFail: boolean): boolean {
  if (!stopOnFail && replyLength !== orders.length) return false;
  let stopped = false;
  return slots.every((s, i) => {
    if (s.kind === 'garbled' || (stopped && s.kind !== 'empty')) return false;
    if (s.kind !== 'result') {
      stopped = stopOnFail;
      return true;
    }
    return own[i] === true;
  });
}

interface Reading {
  ctx: CallContext;
  orders: readonly LimitOrderInput[];
  slots: readonly Slot[];
  /** The results carrying each clientOrderId, in reply order (read once for all items). */
  byCid: ReadonlyMap<string, readonly VenueOrder[]>;
  /** `ownResults` of the slots. */
  own: readonly boolean[];
  /** Whether any slot is garbled (only then can an unreadable result claim an order). */
  garbled: boolean;
  aligned: boolean;
  stopOnFail: boolean;
}

function resultsByCid(slots: readonly Slot[]): Map<string, VenueOrder[]> {
  const out = new Map<string, VenueOrder[]>();
  for (const s of slots) {
    if (s.kind !== 'result') continue;
    const list = out.get(s.order.clientOrderId);
    if (list === undefined) out.set(s.order.clientOrderId, [s.order]);
    else list.push(s.order);
  }
  return out;
}

/** The results carrying this order's clientOrderId (by position, for an order without one). */
function resultsFor(r: Reading, i: number): readonly VenueOrder[] {
  const o = r.orders[i]!;
  const own = r.slots[i]!;
  const cid = cidOf(o);
  if (cid === '') return r.aligned && own.kind === 'result' ? [own.order] : [];
  return r.byCid.get(cid) ?? [];
}

/** An unreadable result that still carries this clientOrderId: it may be this order's placement. */
function garbledClaim(r: Reading, cid: string): BadResponseError | undefined {
  if (cid === '' || !r.garbled) return undefined;
  const slot = r.slots.find((s) => s.kind === 'garbled' && s.claims === cid);
  return slot?.kind === 'garbled' ? slot.cause : undefined;
}

/** An item whose outcome only its position can tell (no result carries its clientOrderId). */
function byPosition(r: Reading, i: number): BulkItemResult | BotError {
  const o = r.orders[i]!;
  const own = r.slots[i]!;
  if (own.kind === 'garbled') return own.cause;
  if (!r.aligned) return new BadResponseError(r.ctx.endpoint, '(root)', 'items do not line up with the request (missing, extra, reordered or foreign results)');
  if (own.kind === 'error') {
    const error = refusalError({ ...r.ctx, rpiIoc: o.rpi === true && o.ioc === true }, null, own.body);
    return { status: 'rejected', clientOrderId: cidOf(o), error };
  }
  const earlierFailure = r.slots.slice(0, i).some((s) => s.kind === 'error');
  if (r.stopOnFail && earlierFailure) return stoppedItems([o], new BatchStoppedError('the venue stopped the batch (stopOnFail)', {}))[0]!;
  return new BadResponseError(r.ctx.endpoint, `[${i}]`, r.stopOnFail ? 'missing, and no earlier item failed' : 'neither result nor error');
}

/** `isOrderOf` of the order at `i` and `v`, as compared once already when `v` is the result at `i`. */
function isOwn(r: Reading, i: number, v: VenueOrder): boolean {
  const own = r.slots[i]!;
  return own.kind === 'result' && own.order === v ? r.own[i] === true : isOrderOf(r.orders[i]!, v);
}

function decide(r: Reading, i: number): BulkItemResult | BotError {
  const o = r.orders[i]!;
  const cid = cidOf(o);
  // An unreadable result carrying this clientOrderId may be this order's placement.
  const claim = garbledClaim(r, cid);
  if (claim !== undefined) return claim;
  const results = resultsFor(r, i);
  if (results.length === 0) return byPosition(r, i);
  const only = results.length === 1 ? results[0]! : undefined;
  if (only !== undefined && isOwn(r, i, only)) return { status: 'placed', clientOrderId: cid, order: only };
  return new BadResponseError(r.ctx.endpoint, '(root)', 'the result carrying this clientOrderId is duplicated or not this order');
}

function outcome(r: Reading, i: number, ambiguous: Ambiguous): BulkItemResult {
  const out = decide(r, i);
  const cid = cidOf(r.orders[i]!);
  return out instanceof BotError ? { status: 'unknown', clientOrderId: cid, error: ambiguous(out, cid === '' ? [] : [cid]) } : out;
}

function firstFailure(items: readonly BulkItemResult[]): BotError | undefined {
  const failed = items.find((it): it is Exclude<BulkItemResult, { status: 'placed' }> => it.status !== 'placed');
  if (failed === undefined) return undefined;
  const cause = failed.status === 'unknown' ? failed.error.cause : undefined;
  return cause instanceof BotError ? cause : failed.error;
}

/**
 * Per-item outcomes of one chunk's reply. `reply` is the parsed JSON (already a 2xx).
 * Returns the items and the first failure among them (for `stopOnFail`).
 */
export function chunkReply(
  ctx: CallContext,
  orders: readonly LimitOrderInput[],
  reply: unknown,
  stopOnFail: boolean,
  ambiguous: Ambiguous,
): { items: BulkItemResult[]; failed: BotError | undefined } {
  if (!Array.isArray(reply) || reply.length > orders.length) {
    const cause = new BadResponseError(ctx.endpoint, '(root)', `expected an array of at most ${orders.length} items`);
    return { items: chunkFailed(orders, ambiguous(cause, namedCids(orders))), failed: cause };
  }
  const slots = orders.map((_, i) => readSlot(ctx.endpoint, reply, i));
  return slotOutcomes(ctx, orders, { slots, length: reply.length }, stopOnFail, ambiguous);
}

/**
 * Per-item outcomes of a reply already read into slots, one per order, and `length` items long
 * (`chunkReply` after reading; the in-process venue hands the client's model of each item: no
 * wire text built and read back). Every check of a read reply is made the same.
 */
export function slotOutcomes(
  ctx: CallContext,
  orders: readonly LimitOrderInput[],
  reply: { slots: readonly Slot[]; length: number },
  stopOnFail: boolean,
  ambiguous: Ambiguous,
): { items: BulkItemResult[]; failed: BotError | undefined } {
  const items = stopOnFail || reply.length !== orders.length ? undefined : plainOutcomes(ctx, orders, reply.slots);
  if (items !== undefined) return { items, failed: firstFailure(items) };
  return checkedOutcomes(ctx, orders, reply, stopOnFail, ambiguous);
}

/**
 * The outcomes of the usual reply, decided as `checkedOutcomes` decides them, or undefined when
 * the reply is not one: a full-length reply without `stopOnFail` whose items are each a result or
 * an error, to orders with distinct clientOrderIds, each result its own order's. Then each result
 * is the one carrying its order's clientOrderId (the others carry theirs), so it is placed; and
 * the reply lines up, so each error is its order's refusal.
 */
function plainOutcomes(ctx: CallContext, orders: readonly LimitOrderInput[], slots: readonly Slot[]): BulkItemResult[] | undefined {
  if (!distinctCids(orders)) return undefined;
  const items: BulkItemResult[] = [];
  for (let i = 0; i < orders.length; i++) {
    const o = orders[i]!;
    const s = slots[i]!;
    if (s.kind === 'result' && isOrderOf(o, s.order)) items.push({ status: 'placed', clientOrderId: cidOf(o), order: s.order });
    else if (s.kind === 'error') items.push({ status: 'rejected', clientOrderId: cidOf(o), error: refusalError({ ...ctx, rpiIoc: o.rpi === true && o.ioc === true }, null, s.body) });
    else return undefined;
  }
  return items;
}

/** Every order has a clientOrderId and no two the same. */
function distinctCids(orders: readonly LimitOrderInput[]): boolean {
  if (orders.length === 1) return cidOf(orders[0]!) !== '';
  const seen = new Set<string>();
  for (const o of orders) {
    const cid = cidOf(o);
    if (cid === '' || seen.has(cid)) return false;
    seen.add(cid);
  }
  return true;
}

/** `slotOutcomes` with every check made on every reply (exported for the test that holds the two equal). */
export function checkedOutcomes(
  ctx: CallContext,
  orders: readonly LimitOrderInput[],
  reply: { slots: readonly Slot[]; length: number },
  stopOnFail: boolean,
  ambiguous: Ambiguous,
): { items: BulkItemResult[]; failed: BotError | undefined } {
  const { slots } = reply;
  const own = ownResults(orders, slots);
  const garbled = slots.some((s) => s.kind === 'garbled');
  const aligned = linesUp(orders, slots, own, reply.length, stopOnFail);
  const reading: Reading = { ctx, orders, slots, byCid: resultsByCid(slots), own, garbled, aligned, stopOnFail };
  const items = orders.map((_, i) => outcome(reading, i, ambiguous));
  return { items, failed: firstFailure(items) };
}
