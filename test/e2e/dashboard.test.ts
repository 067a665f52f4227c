/**
 * The dashboard in a real headless Chromium against the real built daemon in paper mode: the page
 * loads with no console error and no request off the host, shows the daemon's fills and positions
 * and draws the equity chart and a candle chart per traded market (with the fills as markers), updates live through the event stream (a new fill and a trading-state
 * change appear without a reload), shows hostile alert text as text, and a control action from
 * the page (pause) works end to end. Screenshots go to test-artifacts/.
 */
import { copyFileSync, readFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countCanvasPixels, openBrowser, type BrowserSession } from '../support/browser.js';
import { freePort, ROOT, spawnDaemon, writeConfig, type DaemonProcess } from '../support/daemon-process.js';
import { tempDir } from '../support/temp-dir.js';
import { eventually } from '../support/eventually.js';

const WAIT = { timeoutMs: 60_000, everyMs: 250 };

const config = {
  markets: {
    BTC_USDT: { tick: '0.01', step: '0.000001', minAmount: '0.00001', minTotalQuote: '5.05', maxPositionBase: '0.5', maxOpenOrders: 40 },
    BTC_PERP: { tick: '0.1', step: '0.0001', minAmount: '0.0001', minTotalQuote: '5.05', maxPositionBase: '0.05', maxOpenOrders: 10 },
  },
  strategies: [
    { module: 'spot-grid', id: 'grid1', budgetQuote: '3000', schedule: '* * * * * *', params: { market: 'BTC_USDT', levels: 3, spacingPct: '0.05', orderAmount: '0.001' } },
    {
      module: 'collateral-signal',
      id: 'trend1',
      budgetQuote: '2000',
      schedule: '* * * * * *',
      params: { market: 'BTC_PERP', amount: '0.001', stopLossPct: '1', takeProfitPct: '2', lookbackTicks: 2, thresholdPct: '0.01' },
    },
  ],
  risk: { maxNotionalPerOrderQuote: '500', maxDrawdownPct: '50' },
  jobs: { reconcileCron: '*/2 * * * * *', equityCheckCron: '* * * * * *' },
  paper: { seed: 7, volatility: '0.001', volumePerStep: '0.5', priceStepMs: 500, flexInvestments: [{ currency: 'USDT', amount: '2000', dailyRate: '0.0001' }] },
};

interface ApiState {
  tradingState: string;
  fills: { dealId: number }[];
  positions: { market: string }[];
}

let daemon: DaemonProcess;
let session: BrowserSession;
let port: number;
// Made at file level (not in beforeAll) so that they are removed after the last test.
const [confDir, dataRoot, cwd] = [tempDir(), tempDir(), tempDir()];
const dataDir = path.join(dataRoot, 'data');

const api = async (): Promise<ApiState> => (await (await fetch(`http://127.0.0.1:${port}/api/state`)).json()) as ApiState;

beforeAll(async () => {
  port = await freePort();
  daemon = spawnDaemon({ BOT_CONFIG: writeConfig(config, confDir), BOT_DATA_DIR: dataDir, BOT_HTTP_PORT: String(port) }, cwd);
  // The example strategies trade: wait for fills and a position before the page opens.
  await eventually(async () => {
    const st = await api();
    return st.fills.length >= 2 && st.positions.length > 0;
  }, 'paper fills and a position', WAIT);
  session = await openBrowser();
}, 90_000);

afterAll(async () => {
  await session?.close();
  daemon?.child.kill('SIGINT');
  await daemon?.exited;
});

const page = (): BrowserSession['page'] => session.page;
const rows = (table: string): Promise<number> => page().locator(`#${table} tbody tr:not(:has(td.empty))`).count();
const text = async (selector: string): Promise<string> => (await page().locator(selector).textContent()) ?? '';

describe('dashboard in Chromium', () => {
  it('loads with no console error and no off-host request, and shows fills, positions and the equity chart', async () => {
    await page().goto(`http://127.0.0.1:${port}/`);
    await eventually(async () => (await rows('fills')) >= 2, 'fills on the page', WAIT);
    await eventually(async () => (await rows('positions')) >= 1, 'a position on the page', WAIT);
    expect(await text('#trading-state')).toBe('ACTIVE');
    expect(await rows('strategies')).toBe(2);
    expect(await text('#strategies')).toContain('grid1');
    // The equity line (#58a6ff) is painted on the chart's canvases.
    const blue = await eventually(async () => {
      const n = await countCanvasPixels(page(), { r: [70, 110], g: [150, 185], b: [235, 255] }, '#equity-chart');
      return n > 30 ? n : undefined;
    }, 'the equity line drawn', WAIT);
    expect(blue).toBeGreaterThan(30);
    // A candle chart per traded market, fed by the daemon's own price recorder: the minute being
    // built is there from the first poll on.
    const candles = async (market: string): Promise<{ candles: number; markers: string[] } | null> =>
      (await page().evaluate(`globalThis.dashboardCandles?.(${JSON.stringify(market)}) ?? null`)) as { candles: number; markers: string[] } | null;
    for (const market of ['BTC_USDT', 'BTC_PERP']) {
      await eventually(async () => ((await candles(market))?.candles ?? 0) >= 1, `the ${market} candle chart drawn`, WAIT);
    }
    // The paper fills happened within the chart's window: they are its markers.
    await eventually(async () => ((await candles('BTC_USDT'))?.markers.length ?? 0) >= 1, 'fill markers on the BTC_USDT chart', WAIT);
    // The parts of the equity rule (docs/equity.md) under the figures.
    const parts = await eventually(async () => ((await text('#equity-parts')).includes('Held by open orders') ? text('#equity-parts') : undefined), 'the equity parts', WAIT);
    for (const name of ['Available balances', 'Collateral positions', 'Flex']) expect(parts).toContain(name);
    await eventually(async () => (await text('#conn')) === 'live', 'the event stream connected', WAIT);
    // Times carry the date; amounts and prices show at the market's step and tick (config above).
    const fill = page().locator('#fills tbody tr[data-deal]').filter({ hasText: 'BTC_USDT' }).first();
    const cells = await fill.locator('td').allTextContents();
    expect(cells[0]).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(cells[4]).toMatch(/^\d+\.\d{6}$/);
    expect(cells[5]).toMatch(/^\d+\.\d{2}$/);
    expect(cells[6]).toMatch(/^\d+\.\d{2} USDT$/);
    expect(await text('#equity-figures')).toMatch(/Equity\d+\.\d{2} USDT/);
    // The chart library's attribution: a notice with its link in the footer, no logo over the charts.
    await expect(page().locator('footer a[href="https://www.tradingview.com/"]').count()).resolves.toBe(1);
    await expect(page().locator('#equity-section a[href*="tradingview"]').count()).resolves.toBe(0);
    await session.screenshot('dashboard-loaded');
    expect(session.errors).toEqual([]);
    expect(session.offHostRequests).toEqual([]);
  });

  it('updates live: a new fill and a trading-state change appear without a reload', async () => {
    const shown = new Set(await page().locator('#fills tbody tr[data-deal]').evaluateAll((trs) => trs.map((tr) => (tr as unknown as { dataset: { deal: string } }).dataset.deal)));
    const renders = async (): Promise<number> => (await page().evaluate(() => (globalThis as unknown as { dashboardRenders: number }).dashboardRenders)) ?? 0;
    const before = await renders();
    await eventually(async () => {
      const now = await page().locator('#fills tbody tr[data-deal]').evaluateAll((trs) => trs.map((tr) => (tr as unknown as { dataset: { deal: string } }).dataset.deal));
      return now.some((d) => !shown.has(d));
    }, 'a new fill on the page', WAIT);
    // Halt through the API with this run's token; the page hears of it from the stream.
    const token = readFileSync(path.join(dataDir, 'control-token'), 'utf8').trim();
    const r = await fetch(`http://127.0.0.1:${port}/api/control/halt`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: '{}' });
    expect(r.status).toBe(200);
    await eventually(async () => (await text('#trading-state')) === 'HALTED', 'HALTED on the page', WAIT);
    expect(await renders()).toBeGreaterThan(before);
    await session.screenshot('dashboard-halted');
    const resumed = await fetch(`http://127.0.0.1:${port}/api/control/resume-trading`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: '{}' });
    expect(resumed.status).toBe(200);
    await eventually(async () => (await text('#trading-state')) === 'ACTIVE', 'ACTIVE again', WAIT);
    expect(session.errors).toEqual([]);
  });

  it('shows hostile alert text as text', async () => {
    // The daemon holds the instance lock, not the database: a second connection may write (WAL).
    const db = new Database(path.join(dataDir, 'bot.sqlite'));
    db.pragma('busy_timeout = 5000');
    db.prepare('INSERT INTO alerts (at_ms, kind, subject, detail) VALUES (?, ?, ?, ?)').run(Date.now(), 'test_alert', '<b>subject</b>', '<img src=x onerror="globalThis.pwned=1">');
    db.close();
    await eventually(async () => (await text('#alerts')).includes('<img src=x'), 'the alert on the page', WAIT);
    expect(await page().locator('#alerts img, #alerts b').count()).toBe(0);
    expect(await page().evaluate(() => (globalThis as unknown as { pwned?: number }).pwned)).toBeUndefined();
  });

  it('pauses a strategy from the page, end to end', async () => {
    const row = page().locator('#strategies tbody tr[data-strategy="grid1"]');
    await row.locator('button[data-action="pause"]').click();
    await eventually(async () => (await row.getAttribute('data-status')) === 'paused', 'grid1 paused on the page', WAIT);
    expect(await text('#notice')).toContain('pause grid1: strategy grid1 paused');
    await eventually(async () => (await text('#actions')).includes('dashboard/session'), 'the action listed', WAIT);
    const st = (await (await fetch(`http://127.0.0.1:${port}/api/state`)).json()) as { strategies: { id: string; paused: boolean; pausedBy: string }[] };
    expect(st.strategies.find((s) => s.id === 'grid1')).toMatchObject({ paused: true, pausedBy: 'dashboard/session' });
    await session.screenshot('dashboard-paused');
    await row.locator('button[data-action="resume"]').click();
    await eventually(async () => (await row.getAttribute('data-status')) === 'running', 'grid1 running again', WAIT);
    expect(session.errors).toEqual([]);
    expect(session.offHostRequests).toEqual([]);
    // The picture in docs/dashboard.md (docs/images/dashboard.png), refreshed on request: DASHBOARD_README_SHOT=1.
    if (process.env['DASHBOARD_README_SHOT'] === '1') {
      await page().setViewportSize({ width: 1280, height: 1000 });
      const shot = await session.screenshot('dashboard-readme');
      copyFileSync(shot, path.join(ROOT, 'docs/images/dashboard.png'));
    }
  });
});
