/**
 * What the fills kernel is given for one batch of deals (kernels/fills.ts): the stored deals
 * left out, and the orders and protective legs the others can name, read from the store.
 *
 * A deal that carries our clientOrderId is looked up by it first: when that order already holds
 * the deal's venue orderId, it is also the order a look-up by orderId finds (`order_id` is
 * UNIQUE), so that second look-up is not made. It is the one that costs a query (with the
 * pending order rows written first) for an order no longer live, such as one filled at once at
 * placement; the usual deal of a resting order saves a map look-up and a view.
 */
import type { Fill } from '../model/fills.js';
import type { ChildRecord } from '../model/conditional.js';
import type { OrderRecord } from '../model/journal.js';
import type { Store } from '../store/index.js';
import { ordersNameAll, type FillsKernelInput, type LegView, type OrderView } from './kernels/fills.js';

/** The kernel's input and the deals it has to match (those not stored yet, in the batch's order). */
export interface BatchInput {
  input: FillsKernelInput;
  fresh: readonly Fill[];
}

/** An order as the fills kernel reads it. */
export function kernelOrderView(o: OrderRecord): OrderView {
  return {
    clientOrderId: o.clientOrderId,
    strategyId: o.strategyId,
    orderId: o.orderId,
    market: o.market,
    side: o.side,
    amount: o.amount,
    filledBase: o.filledBase,
    state: o.state,
  };
}

function legView(store: Store, c: ChildRecord): LegView | undefined {
  const parent = store.orders.get(c.parentClientOrderId);
  if (parent === undefined) return undefined;
  return {
    childId: c.id,
    kind: c.kind,
    parentClientOrderId: c.parentClientOrderId,
    strategyId: c.strategyId,
    market: parent.market,
    side: parent.side === 'buy' ? 'sell' : 'buy',
    price: c.price,
    orderId: c.orderId,
    parentFilled: parent.filledBase,
    parentPrice: parent.price,
  };
}

/**
 * Unsettled legs, plus settled legs the batch's deals name by orderId: a leg that filled
 * partly in an earlier scan goes on filling, and those later deals are still the leg's.
 */
function legs(store: Store, deals: readonly Fill[]): LegView[] {
  const children = new Map(store.children.live().map((c) => [c.id, c]));
  // Legs carry no clientOrderId; deals with one belong to orders, not legs.
  for (const orderId of new Set(deals.filter((d) => d.clientOrderId === '').map((d) => d.orderId))) {
    const c = store.children.byOrderId(orderId);
    if (c !== undefined) children.set(c.id, c);
  }
  return [...children.values()].flatMap((c) => legView(store, c) ?? []);
}

/** The orders the fresh deals name, by venue orderId and by clientOrderId. */
function namedOrders(store: Store, fresh: readonly Fill[]): Pick<FillsKernelInput, 'ordersByOrderId' | 'ordersByClientId'> {
  const byOrderId = new Map<number, OrderView>();
  const byCid = new Map<string, OrderView>();
  for (const d of fresh) {
    const o = d.clientOrderId === '' || byCid.has(d.clientOrderId) ? undefined : store.orders.get(d.clientOrderId);
    if (o !== undefined) {
      const v = kernelOrderView(o);
      byCid.set(d.clientOrderId, v);
      // The order with this orderId, whichever way it is read (one order per venue id).
      if (o.orderId === d.orderId && !byOrderId.has(d.orderId)) byOrderId.set(d.orderId, v);
    }
    if (!byOrderId.has(d.orderId)) {
      const o = store.orders.getByOrderId(d.orderId);
      if (o !== undefined) byOrderId.set(d.orderId, kernelOrderView(o));
    }
  }
  return { ordersByOrderId: byOrderId, ordersByClientId: byCid };
}

/**
 * Kernel input limited to the orders the batch can touch. The kernel skips deals already
 * stored before it looks anything up, so only the others name orders and legs; a batch of
 * stored deals only (a scan's overlap) needs no input at all.
 */
export function batchInput(store: Store, deals: readonly Fill[]): BatchInput | undefined {
  const knownDealIds = store.fills.existing(deals.map((d) => d.dealId));
  const fresh = knownDealIds.size === 0 ? deals : deals.filter((d) => !knownDealIds.has(d.dealId));
  if (fresh.length === 0) return undefined;
  const { ordersByOrderId, ordersByClientId } = namedOrders(store, fresh);
  // Legs are read only when a deal might be a leg's (the usual batch is fills of our orders).
  const legViews = ordersNameAll(ordersByOrderId, ordersByClientId, fresh) ? [] : legs(store, fresh);
  return { input: { ordersByOrderId, ordersByClientId, legs: legViews, knownDealIds }, fresh };
}
