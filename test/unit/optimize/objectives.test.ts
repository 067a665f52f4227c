import { describe, expect, it } from 'vitest';
import type { BacktestMetrics, EquityPoint } from '../../../src/backtest/result.js';
import { calmar, compareTrials, objectiveValue, profitFactor, sortino } from '../../../src/optimize/objectives.js';

const DAY = 86_400_000;
const METRICS: BacktestMetrics = {
  realisedPnl: '12', fees: '2', realisedPnlAfterFees: '10', unrealisedPnl: '0', flexEarnings: '0', netPnl: '10.5',
  orders: 4, fills: 4, trades: 2, winRate: '0.5', maxDrawdown: '0.1', exposure: '0.5', sharpeDaily: '1.23456789',
};

function curve(values: readonly string[], stepMs = DAY): EquityPoint[] {
  return values.map((equity, i) => ({ timeMs: i * stepMs, equity }));
}

describe('objectives', () => {
  it('net and sharpe are the backtest figures', () => {
    const o = { metrics: METRICS, equity: [], tradePnls: [] };
    expect(objectiveValue('net', o)).toBe('10.5');
    expect(objectiveValue('sharpe', o)).toBe('1.23456789');
    expect(objectiveValue('sharpe', { ...o, metrics: { ...METRICS, sharpeDaily: null } })).toBeNull();
  });

  it('profit factor: gross wins over gross losses, exact; null without a losing round trip', () => {
    // Wins 3.75, losses 2.
    expect(profitFactor(['3', '-1.5', '0.75', '-0.5'])).toBe('1.875');
    expect(profitFactor(['1', '-3'])).toBe('0.33333333');
    expect(profitFactor(['1', '2'])).toBeNull();
    expect(profitFactor([])).toBeNull();
  });

  it('sortino: mean daily return over the downside deviation × √365', () => {
    // Returns +10 %, −10 %, +10 %: mean 0.1/3, downside √(0.01/3), so the ratio is √(1/3) × √365 = √(365/3).
    const value = sortino(curve(['100', '110', '99', '108.9']));
    expect(value).toBe('11.03026141');
    expect(sortino(curve(['100', '101', '102']))).toBeNull(); // no losing day
    expect(sortino(curve(['100', '90']))).toBeNull(); // one return
  });

  it('calmar: return scaled to a year over the max drawdown; null without a drawdown', () => {
    // 100 → 80 → 110 over 73 days: drawdown 0.2, return 0.1 × 365/73 = 0.5.
    expect(calmar([{ timeMs: 0, equity: '100' }, { timeMs: 30 * DAY, equity: '80' }, { timeMs: 73 * DAY, equity: '110' }])).toBe('2.5');
    expect(calmar(curve(['100', '101', '102']))).toBeNull();
    expect(calmar(curve(['100']))).toBeNull();
  });

  it('ranks higher first, null last, ties by the lower trial index', () => {
    const trials = [
      { objective: null, index: 0 },
      { objective: '1.5', index: 3 },
      { objective: '2', index: 4 },
      { objective: '1.50', index: 1 },
      { objective: '-1', index: 2 },
    ];
    expect([...trials].sort(compareTrials).map((t) => t.index)).toEqual([4, 1, 3, 2, 0]);
  });
});
