/**
 * Bulk placement semantics (docs/live-service.md §3, docs/failure-modes.md #2): chunks of ≤ 20 sent in order,
 * every item gets its own outcome, and once sending has started nothing throws. How one chunk's
 * reply is matched to its items: bulk-reply.ts.
 */
import {
  AmbiguousOutcomeError,
  AuthError,
  BotError,
  ConfigError,
  InvalidRequestError,
  NonceError,
  StoreError,
} from '../core/errors.js';
import type { BulkItemResult } from '../model/venue-orders.js';
import { cidOf, type LimitOrderInput } from './requests.js';

export const BULK_CHUNK_MAX = 20;

/** An item that was not sent (or not processed) because an earlier failure stopped the batch. */
export class BatchStoppedError extends BotError {
  readonly code = 'BATCH_STOPPED';
}

export function chunk<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** Errors after which no later chunk is sent, whatever `stopOnFail` says: they would fail too. */
export function stopsEverything(err: unknown): boolean {
  return err instanceof AuthError || err instanceof NonceError || err instanceof ConfigError || err instanceof StoreError;
}

/** Maps the outcome of a chunk that failed as a whole (no per-item reply) to its items. */
export function chunkFailed(orders: readonly LimitOrderInput[], err: unknown): BulkItemResult[] {
  return orders.map((o): BulkItemResult => {
    const clientOrderId = cidOf(o);
    if (err instanceof AmbiguousOutcomeError) return { status: 'unknown', clientOrderId, error: err };
    if (err instanceof InvalidRequestError) return { status: 'rejected', clientOrderId, error: err };
    const error = err instanceof BotError ? err : new BatchStoppedError('bulk chunk failed before sending', {});
    return { status: 'not_sent', clientOrderId, error };
  });
}

export function stoppedItems(orders: readonly LimitOrderInput[], cause: BotError): BulkItemResult[] {
  const error = new BatchStoppedError(`not sent: an earlier bulk item failed (${cause.code})`, { cause: cause.code });
  return orders.map((o) => ({ status: 'not_sent', clientOrderId: cidOf(o), error }));
}
