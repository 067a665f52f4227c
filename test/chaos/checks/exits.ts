/**
 * Every exit only reduced the venue position. Exits are the collateral orders of
 * collateral-signal instances placed without a stop-loss: the strategy attaches a stop-loss to
 * every entry and never to an exit (`exit: true`, IOC). Each venue deal of an exit is judged
 * against the venue position just before it (replay in time order): it must be on the other side
 * of a non-zero position and no larger than it.
 */
import type { OrderRecord } from '../../../src/model/journal.js';
import type { Evidence } from '../evidence.js';
import { replayPosition, type ReplayStep } from './replay.js';
import type { Check } from './types.js';

export function exitOrders(ev: Evidence): OrderRecord[] {
  const instances = new Set(ev.signalInstances);
  return ev.store.orders.filter((o) => instances.has(o.strategyId) && o.kind === 'collateral' && o.stopLoss === null);
}

/** Venue orderId → the exit's store record. */
function exitsByOrderId(ev: Evidence): Map<number, OrderRecord> {
  const byCid = new Map(ev.venue.orders.map((v) => [v.clientOrderId, v.orderId]));
  const out = new Map<number, OrderRecord>();
  for (const o of exitOrders(ev)) {
    const id = o.orderId ?? byCid.get(o.clientOrderId);
    if (id !== undefined) out.set(id, o);
  }
  return out;
}

const reduces = (s: ReplayStep): boolean => !s.before.isZero() && s.before.isNeg() !== s.after.minus(s.before).isNeg() && s.deal.amount.lte(s.before.abs());

export interface GrowingExit {
  exit: OrderRecord;
  step: ReplayStep;
}

/** Exit deals that opened, grew or flipped the venue position. */
export function growingExits(ev: Evidence): GrowingExit[] {
  const exits = exitsByOrderId(ev);
  const markets = new Set(ev.venue.deals.filter((d) => exits.has(d.orderId)).map((d) => d.market));
  const out: GrowingExit[] = [];
  for (const market of markets) {
    for (const step of replayPosition(ev.venue.deals, market)) {
      const exit = exits.get(step.deal.orderId);
      if (exit !== undefined && !reduces(step)) out.push({ exit, step });
    }
  }
  return out;
}

export const exitsOnlyReduce: Check = {
  name: 'exits only reduce the position',
  asserts: 'every deal of a collateral-signal exit (its orders without a stop-loss) reduces a non-zero venue position and never flips it',
  run: (ev) =>
    growingExits(ev).map(({ exit, step: s }) => `exit ${exit.clientOrderId} deal ${s.deal.dealId}: ${s.deal.side} ${s.deal.amount.toFixed()} against a venue position of ${s.before.toFixed()} (→ ${s.after.toFixed()})`),
};
