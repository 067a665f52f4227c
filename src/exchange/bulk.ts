/**
 * Bulk placement semantics (service-notes 3, failure-modes 2): chunks of ≤ 20 sent in order,
 * every item gets its own outcome, and once sending has started nothing throws.
 */
import {
  AmbiguousOutcomeError,
  AuthError,
  BadResponseError,
  BotError,
  ConfigError,
  InvalidRequestError,
  NonceError,
  StoreError,
} from '../core/errors.js';
import type { BulkItemResult, LimitOrderRequest } from './gateway.js';
import { readErrorBody, refusalError, type CallContext } from './errors.js';
import { parseOrder } from './parse.js';

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
export function chunkFailed(orders: readonly LimitOrderRequest[], err: unknown): BulkItemResult[] {
  return orders.map((o): BulkItemResult => {
    if (err instanceof AmbiguousOutcomeError) return { status: 'unknown', clientOrderId: o.clientOrderId, error: err };
    if (err instanceof InvalidRequestError) return { status: 'rejected', clientOrderId: o.clientOrderId, error: err };
    const error = err instanceof BotError ? err : new BatchStoppedError('bulk chunk failed before sending', {});
    return { status: 'not_sent', clientOrderId: o.clientOrderId, error };
  });
}

export function stoppedItems(orders: readonly LimitOrderRequest[], cause: BotError): BulkItemResult[] {
  const error = new BatchStoppedError(`not sent: an earlier bulk item failed (${cause.code})`, { cause: cause.code });
  return orders.map((o) => ({ status: 'not_sent', clientOrderId: o.clientOrderId, error }));
}

/**
 * Per-item outcomes of one chunk's reply. `reply` is the parsed JSON (already a 2xx).
 * Returns the items and whether a failure happened (for `stopOnFail`).
 */
export function chunkReply(
  ctx: CallContext,
  orders: readonly LimitOrderRequest[],
  reply: unknown,
  stopOnFail: boolean,
  ambiguous: (cause: BotError, clientOrderIds: string[]) => AmbiguousOutcomeError,
): { items: BulkItemResult[]; failed: BotError | undefined } {
  if (!Array.isArray(reply) || reply.length > orders.length) {
    const cause = new BadResponseError(ctx.endpoint, '(root)', `expected an array of at most ${orders.length} items`);
    return { items: chunkFailed(orders, ambiguous(cause, orders.map((o) => o.clientOrderId))), failed: cause };
  }
  let failed: BotError | undefined;
  const items = orders.map((o, i): BulkItemResult => {
    const cid = o.clientOrderId;
    const item: unknown = reply[i];
    const rec = typeof item === 'object' && item !== null && !Array.isArray(item) ? (item as Record<string, unknown>) : undefined;
    const result = rec?.['result'];
    const error = rec?.['error'];
    try {
      if (result !== undefined && result !== null) {
        return { status: 'placed', clientOrderId: cid, order: parseOrder(ctx.endpoint, result, `[${i}].result`) };
      }
      if (error !== undefined && error !== null) {
        const body = readErrorBody(error);
        if (body === undefined) throw new BadResponseError(ctx.endpoint, `[${i}].error`, 'expected an error object');
        const refusal = refusalError({ ...ctx, rpiIoc: o.rpi === true && o.ioc === true }, null, body);
        failed ??= refusal;
        return { status: 'rejected', clientOrderId: cid, error: refusal };
      }
      if (item !== undefined && rec === undefined) throw new BadResponseError(ctx.endpoint, `[${i}]`, 'expected {result, error}');
      // Missing from a shorter array, or {result:null, error:null}: under stopOnFail the venue
      // stopped before this item; otherwise nothing tells what happened to it.
      if (stopOnFail) {
        failed ??= new BatchStoppedError('the venue stopped the batch (stopOnFail) without reporting a failure', {});
        return stoppedItems([o], failed)[0]!;
      }
      throw new BadResponseError(ctx.endpoint, `[${i}]`, 'neither result nor error');
    } catch (err) {
      if (!(err instanceof BadResponseError)) throw err;
      failed ??= err;
      return { status: 'unknown', clientOrderId: cid, error: ambiguous(err, [cid]) };
    }
  });
  return { items, failed };
}
