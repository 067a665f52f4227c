/**
 * The venue position never beyond the limit: the deals of each collateral market replayed in
 * time order; every deal that takes |position| beyond maxPositionBase (or further beyond it) is
 * named with its order.
 */
import { Decimal } from '../../../src/core/decimal.js';
import type { Evidence } from '../evidence.js';
import { isCollateralMarket, replayPosition, type ReplayStep } from './replay.js';
import type { Check } from './types.js';

export interface LimitBreach {
  market: string;
  limit: Decimal;
  step: ReplayStep;
}

function orderName(ev: Evidence, orderId: number, clientOrderId: string): string {
  if (clientOrderId !== '') return clientOrderId;
  const b = ev.venue.brackets.find((x) => x.stopLoss?.orderId === orderId || x.takeProfit?.orderId === orderId);
  return b === undefined ? `order ${orderId}` : `leg ${orderId} of ${b.parentClientOrderId}`;
}

export function limitBreaches(ev: Evidence): LimitBreach[] {
  const out: LimitBreach[] = [];
  for (const [market, limitText] of Object.entries(ev.limits)) {
    if (!isCollateralMarket(market)) continue;
    const limit = new Decimal(limitText);
    for (const step of replayPosition(ev.venue.deals, market)) {
      if (step.after.abs().gt(limit) && step.after.abs().gt(step.before.abs())) out.push({ market, limit, step });
    }
  }
  return out;
}

export const positionWithinLimit: Check = {
  name: 'venue position within the limit',
  asserts: 'replaying the venue deals of each collateral market in time order, |position| never exceeds maxPositionBase',
  run: (ev) =>
    limitBreaches(ev).map(({ market, limit, step: { deal, before, after } }) =>
      `${market} deal ${deal.dealId} (${orderName(ev, deal.orderId, deal.clientOrderId)}, ${deal.side} ${deal.amount.toFixed()}): venue position ${before.toFixed()} → ${after.toFixed()}, limit ${limit.toFixed()}`,
    ),
};

/** Largest |position| per collateral market over the run (a figure). */
export function maxPositions(ev: Evidence): Record<string, Decimal> {
  const out: Record<string, Decimal> = {};
  for (const market of Object.keys(ev.limits).filter(isCollateralMarket)) {
    out[market] = replayPosition(ev.venue.deals, market).reduce((m, s) => Decimal.max(m, s.after.abs()), new Decimal(0));
  }
  return out;
}
