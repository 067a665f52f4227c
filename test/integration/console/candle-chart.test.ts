/**
 * The dashboard's candle charts in a real headless Chromium, over the console's real HTTP routes
 * and a real SQLite store seeded through the real repositories (test/support/candle-chart-harness.ts):
 * one chart per traded market, candles painted, the gap left empty, the open candle drawn, the
 * bot's fills as labelled markers and the live legs as labelled price lines (read back through
 * the library's series API, exposed as `dashboardCandles`), the timeframe picker, a live update
 * through the event stream, no console error and no request off the host.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dec } from '../../../src/core/decimal.js';
import type { CandleProbe } from '../../../src/web/browser/candle-view.js';
import { countCanvasPixels, openBrowser, type BrowserSession } from '../../support/browser.js';
import { fillOrder, startChartHarness, type ChartHarness } from '../../support/candle-chart-harness.js';
import { tempDir } from '../../support/temp-dir.js';
import { eventually } from '../../support/eventually.js';

const WAIT = { timeoutMs: 30_000, everyMs: 100 };

let h: ChartHarness;
let session: BrowserSession;
// Made at the file's level, so that it is removed after its last test (not in `beforeAll`).
const dataDir = tempDir('v4bot-candles-');

beforeAll(async () => {
  h = await startChartHarness({ dataDir });
  session = await openBrowser();
}, 60_000);

afterAll(async () => {
  await session?.close();
  await h?.close();
});

const page = (): BrowserSession['page'] => session.page;

async function probe(market: string): Promise<CandleProbe | null> {
  return (await page().evaluate(`globalThis.dashboardCandles?.(${JSON.stringify(market)}) ?? null`)) as CandleProbe | null;
}

async function drawn(market: string, check: (p: CandleProbe) => boolean, what: string): Promise<CandleProbe> {
  return eventually(async () => {
    const p = await probe(market);
    return p !== null && p.draws > 0 && check(p) ? p : undefined;
  }, what, WAIT);
}

describe('candle charts in Chromium', () => {
  it('draws one chart per traded market with candles, gap slots, the open candle, fill markers and leg lines', async () => {
    await page().goto(`${h.base}/`);
    const perp = await drawn('BTC_PERP', () => true, 'the BTC_PERP chart drawn');
    expect(perp).toMatchObject({ timeframe: '15m', candles: 21, open: true });
    // 20 closed candles and the open one, and four empty slots for 06:00-06:45: no invented candle.
    expect(perp.slots).toBe(25);
    expect(perp.markers).toEqual(['B 0.0010 @ 60000.0']);
    expect([...perp.priceLines].sort()).toEqual(['SL trend1 59000.0', 'TP trend1 62000.0 (armed)']);
    const spot = await drawn('BTC_USDT', () => true, 'the BTC_USDT chart drawn');
    expect(spot).toMatchObject({ candles: 4, open: false, markers: ['S 0.002000 @ 60150.50'], priceLines: [], source: '' });
    // No candles of its own: ETH_PERP's, which price it, said so in the heading.
    const eth = await drawn('ETH_USDT', () => true, 'the ETH_USDT chart drawn');
    expect(eth).toMatchObject({ candles: 4, open: false, markers: [], source: 'prices of ETH_PERP' });
    // One panel per traded market: ETH_PERP is configured but no strategy trades it.
    expect(await page().locator('.candle-panel').evaluateAll((els) => els.map((e) => (e as unknown as { dataset: { market: string } }).dataset.market))).toEqual(['BTC_USDT', 'BTC_PERP', 'ETH_USDT']);
    // Up candles (#3fb950) painted on the canvases, not only the grid.
    const green = await countCanvasPixels(page(), { r: [40, 80], g: [160, 200], b: [60, 100] }, '.candle-panel[data-market="BTC_PERP"]');
    expect(green).toBeGreaterThan(50);
    expect(await page().locator('.candle-panel[data-market="BTC_PERP"] .candle-legend').textContent()).toMatch(/^2026-11-24 10:00 \(open\) {2}O 60002\.0 {2}H 60037\.0/);
    await session.screenshot('dashboard-candles');
    expect(session.errors).toEqual([]);
    expect(session.offHostRequests).toEqual([]);
  });

  it('switches timeframe with the picker', async () => {
    const panel = page().locator('.candle-panel[data-market="BTC_PERP"]');
    await panel.locator('button[data-timeframe="1h"]').click();
    const hours = await drawn('BTC_PERP', (p) => p.timeframe === '1h' && p.candles === 6, 'the 1h candles');
    // 04, 05, 07, 08, 09 closed, 10 open; one empty slot for 06.
    expect(hours.slots).toBe(7);
    expect(hours.markers).toEqual(['B 0.0010 @ 60000.0']);
    expect(await panel.locator('button.tf.active').textContent()).toBe('1h');
    await panel.locator('button[data-timeframe="15m"]').click();
    await drawn('BTC_PERP', (p) => p.timeframe === '15m' && p.candles === 21, 'back to 15m');
    expect(session.errors).toEqual([]);
  });

  it('follows the event stream: a new price in the open candle and a new fill appear without a reload', async () => {
    const before = (await probe('BTC_PERP'))?.draws ?? 0;
    h.clock.advance(5_000);
    h.store.candles.fold('BTC_PERP', h.clock.now(), dec('60555.5'));
    fillOrder(h, { strategyId: 'trend1', kind: 'collateral', market: 'BTC_PERP', side: 'sell', amount: '0.0005', price: '60555.5', timeMs: h.clock.now() });
    h.console.feed.changed();
    h.clock.advance(300);
    const after = await drawn('BTC_PERP', (p) => p.draws > before && p.markers.length === 2, 'the new fill on the chart');
    expect(after.markers).toEqual(['B 0.0010 @ 60000.0', 'S 0.0005 @ 60555.5']);
    await eventually(async () => ((await page().locator('.candle-panel[data-market="BTC_PERP"] .candle-legend').textContent()) ?? '').includes('C 60555.5'), 'the open candle updated', WAIT);
    expect(session.errors).toEqual([]);
    expect(session.offHostRequests).toEqual([]);
  });
});
