/**
 * Rules an intent's fields obey beyond their kinds, shared by the schema (intents.ts) and the
 * parse of plain results without it (intents-fast.ts), so the two cannot drift.
 */
import type { Decimal } from '../core/decimal.js';

/** Longest flex plan id a `closeFlex` intent may name. */
export const MAX_FLEX_PLAN_LENGTH = 64;

/** An entry's stop-loss is below the price for a buy, above it for a sell. */
export function stopLossSideOk(side: 'buy' | 'sell', price: Decimal, stopLoss: Decimal): boolean {
  return side === 'buy' ? stopLoss.lt(price) : stopLoss.gt(price);
}

/** An entry's take-profit is above the price for a buy, below it for a sell. */
export function takeProfitSideOk(side: 'buy' | 'sell', price: Decimal, takeProfit: Decimal): boolean {
  return side === 'buy' ? takeProfit.gt(price) : takeProfit.lt(price);
}
