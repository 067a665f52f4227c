/**
 * The venue position of a collateral market replayed deal by deal, in deal-id order (the venue
 * issues ids in time order), one-way mode: a buy adds, a sell subtracts.
 */
import { ZERO, type Decimal } from '../../../src/core/decimal.js';
import type { VenueDeal } from '../evidence.js';

export interface ReplayStep {
  deal: VenueDeal;
  before: Decimal;
  after: Decimal;
}

export const signed = (d: Pick<VenueDeal, 'side' | 'amount'>): Decimal => (d.side === 'buy' ? d.amount : d.amount.neg());

export function replayPosition(deals: readonly VenueDeal[], market: string): ReplayStep[] {
  let pos = ZERO;
  const out: ReplayStep[] = [];
  for (const deal of [...deals].filter((d) => d.market === market).sort((a, b) => a.dealId - b.dealId)) {
    const after = pos.plus(signed(deal));
    out.push({ deal, before: pos, after });
    pos = after;
  }
  return out;
}

/** Collateral markets: the venue keeps a position there (perpetuals in this suite). */
export const isCollateralMarket = (market: string): boolean => market.endsWith('_PERP');
