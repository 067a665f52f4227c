/**
 * The report's fill markers from one reading of every fill (`ReportInput.fillsInOrder`, what the
 * run offers from its store) must be the markers read market by market (`marketFills`): the same
 * chart data, for any fills in time order, markets with fills but no prices among them.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chartDataOf, reportInputOf } from '../../../src/backtest/report/chart-data.js';
import type { BacktestFill, BacktestResult } from '../../../src/backtest/result.js';
import { FROM_MS, reportFixture } from '../../support/backtest-report-fixture.js';

const fillArb = fc.record({
  at: fc.integer({ min: -3_600_000, max: 4 * 86_400_000 }),
  market: fc.constantFrom('BTC_USDT', 'ETH_USDT', 'SOL_USDT'),
  side: fc.constantFrom('buy' as const, 'sell' as const),
});

describe('report markers', () => {
  it('property: one reading of every fill gives each market the markers its own reading gives', () => {
    const base = reportFixture();
    fc.assert(
      fc.property(fc.array(fillArb, { maxLength: 80 }), (raw) => {
        const fills: BacktestFill[] = raw
          .map((f, i) => ({ timeMs: FROM_MS + f.at, strategy: 's', market: f.market, side: f.side, price: '1', amount: '1', fee: '0', orderId: String(i) }))
          .sort((a, b) => a.timeMs - b.timeMs);
        const result: BacktestResult = { ...base, fills };
        const perMarket = reportInputOf(result);
        const oneReading = { ...perMarket, fillsInOrder: () => fills, marketFills: () => [] };
        const expected = chartDataOf(perMarket);
        expect(chartDataOf(oneReading)).toEqual(expected);
        expect(expected.markets.reduce((n, m) => n + m.markers.length, 0)).toBe(fills.filter((f) => f.market !== 'SOL_USDT').length);
      }),
      { numRuns: 100 },
    );
  });
});
