/**
 * Limit orders go out in requests of ≤ 20 (docs/live-service.md §3), one request at a time: the next one
 * leaves only when the consumer asks for the next batch of outcomes, so whoever journals the
 * orders records each outcome before more orders are sent.
 */
import { BULK_CHUNK_MAX, chunk } from './bulk.js';
import type { BulkItemResult, LimitOrderRequest } from '../model/venue-orders.js';
import { validateBulk } from './validate.js';

/** One bulk request (the client's `bulkLimitOrders` with ≤ 20 orders). */
export type BulkSender = (orders: readonly LimitOrderRequest[]) => Promise<BulkItemResult[]>;

/**
 * Validates the whole list before the first request (a refusal then costs nothing and nothing
 * was sent), then yields each request's item outcomes in request order.
 */
export async function* submitInChunks(send: BulkSender, orders: readonly LimitOrderRequest[]): AsyncGenerator<BulkItemResult[]> {
  validateBulk(orders);
  for (const part of chunk(orders, BULK_CHUNK_MAX)) yield await send(part);
}
