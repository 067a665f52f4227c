/**
 * A strategy's order intents rounded to the market rules (amount truncated to the step, price
 * rounded to the tick by side): what the risk gate checks and what the order manager places.
 */
import { roundToTick, truncateToStep, type Decimal } from '../core/decimal.js';
import type { Side } from '../core/orders.js';
import type { PlaceCollateralIntent } from '../strategy-api/host.js';
import type { GateOrder, MarketRules, RiskSnapshot } from './risk-gate.js';
import type { CollateralOrderSpec } from './order-manager.js';

export function rules(snap: RiskSnapshot, market: string): MarketRules | undefined {
  return snap.markets[market];
}

/** Rounds an order to the market: amount truncated to step, price by side to tick. */
export function normalise<T extends { market: string; side: Side; amount: Decimal; price: Decimal }>(o: T, r: MarketRules | undefined): T {
  if (r === undefined) return o;
  return { ...o, amount: truncateToStep(o.amount, r.step), price: roundToTick(o.price, r.tick, o.side) };
}

/** A collateral intent as the gate checks it and as the order manager places it, rounded to the market. */
export function collateralOrder(intent: PlaceCollateralIntent, snap: RiskSnapshot): { gate: GateOrder; spec: CollateralOrderSpec } {
  const r = rules(snap, intent.market);
  const base = normalise(intent, r);
  // Protective legs execute on the other side: round them so they protect at least as asked.
  const legSide = intent.side === 'buy' ? 'sell' : 'buy';
  const leg = (p: Decimal | undefined): Decimal | undefined => (p === undefined || r === undefined ? p : roundToTick(p, r.tick, legSide));
  const gate: GateOrder = { market: base.market, side: base.side, amount: base.amount, price: base.price, exit: intent.exit === true };
  const spec: CollateralOrderSpec = { market: base.market, side: base.side, amount: base.amount, price: base.price };
  const sl = leg(intent.stopLoss);
  const tp = leg(intent.takeProfit);
  if (sl !== undefined) spec.stopLoss = sl;
  if (tp !== undefined) spec.takeProfit = tp;
  if (intent.postOnly !== undefined) spec.postOnly = intent.postOnly;
  if (intent.ioc !== undefined) spec.ioc = intent.ioc;
  return { gate, spec };
}
