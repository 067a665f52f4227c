/**
 * The risk snapshot the strategy-runner tests give their runners: one BTC_USDT market, an active
 * account with room to trade, no equity reading. `minTotalQuote` as each test's orders need it.
 */
import { Decimal } from '../../src/core/decimal.js';
import type { RiskSnapshot } from '../../src/engine/risk-gate.js';

export function riskSnapshot(strategyId: string, minTotalQuote: number, over: Partial<RiskSnapshot> = {}): RiskSnapshot {
  const d = (v: string | number): Decimal => new Decimal(v);
  return {
    tradingState: 'ACTIVE',
    markets: { BTC_USDT: { tick: d('0.01'), step: d('0.001'), minAmount: d('0.001'), minTotalQuote: d(minTotalQuote), maxPositionBase: d(10), maxOpenOrders: 50 } },
    limits: { maxNotionalPerOrderQuote: d(10_000), maxDrawdownPct: d(10) },
    exposure: {},
    strategy: { id: strategyId, quarantined: false, budgetQuote: d(100_000), committedQuote: d(0), positionBase: {} },
    equity: null,
    ...over,
  };
}
