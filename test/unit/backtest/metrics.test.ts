/**
 * The backtest figures against hand-computed values (docs/backtest-metrics.md), their edge cases
 * (no trade, one day, flat equity, negative equity) and bounds over random input.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { computeMetrics, dailyCloses, exposure, maxDrawdown, roundTrips, sharpeDaily, winRate } from '../../../src/backtest/metrics.js';
import type { BacktestFill, BacktestTrade, EquityPoint } from '../../../src/backtest/result.js';

const DAY = 86_400_000;
const eq = (timeMs: number, equity: string): EquityPoint => ({ timeMs, equity });
const f = (timeMs: number, side: 'buy' | 'sell', amount: string, price: string, fee: string): BacktestFill => ({
  timeMs, strategy: 's', market: 'BTC_USDT', side, amount, price, fee, orderId: `o${timeMs}`,
});

describe('computeMetrics', () => {
  it('adds up a small run by hand', () => {
    const fills = [
      f(1, 'buy', '2', '100', '0.2'),
      f(2, 'sell', '2', '110', '0.22'), // +20 gross, 19.58 after fees: a win
      f(3, 'buy', '1', '100', '0.1'),
      f(4, 'sell', '1', '90', '0.09'), // −10 gross: a loss
      f(5, 'buy', '1', '100', '0.1'), // still open: its fee is paid, its PnL unrealised
    ];
    const trades = roundTrips(fills);
    const m = computeMetrics({
      equity: [eq(0, '1000'), eq(1, '1200'), eq(2, '900'), eq(3, '1300'), eq(4, '1100')],
      fills, trades, flexEarnings: '0.5', unrealisedPnl: '5', orders: 7,
      positionSpans: [{ fromMs: 0, toMs: 10 }, { fromMs: 5, toMs: 20 }, { fromMs: 30, toMs: 40 }],
      fromMs: 0, toMs: 100,
    });
    expect(m).toEqual({
      realisedPnl: '10',
      fees: '0.71',
      realisedPnlAfterFees: '9.29',
      unrealisedPnl: '5',
      flexEarnings: '0.5',
      netPnl: '14.79',
      orders: 7,
      fills: 5,
      trades: 2,
      winRate: '0.5',
      maxDrawdown: '0.25', // 1200 → 900
      exposure: '0.3', // [0, 20] and [30, 40] of 100
      sharpeDaily: null, // all within one day
    });
  });
});

describe('winRate', () => {
  const t = (pnl: string): BacktestTrade => ({ strategy: 's', market: 'm', direction: 'long', openedMs: 0, closedMs: 1, amount: '1', entryPrice: '1', exitPrice: '1', pnl });
  it('counts only trades above zero after fees, and is null with no trade', () => {
    expect(winRate([])).toBeNull();
    expect(winRate([t('1'), t('0'), t('-1')])).toBe('0.33333333');
    expect(winRate([t('0.01'), t('2')])).toBe('1');
  });
});

describe('maxDrawdown', () => {
  it('measures the fall from the running peak, not from the start', () => {
    expect(maxDrawdown([eq(0, '100'), eq(1, '80'), eq(2, '200'), eq(3, '150'), eq(4, '190')]).toFixed()).toBe('0.25');
    expect(maxDrawdown([eq(0, '100'), eq(1, '110')]).toFixed()).toBe('0');
    expect(maxDrawdown([]).toFixed()).toBe('0');
  });
  it('caps a fall below zero at 1 and skips a peak that is not above zero', () => {
    expect(maxDrawdown([eq(0, '100'), eq(1, '-50')]).toFixed()).toBe('1');
    expect(maxDrawdown([eq(0, '0'), eq(1, '-5'), eq(2, '10'), eq(3, '5')]).toFixed()).toBe('0.5');
  });
  it('stays within [0, 1] for any series', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -1_000_000, max: 1_000_000 }), { maxLength: 50 }), (values) => {
        const dd = maxDrawdown(values.map((v, i) => eq(i, String(v))));
        expect(dd.gte(0) && dd.lte(1)).toBe(true);
      }),
    );
  });
});

describe('exposure', () => {
  it('merges overlapping spans and clips them to the run', () => {
    expect(exposure([{ fromMs: -10, toMs: 5 }, { fromMs: 2, toMs: 8 }, { fromMs: 90, toMs: 200 }], 0, 100).toFixed()).toBe('0.18');
    expect(exposure([{ fromMs: 0, toMs: 50 }, { fromMs: 10, toMs: 20 }], 0, 100).toFixed()).toBe('0.5');
    expect(exposure([{ fromMs: 0, toMs: 50 }], 10, 10).toFixed()).toBe('0');
  });
  it('stays within [0, 1] for any spans', () => {
    const span = fc.tuple(fc.integer({ min: -100, max: 1100 }), fc.integer({ min: 0, max: 500 })).map(([a, len]) => ({ fromMs: a, toMs: a + len }));
    fc.assert(
      fc.property(fc.array(span, { maxLength: 20 }), (spans) => {
        const x = exposure(spans, 0, 1000);
        expect(x.gte(0) && x.lte(1)).toBe(true);
      }),
    );
  });
});

describe('sharpeDaily', () => {
  it('takes the opening equity and each UTC day\'s last point, sample stdev, × √365', () => {
    const series = [eq(0, '100'), eq(DAY / 2, '150'), eq(DAY - 1, '110'), eq(DAY + 5, '99'), eq(2 * DAY + 7, '120'), eq(3 * DAY - 1, '108.9')];
    expect(dailyCloses(series).map((d) => d.toFixed())).toEqual(['100', '110', '99', '108.9']);
    // Returns +0.1, −0.1, +0.1: mean 1/30, sample stdev √(2/150); checked with Python's decimal.
    expect(sharpeDaily(series)).toBe('5.5151307');
    const mean = 0.1 / 3;
    const sd = Math.sqrt((2 * (0.1 - mean) ** 2 + (-0.1 - mean) ** 2) / 2);
    expect(Number(sharpeDaily(series))).toBeCloseTo((mean / sd) * Math.sqrt(365), 6);
  });
  it('is null with fewer than two returns, with no variation, or after a close at zero', () => {
    expect(sharpeDaily([])).toBeNull();
    expect(sharpeDaily([eq(0, '100'), eq(DAY, '110')])).toBeNull();
    expect(sharpeDaily([eq(0, '100'), eq(0, '110'), eq(DAY, '121'), eq(2 * DAY, '133.1')])).toBeNull();
    expect(sharpeDaily([eq(0, '100'), eq(DAY, '0'), eq(2 * DAY, '10'), eq(3 * DAY, '20')])).toBeNull();
  });
  it('is negative for a losing run', () => {
    expect(Number(sharpeDaily([eq(0, '100'), eq(DAY, '90'), eq(2 * DAY, '85'), eq(3 * DAY, '84')]))).toBeLessThan(0);
  });
});
