/**
 * Pure kernel: the conditional listing diffed against our OTO/OCO children.
 * Venue lifecycle (simulator and live): while the parent rests, an OTO record (id = otoId) is
 * listed; when the parent ends with a filled amount, the OTO becomes an OCO of two legs on the
 * opposite side (a `stop limit` at the stop-loss, a `limit` at the take-profit) for the filled
 * amount; when one leg executes the other is cancelled and the OCO disappears. Legs carry no
 * clientOrderId: they are matched by market, side, prices and amount.
 */
import type { Decimal } from '../../core/decimal.js';
import type {
  ChildKind,
  ChildState,
  ConditionalLeg,
  ConditionalRecord,
  OcoRecord,
} from '../../model/conditional.js';
import type { OrderState, Side } from '../../core/orders.js';

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
    side: Side;
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

/** What the listing offers, indexed once per diff. */
interface Listing {
  otoIds: Set<number>;
  ocos: OcoRecord[];
  legsById: Map<number, ConditionalLeg>;
  /** OCOs already matched to a parent in this diff. */
  usedOco: Set<number>;
}

function indexListing(listing: readonly ConditionalRecord[]): Listing {
  const ocos = listing.filter((r): r is OcoRecord => r.kind === 'oco');
  const legs = ocos.flatMap((r) => [r.stopLoss, r.takeProfit]).filter((l): l is ConditionalLeg => l !== undefined);
  return {
    otoIds: new Set(listing.filter((r) => r.kind === 'oto').map((r) => r.id)),
    ocos,
    legsById: new Map(legs.map((l) => [l.orderId, l])),
    usedOco: new Set(),
  };
}

type Parent = ChildView['parent'];

/** Children of a parent that ended without a fill, or was refused, are cancelled with it. */
function endedUnfilled(group: readonly ChildView[], p: Parent): ConditionalEvent[] | undefined {
  const reason = p.state === 'REJECTED' ? 'parent rejected' : p.state === 'CANCELLED' && p.filledBase.isZero() ? 'parent cancelled unfilled' : null;
  return reason === null ? undefined : group.map((c) => ({ type: 'child_cancelled', childId: c.childId, reason }));
}

/** Legs whose venue id we know: still listed (maybe triggered), or gone without a fill. */
function knownLegEvents(known: readonly ChildView[], p: Parent, l: Listing): ConditionalEvent[] {
  return known.flatMap((c): ConditionalEvent[] => {
    const listed = l.legsById.get(c.orderId as number);
    if (listed?.activated === true) return [{ type: 'leg_triggered', childId: c.childId, parentClientOrderId: p.clientOrderId, orderId: listed.orderId }];
    if (c.state === 'active' && listed === undefined) {
      return [{ type: 'leg_missing', childId: c.childId, parentClientOrderId: p.clientOrderId, reason: 'leg no longer listed and no fill seen' }];
    }
    return [];
  });
}

/** The OCO carrying this parent's legs: every leg matches, sized to the parent's fill. */
function findOco(group: readonly ChildView[], p: Parent, l: Listing): OcoRecord | undefined {
  return l.ocos.find((r) => {
    if (l.usedOco.has(r.id)) return false;
    const legsMatch = group.every((c) => legMatches(c.kind === 'stop_loss' ? r.stopLoss : r.takeProfit, c));
    return legsMatch && (p.filledBase.isZero() || [r.stopLoss, r.takeProfit].some((x) => x?.amount.eq(p.filledBase) === true));
  });
}

function activate(group: readonly ChildView[], oco: OcoRecord): ConditionalEvent[] {
  return group.map((c) => {
    // Defined: the OCO was chosen because every child's leg matched.
    const leg = (c.kind === 'stop_loss' ? oco.stopLoss : oco.takeProfit) as ConditionalLeg;
    return { type: 'leg_active', childId: c.childId, orderId: leg.orderId, ocoId: oco.id };
  });
}

/** A filled parent with no listed leg, or a resting parent whose OTO is not listed. */
function unlistedEvents(group: readonly ChildView[], p: Parent): ConditionalEvent[] {
  const parentDone = PARENT_DONE.includes(p.state) && p.filledBase.gt(0);
  const resting = p.otoId !== null && (p.state === 'OPEN' || p.state === 'PARTIALLY_FILLED');
  if (!parentDone && !resting) return [];
  const reason = parentDone ? 'parent filled but no protective leg listed' : 'parent resting but its OTO is not listed';
  return group.filter((c) => c.state !== 'missing').map((c) => ({ type: 'leg_missing', childId: c.childId, parentClientOrderId: p.clientOrderId, reason }));
}

function diffParent(group: readonly ChildView[], l: Listing): ConditionalEvent[] {
  const p = (group[0] as ChildView).parent;
  if (p.otoId !== null && l.otoIds.has(p.otoId)) return []; // parent resting under its OTO: fine
  const ended = endedUnfilled(group, p);
  if (ended !== undefined) return ended;
  const known = group.filter((c) => c.orderId !== null);
  if (known.length > 0) return knownLegEvents(known, p, l);
  const oco = findOco(group, p, l);
  if (oco === undefined) return unlistedEvents(group, p);
  l.usedOco.add(oco.id);
  return activate(group, oco);
}

/** Given the live children and the full listing of their markets, returns events. */
export function diffConditional(children: readonly ChildView[], listing: readonly ConditionalRecord[]): ConditionalEvent[] {
  const l = indexListing(listing);
  const byParent = new Map<string, ChildView[]>();
  for (const c of children) byParent.set(c.parent.clientOrderId, [...(byParent.get(c.parent.clientOrderId) ?? []), c]);
  return [...byParent.values()].flatMap((group) => diffParent(group, l));
}
