/**
 * Every leg fill credited to its true parent: the venue knows each leg's lineage (leg → OCO →
 * OTO → parent order); the store's fill of that deal must name the same parent as its owner.
 */
import type { FillRecord } from '../../../src/model/fills.js';
import type { Evidence, VenueDeal } from '../evidence.js';
import type { Check } from './types.js';

export interface LegLineage {
  parent: string;
  kind: 'stop-loss' | 'take-profit';
}

/** Leg orderId → the parent's clientOrderId and the leg's kind, from the venue's brackets. */
export function legParents(ev: Evidence): Map<number, LegLineage> {
  const out = new Map<number, LegLineage>();
  for (const b of ev.venue.brackets) {
    if (b.stopLoss !== null) out.set(b.stopLoss.orderId, { parent: b.parentClientOrderId, kind: 'stop-loss' });
    if (b.takeProfit !== null) out.set(b.takeProfit.orderId, { parent: b.parentClientOrderId, kind: 'take-profit' });
  }
  return out;
}

export interface Misattribution {
  deal: VenueDeal;
  leg: LegLineage;
  fill: FillRecord;
}

export function misattributedLegFills(ev: Evidence): Misattribution[] {
  const legs = legParents(ev);
  const fills = new Map(ev.store.fills.map((f) => [f.dealId, f]));
  const out: Misattribution[] = [];
  for (const deal of ev.venue.deals) {
    const leg = legs.get(deal.orderId);
    const fill = fills.get(deal.dealId);
    // A missing fill is the fills check's finding; here only stored leg fills are judged.
    if (leg !== undefined && fill !== undefined && fill.ownerClientOrderId !== leg.parent) out.push({ deal, leg, fill });
  }
  return out;
}

export const legFillsToTrueParent: Check = {
  name: 'leg fills credited to their true parent',
  asserts: "each deal of an OCO leg is stored with the leg's parent (venue lineage leg → OCO → OTO → parent) as owner",
  run: (ev) =>
    misattributedLegFills(ev).map(({ deal, leg, fill }) => `deal ${deal.dealId} of the ${leg.kind} leg ${deal.orderId} of ${leg.parent} is credited to ${fill.ownerClientOrderId ?? 'nobody (external)'}`),
};
