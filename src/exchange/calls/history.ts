/**
 * The history reads: the conditional listing (whose path differs live: its fallback is found
 * and remembered here, docs/live-service.md §5) and the executed history.
 */
import type { ConditionalPage } from '../../model/conditional.js';
import type { ExecutedHistoryQuery, Fill } from '../../model/fills.js';
import { classify } from '../errors.js';
import { parseConditionalPage, parseExecutedHistory } from '../parse.js';
import type { PathFallback } from '../path-fallback.js';
import { quirkOf } from '../quirks.js';
import type { ConditionalQuery } from '../requests.js';
import type { HttpResponse } from '../transport.js';
import { validateConditional, validateExecutedHistory } from '../validate.js';
import { ctxOf, defined, type RequestPaths } from './request-paths.js';

/** Internal: the conditional listing must be retried on its fallback path. */
class FallbackSignal extends Error {}

export async function conditionalOrders(calls: RequestPaths, route: PathFallback, query: ConditionalQuery): Promise<ConditionalPage> {
  validateConditional(query);
  const fields = defined({ market: query.market, offset: query.offset, limit: query.limit });
  const ctx = ctxOf('conditionalOrders');
  const parse = (res: HttpResponse): ConditionalPage => parseConditionalPage('conditionalOrders', classify(ctx, res));
  const path = route.path(calls.clock.now());
  if (path === route.fallback) return calls.read('conditionalOrders', fields, parse, () => path);
  try {
    return await calls.read('conditionalOrders', fields, (res) => {
      if (quirkOf('conditionalOrders', res) === 'conditional_path_missing') throw new FallbackSignal();
      return parse(res);
    }, () => path);
  } catch (err) {
    if (!(err instanceof FallbackSignal)) throw err;
  }
  // The live service serves the other path (docs/live-service.md §5): use it for a while.
  route.primaryMissing(calls.clock.now());
  return calls.read('conditionalOrders', fields, parse, () => route.fallback);
}

export async function executedHistory(calls: RequestPaths, query: ExecutedHistoryQuery): Promise<Fill[]> {
  validateExecutedHistory(query);
  const fields = defined({ ...query });
  const ctx = ctxOf('executedHistory');
  return calls.read('executedHistory', fields, (res) => {
    // A single-order lookup with no match is an empty list, not a failure.
    if (query.clientOrderId !== undefined && quirkOf('executedHistory', res) === 'order_history_not_found') return [];
    return parseExecutedHistory('executedHistory', classify(ctx, res), query.market);
  });
}
