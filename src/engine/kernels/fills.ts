/**
 * Pure kernel: given what the store knows (our orders, protective legs, stored deal ids) and a
 * batch of venue deals, return the events to apply. No I/O; "given state, when report, then
 * events" tests drive it directly.
 *
 * Matching: by venue orderId first, then by our clientOrderId (learning the orderId), then by a
 * known protective-leg orderId, then (legs fill between two listings, and legs carry no
 * clientOrderId) by an expected leg: same market, opposite side of a filled collateral parent
 * whose legs are not settled, and no larger than the parent's filled amount (legs are sized to
 * it). Anything else is an external fill (recorded, owned by nobody).
 */
import { ZERO, type Decimal } from '../../core/decimal.js';
import type { Fill } from '../../exchange/gateway.js';
import type { OrderState } from '../../core/orders.js';
import type { ChildKind, FillRecord } from '../../store/types.js';
import { acceptsFillTransition, canTransition } from '../order-state.js';

/** The parts of an order the kernel reads. */
export interface OrderView {
  clientOrderId: string;
  strategyId: string;
  orderId: number | null;
  market: string;
  side: 'buy' | 'sell';
  amount: Decimal;
  filledBase: Decimal;
  state: OrderState;
}

/** A protective leg not yet settled, of a filled (or filling) collateral parent. */
export interface LegView {
  childId: number;
  kind: ChildKind;
  parentClientOrderId: string;
  strategyId: string;
  market: string;
  /** Side of the leg (opposite of the parent). */
  side: 'buy' | 'sell';
  price: Decimal;
  orderId: number | null;
  /** Base filled on the parent so far; a leg exists on the venue only once this is > 0. */
  parentFilled: Decimal;
}

export interface FillsKernelInput {
  ordersByOrderId: ReadonlyMap<number, OrderView>;
  ordersByClientId: ReadonlyMap<string, OrderView>;
  legs: readonly LegView[];
  knownDealIds: ReadonlySet<number>;
}

export type FillEvent =
  | { type: 'fill'; fill: FillRecord }
  | { type: 'order_id_learned'; clientOrderId: string; orderId: number }
  | { type: 'order_filled_base'; clientOrderId: string; filledBase: Decimal; to: OrderState | null }
  | { type: 'overfill'; clientOrderId: string; filledBase: Decimal; amount: Decimal }
  | { type: 'leg_filled'; childId: number; parentClientOrderId: string; orderId: number }
  | { type: 'order_id_conflict'; clientOrderId: string; known: number; seen: number; dealId: number };

function toRecord(d: Fill, strategyId: string | null, owner: string | null): FillRecord {
  return {
    dealId: d.dealId,
    orderId: d.orderId,
    clientOrderId: d.clientOrderId,
    market: d.market,
    side: d.side,
    role: d.role,
    timeMs: d.timeMs,
    amount: d.amount,
    price: d.price,
    quote: d.quote,
    fee: d.fee,
    feeAsset: d.feeAsset ?? '',
    strategyId,
    ownerClientOrderId: owner,
  };
}

/** The state an order moves to after its filled base changed (null: stays). */
export function stateAfterFills(state: OrderState, filled: Decimal, amount: Decimal): OrderState | null {
  if (filled.gte(amount)) return canTransition(state, 'FILLED') ? 'FILLED' : null;
  if (filled.gt(0) && acceptsFillTransition(state) && state !== 'PARTIALLY_FILLED' && state !== 'PENDING_CANCEL') {
    return canTransition(state, 'PARTIALLY_FILLED') ? 'PARTIALLY_FILLED' : null;
  }
  return null;
}

/** Applies deals (any order, possibly with duplicates) oldest first; returns events. */
export function applyDeals(input: FillsKernelInput, deals: readonly Fill[]): FillEvent[] {
  const events: FillEvent[] = [];
  const seen = new Set<number>();
  const byOrderId = new Map(input.ordersByOrderId);
  const filled = new Map<string, Decimal>();
  const touched: OrderView[] = [];
  const legsByOrderId = new Map<number, LegView>();
  for (const l of input.legs) if (l.orderId !== null) legsByOrderId.set(l.orderId, l);
  const openLegs = input.legs.filter((l) => l.orderId === null);

  const sorted = [...deals].sort((a, b) => a.timeMs - b.timeMs || a.dealId - b.dealId);
  for (const d of sorted) {
    if (input.knownDealIds.has(d.dealId) || seen.has(d.dealId)) continue;
    seen.add(d.dealId);
    let order = byOrderId.get(d.orderId);
    if (order === undefined && d.clientOrderId !== '') {
      const byCid = input.ordersByClientId.get(d.clientOrderId);
      if (byCid !== undefined) {
        if (byCid.orderId !== null && byCid.orderId !== d.orderId) {
          events.push({ type: 'order_id_conflict', clientOrderId: byCid.clientOrderId, known: byCid.orderId, seen: d.orderId, dealId: d.dealId });
        } else {
          order = byCid;
          if (byCid.orderId === null) {
            events.push({ type: 'order_id_learned', clientOrderId: byCid.clientOrderId, orderId: d.orderId });
            byOrderId.set(d.orderId, byCid);
          }
        }
      }
    }
    if (order !== undefined) {
      events.push({ type: 'fill', fill: toRecord(d, order.strategyId, order.clientOrderId) });
      if (!filled.has(order.clientOrderId)) touched.push(order);
      filled.set(order.clientOrderId, (filled.get(order.clientOrderId) ?? order.filledBase).plus(d.amount));
      continue;
    }
    let leg = legsByOrderId.get(d.orderId);
    if (leg === undefined && d.clientOrderId === '') {
      // Only a leg whose parent has filled (before or earlier in this batch) can have executed,
      // and a leg is sized to the parent's filled amount: a larger deal is someone else's trade.
      const i = openLegs.findIndex((l) => {
        const parentFilled = filled.get(l.parentClientOrderId) ?? l.parentFilled;
        return l.market === d.market && l.side === d.side && parentFilled.gt(0) && d.amount.lte(parentFilled);
      });
      if (i >= 0) {
        const parent = openLegs[i] as LegView;
        // Both legs of that parent are now decided. The take-profit is a plain limit order: it
        // executes at its price or better. A deal there is the take-profit; any other price is the
        // stop (a stop-limit whose limit the venue may set away from the activation price).
        const siblings = openLegs.filter((l) => l.parentClientOrderId === parent.parentClientOrderId);
        const atOrBetter = (l: LegView): boolean => (l.side === 'sell' ? d.price.gte(l.price) : d.price.lte(l.price));
        leg = siblings.find((l) => l.kind === 'take_profit' && atOrBetter(l)) ?? siblings.find((l) => l.kind === 'stop_loss') ?? parent;
        for (const s of siblings) openLegs.splice(openLegs.indexOf(s), 1);
        legsByOrderId.set(d.orderId, leg);
      }
    }
    if (leg !== undefined) {
      events.push({ type: 'fill', fill: toRecord(d, leg.strategyId, leg.parentClientOrderId) });
      events.push({ type: 'leg_filled', childId: leg.childId, parentClientOrderId: leg.parentClientOrderId, orderId: d.orderId });
      continue;
    }
    events.push({ type: 'fill', fill: toRecord(d, null, null) });
  }
  for (const o of touched) {
    const f = filled.get(o.clientOrderId) ?? ZERO;
    const to = stateAfterFills(o.state, f, o.amount);
    events.push({ type: 'order_filled_base', clientOrderId: o.clientOrderId, filledBase: f, to });
    if (f.gt(o.amount)) events.push({ type: 'overfill', clientOrderId: o.clientOrderId, filledBase: f, amount: o.amount });
  }
  return events;
}
