/**
 * What happens to a bulk placement's items (docs/live-service.md §3, docs/failure-modes.md #2):
 * chunks are sent in order, every item gets its own outcome, and once sending has started nothing
 * throws. How one chunk's reply is matched to its items: reply.ts.
 */
import {
  AmbiguousOutcomeError,
  AuthError,
  BotError,
  ConfigError,
  InvalidRequestError,
  NonceError,
  StoreError,
} from '../../core/errors.js';
import type { BulkItemResult } from '../../model/venue-orders.js';
import { cidOf, type LimitOrderInput } from '../requests.js';

/** An item that was not sent (or not processed) because an earlier failure stopped the batch. */
export class BatchStoppedError extends BotError {
  readonly code = 'BATCH_STOPPED';
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
