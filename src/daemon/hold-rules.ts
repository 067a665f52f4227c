/**
 * Where the hold rules of the equity rule come from (docs/equity.md, "Held by open orders").
 * Paper mode and the backtest run the simulator, whose reservation rule is known exactly: each
 * market's fee reserve (the larger of its maker and taker rates) and collateral leverage are read
 * from the simulator's own markets. A live venue publishes neither, so live mode uses the
 * simulator's defaults (documented in docs/equity.md as an estimate).
 */
import { Decimal } from '../core/decimal.js';
import { holdRulesByName, type HoldRules, type MarketHoldRule } from '../engine/order-holds.js';
import type { Market } from '../simulator/market.js';

/** The simulator's default fee rate (maker and taker) and collateral leverage (src/simulator/market.ts). */
export const LIVE_FEE_RESERVE_RATE = new Decimal('0.001');
export const LIVE_LEVERAGE = new Decimal(10);

/** The exact hold rules of the simulator's markets. */
export function simulatorHoldRules(markets: ReadonlyMap<string, Market>): HoldRules {
  const rules = new Map<string, MarketHoldRule>();
  for (const m of markets.values()) {
    rules.set(m.name, { base: m.stock, quote: m.money, feeReserveRate: Decimal.max(m.makerFee, m.takerFee), leverage: m.leverage });
  }
  return (market) => rules.get(market);
}

/** A live venue: assets from the market names (a perpetual settles in the equity asset), the simulator's default rates. */
export function liveHoldRules(equityAsset: string): HoldRules {
  return holdRulesByName(equityAsset, LIVE_FEE_RESERVE_RATE, LIVE_LEVERAGE);
}
