/**
 * The backtest report in Debian's headless Chromium, opened from a file with no network: every
 * chart paints its series (pixels of the report's own colours, counted per chart), the fills are
 * marked on the price charts, the tables hold the result's values, the HTML smuggled in through a
 * strategy id, the config path and an order id stays text, and the page asks for nothing.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPORT_COLOURS, renderReport } from '../../../src/backtest/report/index.js';
import type { BacktestResult } from '../../../src/backtest/result.js';
import { countCanvasPixels, openBrowser, type BrowserSession, type ColourRange } from '../../support/browser.js';
import { INJECTION_STRATEGY, reportFixture } from '../../support/backtest-report-fixture.js';
import { eventually } from '../../support/eventually.js';
import { tempDir } from '../../support/temp-dir.js';

let session: BrowserSession;
const dir = tempDir('backtest-report-');
let result: BacktestResult;

/** A ±12 band around a #rrggbb colour (antialiasing shifts edge pixels). */
function near(hex: string): ColourRange {
  const c = [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16));
  const band = (v: number): [number, number] => [Math.max(0, v - 12), Math.min(255, v + 12)];
  return { r: band(c[0] as number), g: band(c[1] as number), b: band(c[2] as number) };
}

/**
 * Polled from here, not with waitForFunction: that one compiles its predicate inside the page when
 * the first check fails, and the report's policy refuses eval (a console error, on a slow run).
 */
async function drawn(): Promise<void> {
  await eventually(() => session.page.evaluate('window.reportState !== undefined && window.reportState.ready === true'), 'the report drawn', { timeoutMs: 30_000 });
}

beforeAll(async () => {
  result = reportFixture();
  const file = path.join(dir, 'report.html');
  writeFileSync(file, renderReport(result));
  session = await openBrowser();
  await session.page.goto(pathToFileURL(file).href);
  await drawn();
});

afterAll(async () => {
  await session?.close();
});

describe('backtest report in a browser', () => {
  it('draws the equity, drawdown and price charts, with no error and no request', async () => {
    const { page } = session;
    expect(await page.evaluate('window.reportState.charts')).toBe(4);
    expect(await countCanvasPixels(page, near(REPORT_COLOURS.equity), '#chart-equity')).toBeGreaterThan(300);
    expect(await countCanvasPixels(page, near(REPORT_COLOURS.drawdown), '#chart-drawdown')).toBeGreaterThan(300);
    for (const i of [0, 1]) expect(await countCanvasPixels(page, near(REPORT_COLOURS.price), `#chart-price-${i}`)).toBeGreaterThan(300);
    expect(await countCanvasPixels(page, near(REPORT_COLOURS.hold), '#chart-equity')).toBeGreaterThan(100);
    // Scoped per chart: the equity colour is not on the price charts, so the counts above are not borrowed.
    expect(await countCanvasPixels(page, near(REPORT_COLOURS.equity), '#chart-price-0')).toBe(0);
    await session.screenshot('backtest-report');
    expect(session.errors).toEqual([]);
    expect(session.offHostRequests).toEqual([]);
  });

  it('marks buy and sell fills on each market\'s price chart', async () => {
    const { page } = session;
    const perMarket = ['BTC_USDT', 'ETH_USDT'].map((m) => result.fills.filter((f) => f.market === m).length);
    expect(await page.evaluate('window.reportState.markers')).toEqual(perMarket);
    for (const i of [0, 1]) {
      expect(await countCanvasPixels(page, near(REPORT_COLOURS.buy), `#chart-price-${i}`)).toBeGreaterThan(40);
      expect(await countCanvasPixels(page, near(REPORT_COLOURS.sell), `#chart-price-${i}`)).toBeGreaterThan(40);
    }
  });

  it('lists every round trip with its values, and the summary per strategy', async () => {
    const { page } = session;
    const rows = (await page.evaluate(`[...document.querySelectorAll('#trades tbody tr')].map((r) => [...r.cells].map((c) => c.textContent))`)) as string[][];
    expect(rows).toHaveLength(result.trades.length);
    result.trades.forEach((t, i) => {
      const row = rows[i] as string[];
      expect([row[1], row[2], row[3], row[6], row[7], row[8], row[9]]).toEqual([t.strategy, t.market, t.direction, t.amount, t.entryPrice, t.exitPrice, t.pnl]);
    });
    const head = (await page.evaluate(`[...document.querySelectorAll('#summary thead th')].map((c) => c.textContent)`)) as string[];
    expect(head).toEqual(['Figure', 'Total', ...['grid-btc', INJECTION_STRATEGY].sort()]);
    const net = (await page.evaluate(`[...document.querySelectorAll('#summary tbody tr')].find((r) => r.cells[0].textContent === 'Net PnL').cells[1].textContent`)) as string;
    expect(net).toBe(result.total.netPnl);
    const fillRows = (await page.evaluate(`document.querySelectorAll('#fills tbody tr').length`)) as number;
    expect(fillRows).toBe(result.fills.length);
  });

  it('keeps HTML from the data as text: nothing runs, no element is made', async () => {
    const { page } = session;
    expect(await page.evaluate('window.pwned === undefined')).toBe(true);
    expect(await page.evaluate(`document.querySelectorAll('img').length`)).toBe(0);
    // The data element, the library and the page script: none from the data.
    expect(await page.evaluate(`document.querySelectorAll('script').length`)).toBe(3);
    const text = (await page.evaluate('document.body.textContent')) as string;
    expect(text).toContain(INJECTION_STRATEGY);
    expect(text).toContain('config/<script>window.pwned=2</script>.json');
    expect(text).toContain('</script><script>window.pwned=3</script>');
  });

  it('labels the drawdown axis with the drawdown itself: two places, its bottom at or just below the deepest point', async () => {
    const deepest = Math.min(...(await session.page.evaluate('JSON.parse(document.getElementById("report-data").textContent).drawdown.map((p) => Number(p[1]))')) as number[]);
    expect(deepest).toBeLessThan(0);
    const [top, bottom] = (await session.page.evaluate('window.reportState.drawdownScale()')) as [number, number];
    expect(await session.page.evaluate(`window.reportState.drawdownLabel(${deepest})`)).toBe(`${deepest.toFixed(2)} %`);
    expect(await session.page.evaluate('window.reportState.drawdownLabel(-0.8)')).toBe('-0.80 %');
    expect(bottom).toBeLessThanOrEqual(deepest);
    expect(bottom).toBeGreaterThan(deepest * 1.5);
    expect(top).toBeGreaterThanOrEqual(0);
  });

  it('keeps the charting library\'s attribution as a footer notice with its link, not as a logo over the chart', async () => {
    expect(await session.page.evaluate(`document.querySelectorAll('footer a[href="https://www.tradingview.com/"]').length`)).toBe(1);
    expect(await session.page.evaluate(`document.querySelectorAll('#chart-equity a[href*="tradingview.com"]').length`)).toBe(0);
  });

  // Last: it navigates the shared page away from the full report.
  it('opens a run with no fill, no trade and no price without an error', async () => {
    const empty: BacktestResult = { ...result, equity: [], prices: {}, fills: [], trades: [], strategies: {} };
    const file = path.join(dir, 'empty.html');
    writeFileSync(file, renderReport(empty));
    await session.page.goto(pathToFileURL(file).href);
    await drawn();
    expect(await session.page.evaluate('window.reportState.charts')).toBe(2);
    expect(await session.page.evaluate(`document.getElementById('no-trades').textContent`)).toBe('No round trip closed during the run.');
    expect(session.errors).toEqual([]);
    expect(session.offHostRequests).toEqual([]);
  });
});
