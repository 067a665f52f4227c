/**
 * The report's HTML without a browser: byte-identical for the same result, no resource fetched
 * from anywhere (checked by a scanner that is itself shown to catch one), escaping of every text
 * from the data, the CSP naming exactly the page's scripts, and the chart data's shape.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { Decimal } from '../../../src/core/decimal.js';
import { MAX_CHART_POINTS, chartData, holdLine } from '../../../src/backtest/report/chart-data.js';
import { renderReport } from '../../../src/backtest/report/index.js';
import { ROW_LIMIT } from '../../../src/backtest/report/tables.js';
import { maxDrawdown } from '../../../src/backtest/metrics.js';
import type { BacktestResult } from '../../../src/backtest/result.js';
import { chartLibrarySource } from '../../../src/web/chart-library.js';
import { CHART_ATTRIBUTION_HTML } from '../../../src/web/html.js';
import { INJECTION_STRATEGY, reportFixture } from '../../support/backtest-report-fixture.js';

const LIBRARY_URLS = [
  'http://www.w3.org/2000/svg', // an SVG namespace name, never fetched
  'https://www.apache.org/licenses/LICENSE-2.0', // the licence comment
  'https://www.tradingview.com/', // the attribution link (a link to follow, not a resource)
];

/** Everything in the page (the library aside) that would make a browser fetch: src/href/srcset/action/poster attributes, CSS url() and @import, absolute URLs. */
function resourceReferences(html: string): string[] {
  // The attribution's link is followed only on a click: no resource either.
  const outside = html.split(chartLibrarySource()).join('').split(CHART_ATTRIBUTION_HTML).join('');
  const found: string[] = [];
  // Attributes only inside tags: escaped text (a strategy id "&lt;img src=x") has no raw "<".
  for (const tag of outside.match(/<[a-z][^>]*>/gi) ?? []) {
    for (const m of tag.matchAll(/\s(src|href|srcset|action|poster|formaction)\s*=\s*["']?([^"'\s>]*)/gi)) {
      if (!(m[2] ?? '').startsWith('data:')) found.push(m[0]);
    }
  }
  for (const m of outside.matchAll(/url\(|@import|https?:\/\/[^\s"'<>]*/gi)) found.push(m[0]);
  return found;
}

describe('renderReport', () => {
  const result = reportFixture();
  const html = renderReport(result);

  it('is byte-identical for the same result, also after a trip through JSON', () => {
    const again = renderReport(JSON.parse(JSON.stringify(result)) as BacktestResult);
    expect(createHash('sha256').update(again).digest('hex')).toBe(createHash('sha256').update(html).digest('hex'));
    const changed = renderReport({ ...result, total: { ...result.total, orders: result.total.orders + 1 } });
    expect(changed).not.toBe(html);
  });

  it('references no resource outside the page; the library holds only its known URLs', () => {
    expect(html).toContain(chartLibrarySource());
    expect(html.split(CHART_ATTRIBUTION_HTML)).toHaveLength(2);
    expect(resourceReferences(html)).toEqual([]);
    const libraryUrls = [...new Set(chartLibrarySource().match(/https?:\/\/[^\s"'`?$]*/g))].sort();
    expect(libraryUrls).toEqual([...LIBRARY_URLS].sort());
  });

  it('the scanner catches a fetched script, stylesheet, image or CSS URL', () => {
    for (const bad of ['<script src="https://cdn.example/x.js"></script>', '<link rel="stylesheet" href="http://e.example/a.css">', '<img src=//e.example/p.png>', '<style>b{background:url(x.png)}</style>']) {
      expect(resourceReferences(html.replace('</body>', `${bad}</body>`))).not.toEqual([]);
    }
  });

  it('escapes every text from the data and keeps the embedded JSON free of "<"', () => {
    expect(html).not.toContain(INJECTION_STRATEGY);
    expect(html).toContain('&lt;img src=x onerror=&quot;window.pwned=1&quot;&gt;');
    expect(html).not.toContain('<script>window.pwned');
    const json = /<script type="application\/json" id="report-data">([^]*?)<\/script>/.exec(html)?.[1] ?? '';
    expect(json.length).toBeGreaterThan(1000);
    expect(json).not.toMatch(/[<>&]/);
    expect(JSON.parse(json)).toEqual(JSON.parse(JSON.stringify(chartData(result))));
    expect(html.match(/<script/g)).toHaveLength(3);
  });

  it('lets the CSP run exactly the page\'s inline scripts and fetch nothing', () => {
    const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/.exec(html)?.[1] ?? '';
    expect(csp).toContain("default-src 'none'");
    const scripts = [...html.matchAll(/<script(?: type="module")?>([^]*?)<\/script>/g)].map((m) => m[1] ?? '');
    expect(scripts).toHaveLength(2);
    const hashes = scripts.map((s) => `'sha256-${createHash('sha256').update(s).digest('base64')}'`);
    expect(/script-src ([^;]*)/.exec(csp)?.[1]).toBe(hashes.join(' '));
  });

  it('lists at most ROW_LIMIT fills and says where the rest are', () => {
    const fill = result.fills[1] ?? result.fills[0];
    const many = { ...result, fills: Array.from({ length: ROW_LIMIT + 7 }, (_, i) => ({ ...fill!, orderId: `x${i}` })) };
    const out = renderReport(many);
    const table = /<table id="fills">([^]*?)<\/table>/.exec(out)?.[1] ?? '';
    expect(table.match(/<tr>/g)).toHaveLength(ROW_LIMIT + 1);
    expect(out).toContain(`The first ${ROW_LIMIT} of ${ROW_LIMIT + 7} fills are listed; result.json has them all.`);
  });
});

describe('chartData', () => {
  const result = reportFixture();

  it('gives strictly rising whole-second times and puts every fill marker on a point of its market', () => {
    const data = chartData(result);
    for (const series of [data.equity, data.drawdown, ...data.markets.map((m) => m.points)]) {
      for (let i = 1; i < series.length; i++) expect((series[i]?.[0] ?? 0) > (series[i - 1]?.[0] ?? 0)).toBe(true);
    }
    data.markets.forEach((m) => {
      const times = new Set(m.points.map((p) => p[0]));
      expect(m.markers.every(([t]) => times.has(t))).toBe(true);
    });
    expect(data.markets.map((m) => m.markers.length)).toEqual([
      result.fills.filter((f) => f.market === 'BTC_USDT').length, result.fills.filter((f) => f.market === 'ETH_USDT').length,
    ]);
  });

  it('keeps the last value of a second, and snaps a fill between points to the point before it', () => {
    const r: BacktestResult = {
      ...result,
      prices: { X_USDT: [{ timeMs: 1000, price: '1' }, { timeMs: 1500, price: '2' }, { timeMs: 5000, price: '3' }] },
      fills: [{ timeMs: 4999, strategy: 's', market: 'X_USDT', side: 'sell', price: '2', amount: '1', fee: '0', orderId: 'a' },
        { timeMs: 10, strategy: 's', market: 'X_USDT', side: 'buy', price: '1', amount: '1', fee: '0', orderId: 'b' }],
    };
    const m = chartData(r).markets[0];
    expect(m?.points).toEqual([[1, '2'], [5, '3']]);
    expect(m?.markers).toEqual([[1, 'b'], [1, 's']]);
  });

  it('thins a series longer than MAX_CHART_POINTS and keeps its lowest point', () => {
    const long = Array.from({ length: 3 * MAX_CHART_POINTS }, (_, i) => ({ timeMs: i * 60_000, equity: i === 7777 ? '5' : String(1000 + (i % 13)) }));
    const data = chartData({ ...result, equity: long });
    expect(data.equity.length).toBeLessThanOrEqual(MAX_CHART_POINTS);
    expect(data.equity.some((p) => p[1] === '5')).toBe(true);
  });

  it('draws the drawdown as minus the percentage of the running peak', () => {
    const data = chartData(result);
    const deepest = Math.min(...data.drawdown.map((p) => Number(p[1])));
    expect(deepest).toBeCloseTo(-Number(maxDrawdown(result.equity).mul(100)), 3);
  });

  it('draws buy and hold beside the equity: the starting equity moved with the first market\'s price, and says the market\'s change', () => {
    const hold = holdLine(result);
    const prices = result.prices['BTC_USDT'] ?? [];
    const first = new Decimal((prices[0] as { price: string }).price);
    const last = new Decimal((prices.at(-1) as { price: string }).price);
    const e0 = new Decimal((result.equity[0] as { equity: string }).equity);
    expect(hold?.market).toBe('BTC_USDT');
    expect(hold?.points[0]?.[1]).toBe(e0.toFixed(2).replace(/\.?0+$/, ''));
    expect(hold?.points.at(-1)?.[1]).toBe(e0.mul(last).div(first).toDecimalPlaces(2).toFixed().replace(/\.?0+$/, ''));
    expect(hold?.changePct).toBe(last.div(first).minus(1).mul(100).toDecimalPlaces(2).toFixed());
    expect(renderReport(result)).toContain(`buy and hold BTC_USDT with the starting equity`);
    expect(holdLine({ ...result, equity: [] })).toBeNull();
    // A spot market before a perpetual on the same path (BTC_PERP sorts first).
    expect(holdLine({ ...result, prices: { BTC_PERP: prices, BTC_USDT: prices } })?.market).toBe('BTC_USDT');
    expect(holdLine({ ...result, prices: { BTC_PERP: prices } })?.market).toBe('BTC_PERP');
  });

  it('marks the Sharpe ratio as not meaningful under 30 days, and not over it', () => {
    const row = (r: BacktestResult): string => (renderReport(r).match(/<tr><td>Sharpe[^\n]*/) ?? [''])[0];
    const withSharpe = { ...result, total: { ...result.total, sharpeDaily: '1.23' } };
    expect(row(withSharpe)).toContain('1.23 (not meaningful: under 30 days)');
    const long = { ...withSharpe, inputs: { ...withSharpe.inputs, toMs: withSharpe.inputs.fromMs + 31 * 86_400_000 } };
    expect(row(long)).toContain('>1.23<');
    expect(row(long)).not.toContain('not meaningful');
  });
});

