/**
 * Pure kernel: given what the store knows (our orders, protective legs, stored deal ids) and a
 * batch of venue deals, return the events to apply. No I/O; "given state, when report, then
 * events" tests drive it directly.
 *
 * Matching: by venue orderId first, then by our clientOrderId (learning the orderId), then by a
 * known protective-leg orderId, then (legs fill between two listings, and legs carry no
 * clientOrderId) by the one leg that could have made it: same market, opposite side of a filled
 * collateral parent whose legs are not settled, no larger than the parent's filled amount (legs
 * are sized to it), and at a price that leg executes at. A deal several parents' legs could have
 * made is held as unattributed and raised; anything else is an external fill (owned by nobody).
 */
import { ZERO, type Decimal } from '../../core/decimal.js';
import type { Fill, FillRecord } from '../../model/fills.js';
import type { OrderState, Side } from '../../core/orders.js';
import type { ChildKind } from '../../model/conditional.js';
import { acceptsFillTransition, canTransition } from '../order-state.js';

/** The parts of an order the kernel reads. */
export interface OrderView {
  clientOrderId: string;
  strategyId: string;
  orderId: number | null;
  market: string;
  side: Side;
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
  side: Side;
  price: Decimal;
  orderId: number | null;
  /** Base filled on the parent so far; a leg exists on the venue only once this is > 0. */
  parentFilled: Decimal;
  /** The parent's limit price: a stop-loss executes beyond it, at a loss. */
  parentPrice: Decimal;
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
  | { type: 'order_id_conflict'; clientOrderId: string; known: number; seen: number; dealId: number }
  /** A deal that more than one parent's protective leg could have made: recorded, owned by no parent. */
  | { type: 'leg_fill_unattributed'; dealId: number; parents: string[] };

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

/** What one batch learned so far: ids, filled amounts, legs settled. Mutated while deals are matched. */
class Batch {
  readonly byOrderId: Map<number, OrderView>;
  readonly filled = new Map<string, Decimal>();
  readonly touched: OrderView[] = [];
  readonly legsByOrderId = new Map<number, LegView>();
  readonly openLegs: LegView[];

  constructor(readonly input: FillsKernelInput) {
    this.byOrderId = new Map(input.ordersByOrderId);
    for (const l of input.legs) if (l.orderId !== null) this.legsByOrderId.set(l.orderId, l);
    this.openLegs = input.legs.filter((l) => l.orderId === null);
  }

  addFilled(o: OrderView, amount: Decimal): void {
    if (!this.filled.has(o.clientOrderId)) this.touched.push(o);
    this.filled.set(o.clientOrderId, this.filledOf(o.clientOrderId, o.filledBase).plus(amount));
  }

  filledOf(clientOrderId: string, stored: Decimal): Decimal {
    return this.filled.get(clientOrderId) ?? stored;
  }

  /** A leg's parent is decided: its other legs can no longer execute. */
  settleParent(parentClientOrderId: string): void {
    for (let i = this.openLegs.length - 1; i >= 0; i--) {
      if (this.openLegs[i]?.parentClientOrderId === parentClientOrderId) this.openLegs.splice(i, 1);
    }
  }
}

/** Our order named by the deal: by venue orderId, else by clientOrderId (learning the orderId). */
function matchOrder(b: Batch, d: Fill, events: FillEvent[]): OrderView | undefined {
  const byId = b.byOrderId.get(d.orderId);
  if (byId !== undefined || d.clientOrderId === '') return byId;
  const byCid = b.input.ordersByClientId.get(d.clientOrderId);
  if (byCid === undefined) return undefined;
  if (byCid.orderId !== null && byCid.orderId !== d.orderId) {
    events.push({ type: 'order_id_conflict', clientOrderId: byCid.clientOrderId, known: byCid.orderId, seen: d.orderId, dealId: d.dealId });
    return undefined;
  }
  if (byCid.orderId === null) {
    events.push({ type: 'order_id_learned', clientOrderId: byCid.clientOrderId, orderId: d.orderId });
    b.byOrderId.set(d.orderId, byCid);
  }
  return byCid;
}

/**
 * Whether every deal is named by one of these orders the way matchOrder finds it (a known
 * orderId, or a clientOrderId whose order has no other orderId): then no deal is looked up among
 * the legs, and the kernel's answer is the same with or without them. False when unsure.
 */
export function ordersNameAll(
  byOrderId: ReadonlyMap<number, OrderView>,
  byClientId: ReadonlyMap<string, OrderView>,
  deals: readonly Fill[],
): boolean {
  return deals.every((d) => {
    if (byOrderId.has(d.orderId)) return true;
    const o = d.clientOrderId === '' ? undefined : byClientId.get(d.clientOrderId);
    return o !== undefined && (o.orderId === null || o.orderId === d.orderId);
  });
}

/**
 * Could this leg have made this deal? A take-profit is a plain limit order: it executes at its
 * price or better. A stop-loss executes at a loss: below the parent's price for a long (sell
 * leg), above it for a short. The two regions do not overlap, so a price names one leg of a
 * parent. Legs are sized to the parent's filled amount, so a larger deal is not the leg's.
 */
function plausibleLeg(b: Batch, l: LegView, d: Fill): boolean {
  const parentFilled = b.filledOf(l.parentClientOrderId, l.parentFilled);
  if (l.market !== d.market || l.side !== d.side || parentFilled.lte(0) || d.amount.gt(parentFilled)) return false;
  const sell = l.side === 'sell';
  if (l.kind === 'take_profit') return sell ? d.price.gte(l.price) : d.price.lte(l.price);
  return sell ? d.price.lt(l.parentPrice) : d.price.gt(l.parentPrice);
}

type LegGuess = { leg: LegView } | { ambiguous: LegView[] } | undefined;

/**
 * A deal of a leg whose venue id we never learned (it executed between two listings): credited
 * to a leg only when exactly one parent's leg could have made it; several candidates are held
 * as unattributed and raised, never credited to a guess.
 */
function guessLeg(b: Batch, d: Fill): LegGuess {
  const candidates = b.openLegs.filter((l) => plausibleLeg(b, l, d));
  const parents = new Set(candidates.map((l) => l.parentClientOrderId));
  if (parents.size === 0) return undefined;
  if (parents.size > 1) return { ambiguous: candidates };
  const leg = candidates.find((l) => l.kind === 'take_profit') ?? (candidates[0] as LegView);
  b.settleParent(leg.parentClientOrderId);
  b.legsByOrderId.set(d.orderId, leg);
  return { leg };
}

function legOf(b: Batch, d: Fill): LegGuess {
  const known = b.legsByOrderId.get(d.orderId);
  if (known !== undefined) return { leg: known };
  // Legs carry no clientOrderId: a deal with one belongs to an order, not a leg.
  return d.clientOrderId === '' ? guessLeg(b, d) : undefined;
}

/** Adds the events of one deal to `events`: ours (an order or a leg), held as unattributed, or external. */
function matchDeal(b: Batch, d: Fill, events: FillEvent[]): void {
  const order = matchOrder(b, d, events);
  if (order !== undefined) {
    b.addFilled(order, d.amount);
    events.push({ type: 'fill', fill: toRecord(d, order.strategyId, order.clientOrderId) });
    return;
  }
  const guess = legOf(b, d);
  if (guess !== undefined && 'leg' in guess) {
    const { leg } = guess;
    events.push({ type: 'fill', fill: toRecord(d, leg.strategyId, leg.parentClientOrderId) });
    events.push({ type: 'leg_filled', childId: leg.childId, parentClientOrderId: leg.parentClientOrderId, orderId: d.orderId });
    return;
  }
  if (guess !== undefined) {
    // The position stays right when every candidate is one strategy's: the fill is its, owned by no parent.
    const strategies = new Set(guess.ambiguous.map((l) => l.strategyId));
    const strategyId = strategies.size === 1 ? (guess.ambiguous[0] as LegView).strategyId : null;
    const parents = [...new Set(guess.ambiguous.map((l) => l.parentClientOrderId))];
    events.push({ type: 'fill', fill: toRecord(d, strategyId, null) }, { type: 'leg_fill_unattributed', dealId: d.dealId, parents });
    return;
  }
  events.push({ type: 'fill', fill: toRecord(d, null, null) });
}

/** Adds each touched order's new filled amount, state, and an overfill alarm to `events`. */
function foldFilled(b: Batch, events: FillEvent[]): void {
  for (const o of b.touched) {
    const f = b.filled.get(o.clientOrderId) ?? ZERO;
    events.push({ type: 'order_filled_base', clientOrderId: o.clientOrderId, filledBase: f, to: stateAfterFills(o.state, f, o.amount) });
    if (f.gt(o.amount)) events.push({ type: 'overfill', clientOrderId: o.clientOrderId, filledBase: f, amount: o.amount });
  }
}

const oldestFirst = (x: Fill, y: Fill): number => x.timeMs - y.timeMs || x.dealId - y.dealId;

/** Applies deals (any order, possibly with duplicates) oldest first; returns events. */
export function applyDeals(input: FillsKernelInput, deals: readonly Fill[]): FillEvent[] {
  const b = new Batch(input);
  const seen = new Set<number>();
  const events: FillEvent[] = [];
  // A batch of one deal (the usual one) is in order as it is.
  for (const d of deals.length < 2 ? deals : [...deals].sort(oldestFirst)) {
    if (input.knownDealIds.has(d.dealId) || seen.has(d.dealId)) continue;
    seen.add(d.dealId);
    matchDeal(b, d, events);
  }
  foldFilled(b, events);
  return events;
}
