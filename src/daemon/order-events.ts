/**
 * The path of orders' final states to their strategy's `onOrder` (docs/strategies.md § Order
 * events). The journal records a final state in the transaction that moves the order
 * (`store.finals`); this drains what is not yet delivered onto the owning instance's lane, like a
 * fill, and marks each delivered once its hook has run. Drained at start (what a restart left
 * undelivered) and whenever the journal records one.
 */
import type { Clock } from '../core/clock.js';
import type { Scheduler } from '../engine/scheduler.js';
import type { StrategyRunner } from '../engine/strategy-runner.js';
import type { Logger } from '../observability/logger.js';
import type { OrderEventView } from '../strategy-api/host.js';
import { copiedView } from '../strategy-api/frozen-views.js';
import type { OrderFinalRecord, Store } from '../store/index.js';

export interface OrderEventRoute {
  store: Store;
  clock: Clock;
  logger: Logger;
  scheduler: Scheduler;
  runners: ReadonlyMap<string, StrategyRunner>;
  laneOf: (strategyId: string) => string;
  /** Where the journal reports a recorded final state. */
  onFinal: (listener: () => void) => void;
}

/** The event as the strategy sees it: the order as journaled now, with the recorded final state. */
function eventOf(store: Store, f: OrderFinalRecord): OrderEventView | undefined {
  const o = store.orders.get(f.clientOrderId);
  if (o === undefined) return undefined;
  // A reply may have reported more filled than the deals applied so far: the larger is the truth.
  const filled = o.reportedFilledBase.gt(o.filledBase) ? o.reportedFilledBase : o.filledBase;
  const state = f.state === 'FILLED' || f.state === 'CANCELLED' ? f.state : 'REJECTED';
  const { clientOrderId, market, side, price, amount } = o;
  // Frozen, its decimals copies, as every view a hook is handed (src/strategy-api/frozen-views.ts).
  const event: OrderEventView = { clientOrderId, market, side, price, amount, filled, state, reason: f.reason, venue: f.venue, atMs: f.atMs };
  return copiedView(event);
}

/** Wires the route and drains once; returns the drain (tests call it). */
export function routeOrderEvents(r: OrderEventRoute): () => void {
  // Queued in this process, not yet marked: a drain while the lane is busy must not queue them twice.
  const queued = new Set<string>();
  const deliver = (f: OrderFinalRecord, runner: StrategyRunner): void => {
    const mark = (): void => void r.store.finals.markDelivered(f.clientOrderId, r.clock.now());
    // Nothing to call: spent at once, without a turn on the lane (and without reading the order).
    if (!runner.hearsOrders) return mark();
    const event = eventOf(r.store, f);
    if (event === undefined) return mark();
    queued.add(f.clientOrderId);
    // One job name per instance, as for fills: the scheduler keeps a record per name.
    void r.scheduler
      .enqueue(r.laneOf(f.strategyId), `order:${f.strategyId}`, () => runner.order(event, mark))
      .catch((err: unknown) => r.logger.error({ err, clientOrderId: f.clientOrderId }, 'onOrder delivery failed'))
      .finally(() => queued.delete(f.clientOrderId));
  };
  const drain = (): void => {
    for (const f of r.store.finals.undelivered()) {
      const runner = r.runners.get(f.strategyId);
      // An instance no longer configured keeps its events until it is configured again.
      if (runner !== undefined && !queued.has(f.clientOrderId)) deliver(f, runner);
    }
  };
  // The journal may report inside a caller's transaction: read once it has committed.
  r.onFinal(() => queueMicrotask(drain));
  drain();
  return drain;
}
