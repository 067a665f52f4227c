/**
 * Building a bulk placement (docs/live-service.md §3, docs/failure-modes.md #2): the whole list is
 * validated before the first request (a refusal then costs nothing and nothing was sent), then cut
 * into requests of ≤ 20. `bulkChunks` is the one place that does both; the client's
 * `bulkLimitOrders` and the gateway's `submitInChunks` each call it once. What happens to a
 * chunk's items: outcomes.ts; how its reply is matched to them: reply.ts.
 */
import type { BulkItemResult, LimitOrderRequest } from '../../model/venue-orders.js';
import type { LimitOrderInput } from '../requests.js';
import { validateBulk } from '../validate.js';

export const BULK_CHUNK_MAX = 20;

/** Validates every order (throws `InvalidRequestError` naming the item), then splits into requests of ≤ 20. */
export function bulkChunks<T extends LimitOrderInput>(orders: readonly T[]): T[][] {
  validateBulk(orders);
  const out: T[][] = [];
  for (let i = 0; i < orders.length; i += BULK_CHUNK_MAX) out.push(orders.slice(i, i + BULK_CHUNK_MAX));
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
