/**
 * The report's fill markers come from one reading of every fill (`ReportInput.fillsInOrder`): each
 * market's markers must be that market's fills in time order (fills of one time in the result's
 * order), each at the last point of the market's line at or before the fill's second (the first
 * point before them all), with its side; a market without a price line gets none. A result held in
 * memory gives the same chart data whatever order its fills are listed in.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chartDataOf, marketNames, reportInputOf } from '../../../src/backtest/report/chart-data.js';
import type { BacktestFill, BacktestResult } from '../../../src/backtest/result.js';
import { FROM_MS, reportFixture } from '../../support/backtest-report-fixture.js';

const fillArb = fc.record({
  at: fc.integer({ min: -3_600_000, max: 4 * 86_400_000 }),
  market: fc.constantFrom('BTC_USDT', 'ETH_USDT', 'SOL_USDT'),
  side: fc.constantFrom('buy' as const, 'sell' as const),
});

/** The marker a fill gets on a line, found by a plain scan. */
function expectedMarker(points: readonly (readonly [number, string])[], f: BacktestFill): [number, string] {
  const t = Math.floor(f.timeMs / 1000);
  let at = (points[0] as readonly [number, string])[0];
  for (const p of points) if (p[0] <= t) at = p[0];
  return [at, f.side === 'buy' ? 'b' : 's'];
}

describe('report markers', () => {
  it('property: one reading of every fill gives each market its own fills, in time order, at its line', () => {
    const base = reportFixture();
    fc.assert(
      fc.property(fc.array(fillArb, { maxLength: 80 }), (raw) => {
        const listed: BacktestFill[] = raw.map((f, i) => ({ timeMs: FROM_MS + f.at, strategy: 's', market: f.market, side: f.side, price: '1', amount: '1', fee: '0', orderId: String(i) }));
        const fills = [...listed].sort((a, b) => a.timeMs - b.timeMs);
        const result: BacktestResult = { ...base, fills };
        const data = chartDataOf(reportInputOf(result));
        expect(chartDataOf(reportInputOf({ ...base, fills: listed }))).toEqual(data);
        marketNames(result).forEach((name, i) => {
          const points = data.markets[i]?.points ?? [];
          const own = fills.filter((f) => f.market === name);
          expect(data.markets[i]?.markers).toEqual(points.length === 0 ? [] : own.map((f) => expectedMarker(points, f)));
        });
        expect(data.markets.reduce((n, m) => n + m.markers.length, 0)).toBe(fills.filter((f) => f.market !== 'SOL_USDT').length);
      }),
      { numRuns: 100 },
    );
  });
});
