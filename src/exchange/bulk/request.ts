/**
 * Building a bulk placement (docs/live-service.md §3, docs/failure-modes.md #2): the whole list is
 * validated before the first request (a refusal then costs nothing and nothing was sent), then cut
 * into requests of ≤ 20. `bulkChunks` is the one place that does both; the client's
 * `bulkLimitOrders` and the gateway's `submitInChunks` each call it once. A chunk it cut from a
 * list it validated is remembered (frozen, so it cannot change after), and a chunk handed on to
 * the client is not validated a second time: a list is validated once on its way to the venue.
 * What happens to a chunk's items: outcomes.ts; how its reply is matched to them: reply.ts.
 */
import type { BulkItemResult, LimitOrderRequest } from '../../model/venue-orders.js';
import type { LimitOrderInput } from '../requests.js';
import { validateBulk } from '../validate.js';

export const BULK_CHUNK_MAX = 20;

/** Chunks cut by `bulkChunks` from a list it validated. */
const validatedChunks = new WeakSet<readonly LimitOrderInput[]>();

/** Whether `orders` is a chunk `bulkChunks` cut from a list it validated (nothing to validate again). */
export function isValidatedChunk(orders: readonly LimitOrderInput[]): boolean {
  return validatedChunks.has(orders);
}

/**
 * Validates every order (throws `InvalidRequestError` naming the item), then splits into requests
 * of ≤ 20; a chunk it cut before is passed on as it is.
 */
export function bulkChunks<T extends LimitOrderInput>(orders: readonly T[]): (readonly T[])[] {
  if (validatedChunks.has(orders)) return [orders];
  validateBulk(orders);
  const out: (readonly T[])[] = [];
  for (let i = 0; i < orders.length; i += BULK_CHUNK_MAX) {
    const chunk = Object.freeze(orders.slice(i, i + BULK_CHUNK_MAX));
    validatedChunks.add(chunk);
    out.push(chunk);
  }
  return out;
}

/** One bulk request (the client's `bulkLimitOrders` with ≤ 20 orders). */
export type BulkSender = (orders: readonly LimitOrderRequest[]) => Promise<BulkItemResult[]>;

/**
 * Yields each request's item outcomes in request order, one request at a time: the next one
 * leaves only when the consumer asks for the next batch, so whoever journals the orders records
 * each outcome before more orders are sent.
 */
export async function* submitInChunks(send: BulkSender, orders: readonly LimitOrderRequest[]): AsyncGenerator<BulkItemResult[]> {
  for (const part of bulkChunks(orders)) yield await send(part);
}

/** `submitInChunks` over a sender that answers at once (a venue in this process): no promise per request. */
export function* submitInChunksNow(
  send: (orders: readonly LimitOrderRequest[]) => BulkItemResult[],
  orders: readonly LimitOrderRequest[],
): Generator<BulkItemResult[]> {
  for (const part of bulkChunks(orders)) yield send(part);
}
