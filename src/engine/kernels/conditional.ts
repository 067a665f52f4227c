/**
 * Pure kernel: the conditional listing diffed against our OTO/OCO children.
 * Venue lifecycle (simulator and live): while the parent rests, an OTO record (id = otoId) is
 * listed; when the parent ends with a filled amount, the OTO becomes an OCO of two legs on the
 * opposite side (a `stop limit` at the stop-loss, a `limit` at the take-profit) for the filled
 * amount; when one leg executes the other is cancelled and the OCO disappears. Legs carry no
 * clientOrderId: they are matched by market, side, prices and amount.
 */
import type { Decimal } from '../../core/decimal.js';
import type { ConditionalLeg, ConditionalRecord } from '../../exchange/gateway.js';
import type { OrderState } from '../../core/orders.js';
import type { ChildKind, ChildState } from '../../store/types.js';

export interface ChildView {
  childId: number;
  kind: ChildKind;
  state: ChildState;
  price: Decimal;
  orderId: number | null;
  ocoId: number | null;
  parent: {
    clientOrderId: string;
    market: string;
    side: 'buy' | 'sell';
    state: OrderState;
    otoId: number | null;
    filledBase: Decimal;
  };
}

export type ConditionalEvent =
  | { type: 'leg_active'; childId: number; orderId: number; ocoId: number }
  /** A listed stop leg reports `activated`: its trigger price was reached (the fill follows). */
  | { type: 'leg_triggered'; childId: number; parentClientOrderId: string; orderId: number }
  | { type: 'child_cancelled'; childId: number; reason: string }
  | { type: 'leg_missing'; childId: number; parentClientOrderId: string; reason: string };

const PARENT_DONE: readonly OrderState[] = ['FILLED', 'CANCELLED'];

function legMatches(leg: ConditionalLeg | undefined, c: ChildView): leg is ConditionalLeg {
  if (leg === undefined) return false;
  const side = c.parent.side === 'buy' ? 'sell' : 'buy';
  const price = c.kind === 'stop_loss' ? (leg.activationPrice ?? leg.price) : leg.price;
  return leg.market === c.parent.market && leg.side === side && price.eq(c.price);
}

/** Given the live children and the full listing of their markets, returns events. */
export function diffConditional(children: readonly ChildView[], listing: readonly ConditionalRecord[]): ConditionalEvent[] {
  const events: ConditionalEvent[] = [];
  const otoIds = new Set(listing.filter((r) => r.kind === 'oto').map((r) => r.id));
  const ocos = listing.filter((r) => r.kind === 'oco');
  const legsById = new Map(ocos.flatMap((r) => [r.stopLoss, r.takeProfit]).filter((l) => l !== undefined).map((l) => [l.orderId, l]));
  const usedOco = new Set<number>();
  const byParent = new Map<string, ChildView[]>();
  for (const c of children) byParent.set(c.parent.clientOrderId, [...(byParent.get(c.parent.clientOrderId) ?? []), c]);

  for (const group of byParent.values()) {
    const p = (group[0] as ChildView).parent;
    const stillArmed = p.otoId !== null && otoIds.has(p.otoId);
    if (stillArmed) continue; // parent resting under its OTO: fine
    if (p.state === 'CANCELLED' && p.filledBase.isZero()) {
      for (const c of group) events.push({ type: 'child_cancelled', childId: c.childId, reason: 'parent cancelled unfilled' });
      continue;
    }
    if (p.state === 'REJECTED') {
      for (const c of group) events.push({ type: 'child_cancelled', childId: c.childId, reason: 'parent rejected' });
      continue;
    }
    // Legs already known: still listed → fine; gone without a fill → missing.
    const known = group.filter((c) => c.orderId !== null);
    if (known.length > 0) {
      for (const c of known) {
        const listed = legsById.get(c.orderId as number);
        if (listed?.activated === true) {
          events.push({ type: 'leg_triggered', childId: c.childId, parentClientOrderId: p.clientOrderId, orderId: listed.orderId });
        }
        if (c.state === 'active' && listed === undefined) {
          events.push({ type: 'leg_missing', childId: c.childId, parentClientOrderId: p.clientOrderId, reason: 'leg no longer listed and no fill seen' });
        }
      }
      continue;
    }
    // Find the OCO carrying this parent's legs.
    const oco = ocos.find((r) => {
      if (usedOco.has(r.id)) return false;
      return group.every((c) => legMatches(c.kind === 'stop_loss' ? r.stopLoss : r.takeProfit, c)) &&
        (p.filledBase.isZero() || [r.stopLoss, r.takeProfit].some((l) => l?.amount.eq(p.filledBase) === true));
    });
    if (oco !== undefined) {
      usedOco.add(oco.id);
      for (const c of group) {
        // Defined: the OCO was chosen because every child's leg matched.
        const leg = (c.kind === 'stop_loss' ? oco.stopLoss : oco.takeProfit) as ConditionalLeg;
        events.push({ type: 'leg_active', childId: c.childId, orderId: leg.orderId, ocoId: oco.id });
      }
      continue;
    }
    const parentDone = PARENT_DONE.includes(p.state) && p.filledBase.gt(0);
    if (parentDone || (p.otoId !== null && (p.state === 'OPEN' || p.state === 'PARTIALLY_FILLED'))) {
      for (const c of group) {
        if (c.state !== 'missing') {
          events.push({
            type: 'leg_missing',
            childId: c.childId,
            parentClientOrderId: p.clientOrderId,
            reason: parentDone ? 'parent filled but no protective leg listed' : 'parent resting but its OTO is not listed',
          });
        }
      }
    }
  }
  return events;
}
