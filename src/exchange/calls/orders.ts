/**
 * The order writes: bulk limit orders, a collateral limit order, a cancel. Each is sent once
 * (request-paths.ts) and its reply counts as the order's only when it is about that order
 * (../reply-match.ts, ../bulk/reply.ts).
 */
import { AmbiguousOutcomeError, BadResponseError, BotError, errorMessage } from '../../core/errors.js';
import type { BulkItemResult, BulkOptions, CancelRequest, VenueOrder } from '../../model/venue-orders.js';
import { chunkFailed, stoppedItems, stopsEverything } from '../bulk/outcomes.js';
import { chunkReply } from '../bulk/reply.js';
import { bulkChunks } from '../bulk/request.js';
import type { EndpointName } from '../endpoints.js';
import { parseOrder } from '../parse.js';
import { mismatchedField, placementIdentity, type OrderIdentity } from '../reply-match.js';
import { collateralBody, namedCids, orderItem, type CollateralOrderInput, type LimitOrderInput } from '../requests.js';
import { validateCancel, validateCollateral } from '../validate.js';
import { ctxOf, type RequestPaths } from './request-paths.js';

/** A write's reply order, which must be the order the write was about (reply-match.ts). */
function orderReply(endpoint: EndpointName, json: unknown, want: OrderIdentity): VenueOrder {
  const order = parseOrder(endpoint, json);
  const field = mismatchedField(order, want);
  if (field !== undefined) throw new BadResponseError(endpoint, field, 'the reply is about another order than the one requested');
  return order;
}

interface ChunkOutcome {
  items: BulkItemResult[];
  failed: BotError | undefined;
  /** Set when the request itself failed in a way no later chunk would survive (`stopsEverything`). */
  stopsAll?: BotError;
}

/** One chunk's request; once sending has started nothing throws: the chunk's items carry the failure. */
async function sendChunk(calls: RequestPaths, part: readonly LimitOrderInput[], stopOnFail: boolean, weight: number): Promise<ChunkOutcome> {
  const ctx = ctxOf('bulkLimitOrders');
  const ids = namedCids(part);
  const rpiIoc = part.some((o) => o.rpi === true && o.ioc === true);
  try {
    return await calls.write(
      'bulkLimitOrders',
      { orders: part.map(orderItem), stopOnFail },
      { ...ctx, rpiIoc },
      ids,
      (json) =>
        chunkReply(ctx, part, json, stopOnFail, (cause, cids) =>
          new AmbiguousOutcomeError('bulkLimitOrders', cids, `bulkLimitOrders: outcome unknown (${cause.message})`, { cause }),
        ),
      weight,
    );
  } catch (err) {
    // An unexpected (non-BotError) failure may have happened after sending: treat it as unknown.
    const botErr =
      err instanceof BotError
        ? err
        : new AmbiguousOutcomeError('bulkLimitOrders', ids, `bulkLimitOrders: outcome unknown (${errorMessage(err)})`, { cause: err });
    return { items: chunkFailed(part, botErr), failed: botErr, ...(stopsEverything(botErr) ? { stopsAll: botErr } : {}) };
  }
}

/** Chunks of ≤ 20 sent in order; results keep request order. Throws only for local validation. */
export async function bulkLimitOrders(
  calls: RequestPaths,
  orders: readonly LimitOrderInput[],
  options: BulkOptions,
  weight: number,
): Promise<BulkItemResult[]> {
  const chunks = bulkChunks(orders);
  const stopOnFail = options.stopOnFail === true;
  const results: BulkItemResult[] = [];
  let stop: BotError | undefined;
  for (const part of chunks) {
    if (stop !== undefined) {
      results.push(...stoppedItems(part, stop));
      continue;
    }
    const outcome = await sendChunk(calls, part, stopOnFail, weight);
    if (outcome.stopsAll !== undefined) stop = outcome.stopsAll;
    results.push(...outcome.items);
    if (stopOnFail && outcome.failed !== undefined) stop ??= outcome.failed;
  }
  return results;
}

export async function collateralLimitOrder(calls: RequestPaths, order: CollateralOrderInput): Promise<VenueOrder> {
  validateCollateral(order);
  const fields = { ...collateralBody(order) };
  const ctx = ctxOf('collateralLimitOrder', { rpiIoc: order.rpi === true && order.ioc === true });
  const want = placementIdentity(order);
  return calls.write('collateralLimitOrder', fields, ctx, namedCids([order]), (json) => orderReply('collateralLimitOrder', json, want));
}

export async function cancelOrder(calls: RequestPaths, request: CancelRequest): Promise<VenueOrder> {
  validateCancel(request);
  const fields =
    request.orderId !== undefined
      ? { market: request.market, orderId: request.orderId }
      : { market: request.market, clientOrderId: request.clientOrderId };
  const ids = request.clientOrderId !== undefined ? [request.clientOrderId] : [];
  return calls.write('cancelOrder', fields, ctxOf('cancelOrder'), ids, (json) => orderReply('cancelOrder', json, fields));
}
