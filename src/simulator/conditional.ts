/**
 * OTO → OCO lifecycle of collateral orders with stopLoss / takeProfit.
 * - Placement creates an OTO record (id = otoId) while the parent rests.
 * - When the parent reaches a terminal state with a filled amount (FILLED, or an ioc/cancel after
 *   a partial fill), the OTO becomes an OCO pair for the filled amount, on the opposite side:
 *   a `stop limit` leg (activation_price = stopLoss, activation_condition gte for a buy leg, lte
 *   for a sell leg) and a `limit` take-profit leg; a one-sided bracket gets its one leg only. A
 *   parent cancelled with nothing filled just drops its OTO.
 * - Each step: an activated stop leg executes in full at the current price (taker; simplification:
 *   it behaves like a stop-market so a paper stop always protects); a take-profit leg executes in
 *   full at its price (maker) when the price crosses it. The other leg is then cancelled.
 * Legs hold no funds and ignore the step volume (documented simplifications).
 * After a jump over idle time the legs see the jumped path's lowest and highest price: a stop
 * whose trigger was crossed executes at its trigger price (the first price past it on the way);
 * when both legs were crossed, which came first is unknown and the stop wins (the cautious answer).
 */
import { Decimal } from '../core/decimal.js';
import type { Account } from './account.js';
import type { Market } from './market.js';
import { applyFill, nearReached, reached, type MatchContext } from './matching.js';
import { nearSign, type NearSpan } from './near.js';
import type { OcoRecord, PriceSpan, SimOrder } from './types.js';

/** Registers the OTO of a freshly placed parent. */
export function createOto(ctx: MatchContext, account: Account, parent: SimOrder, stopLoss?: Decimal, takeProfit?: Decimal): void {
  const otoId = ctx.nextId();
  parent.oto = { otoId, ...(stopLoss === undefined ? {} : { stopLoss }), ...(takeProfit === undefined ? {} : { takeProfit }) };
  account.changed();
  account.conditionals.set(otoId, {
    type: 'oto',
    id: otoId,
    parentOrderId: parent.orderId,
    ...(stopLoss === undefined ? {} : { stopLoss }),
    ...(takeProfit === undefined ? {} : { takeProfit }),
    active: true,
  });
}

function makeLeg(ctx: MatchContext, parent: SimOrder, ocoId: number, type: 'limit' | 'stop limit', price: Decimal, timeMs: number): SimOrder {
  const side = parent.side === 'buy' ? 'sell' : 'buy';
  const leg: SimOrder = {
    orderId: ctx.nextId(),
    clientOrderId: '',
    market: parent.market,
    side,
    type,
    kind: 'collateral',
    createdMs: timeMs,
    mtimeMs: timeMs,
    amount: parent.dealStock,
    price,
    left: parent.dealStock,
    dealStock: new Decimal(0),
    dealMoney: new Decimal(0),
    dealFee: new Decimal(0),
    postOnly: false,
    ioc: false,
    rpi: false,
    status: 'NEW',
    positionSide: parent.positionSide ?? 'BOTH',
    lockAsset: parent.lockAsset,
    locked: new Decimal(0),
    lockPerUnit: new Decimal(0),
    ocoId,
  };
  if (type === 'stop limit') {
    leg.activationPrice = price;
    leg.activationCondition = side === 'buy' ? 'gte' : 'lte';
    leg.activated = 0;
  }
  return leg;
}

/** Parent reached FILLED/CANCELLED: turn its OTO into an OCO (or drop it). */
export function onParentTerminal(ctx: MatchContext, account: Account, parent: SimOrder): void {
  if (parent.oto === undefined || parent.ocoId !== undefined) return;
  const oto = account.conditionals.get(parent.oto.otoId);
  if (oto === undefined || oto.type !== 'oto' || !oto.active) return;
  oto.active = false;
  account.changed();
  account.ended(oto);
  if (parent.dealStock.isZero()) return;
  const timeMs = parent.mtimeMs;
  const id = ctx.nextId();
  const oco: OcoRecord = { type: 'oco', id, market: parent.market, otoId: oto.id, active: true };
  if (oto.stopLoss !== undefined) {
    const leg = makeLeg(ctx, parent, id, 'stop limit', oto.stopLoss, timeMs);
    account.addOrder(leg);
    oco.stopLossOrderId = leg.orderId;
  }
  if (oto.takeProfit !== undefined) {
    const leg = makeLeg(ctx, parent, id, 'limit', oto.takeProfit, timeMs);
    account.addOrder(leg);
    oco.takeProfitOrderId = leg.orderId;
  }
  account.conditionals.set(id, oco);
}

function stopTriggered(leg: SimOrder, span: PriceSpan): boolean {
  const at = leg.activationPrice ?? leg.price;
  return leg.activationCondition === 'gte' ? span.high.gte(at) : span.low.lte(at);
}

/** Executes the leg of `rec` that the span reached (the stop first); undefined when none did. */
function executeLeg(ctx: MatchContext, account: Account, market: Market, legs: OcoLegs, span: PriceSpan, timeMs: number): SimOrder | undefined {
  const { stop, tp } = legs;
  if (stop !== undefined && stopTriggered(stop, span)) {
    stop.activated = 1;
    account.changed();
    const price = span.jumped ? (stop.activationPrice ?? stop.price) : market.price;
    applyFill(ctx, account, market, stop, stop.left, price, 2, timeMs);
    return stop;
  }
  if (tp !== undefined && reached(tp, span)) {
    applyFill(ctx, account, market, tp, tp.left, tp.price, 1, timeMs);
    return tp;
  }
  return undefined;
}

/** True when `span` executes a leg of the active OCO `rec` (executeLeg's test, nothing executed). */
export function ocoReached(account: Account, rec: OcoRecord, span: PriceSpan): boolean {
  const { stop, tp } = legsOf(account, rec);
  return (stop !== undefined && stopTriggered(stop, span)) || (tp !== undefined && reached(tp, span));
}

/** `ocoReached` told from the span's ends in doubles (near.ts); undefined when they cannot tell. */
export function ocoNearReached(account: Account, rec: OcoRecord, near: NearSpan): boolean | undefined {
  const { stop, tp } = legsOf(account, rec);
  const stopTold = stop === undefined ? false : nearTriggered(stop, near);
  if (stopTold === true) return true;
  const tpTold = tp === undefined ? false : nearReached(tp, near);
  if (tpTold === true) return true;
  return stopTold === false && tpTold === false ? false : undefined;
}

/** `stopTriggered` told from doubles: high ≥ the trigger, or low ≤ it; undefined when they cannot tell. */
function nearTriggered(leg: SimOrder, near: NearSpan): boolean | undefined {
  const at = leg.activationPrice ?? leg.price;
  const sign = leg.activationCondition === 'gte' ? nearSign(near.high, near.highErr, at) : -nearSign(near.low, near.lowErr, at);
  return sign === 0 ? undefined : sign > 0;
}

interface OcoLegs {
  stop: SimOrder | undefined;
  tp: SimOrder | undefined;
}

function legsOf(account: Account, rec: OcoRecord): OcoLegs {
  return {
    stop: rec.stopLossOrderId === undefined ? undefined : account.orders.get(rec.stopLossOrderId),
    tp: rec.takeProfitOrderId === undefined ? undefined : account.orders.get(rec.takeProfitOrderId),
  };
}

/** One step (or jump) of OCO evaluation for `market` across accounts. */
export function runOcos(ctx: MatchContext, accounts: Iterable<Account>, market: Market, span: PriceSpan, timeMs: number): void {
  for (const account of accounts) {
    // The active OCO records of this market, in the order the full listing holds them (conditional-map.ts).
    for (const rec of account.conditionals.activeOcos(market.name)) {
      const legs = legsOf(account, rec);
      const executed = executeLeg(ctx, account, market, legs, span, timeMs);
      if (executed === undefined) continue;
      rec.active = false;
      account.changed();
      cancelOtherLeg(legs, executed, timeMs);
      account.ended(rec);
    }
  }
}

/** One leg executed: the other one, still resting, is cancelled (the "one cancels other"). */
function cancelOtherLeg(legs: OcoLegs, executed: SimOrder, timeMs: number): void {
  for (const other of [legs.stop, legs.tp]) {
    if (other === undefined || other === executed || other.status !== 'NEW') continue;
    other.status = 'CANCELLED';
    other.mtimeMs = timeMs;
  }
}
