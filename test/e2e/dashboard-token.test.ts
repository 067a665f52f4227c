/**
 * The dashboard of a daemon bound beyond loopback (`BOT_HTTP_HOST=0.0.0.0` with
 * `BOT_CONTROL_TOKEN`), in headless Chromium: the page holds no data until signed in, refuses a
 * wrong token, then shows the state live and takes a control action with the session.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBrowser, type BrowserSession } from '../support/browser.js';
import { freePort, spawnDaemon, writeConfig, type DaemonProcess } from '../support/daemon-process.js';
import { tempDir } from '../support/temp-dir.js';
import { eventually } from '../support/eventually.js';

const WAIT = { timeoutMs: 45_000, everyMs: 250 };
const TOKEN = 'dashboard-test-token-0123456789abcdef';

const config = {
  markets: { BTC_USDT: { tick: '0.01', step: '0.000001', minAmount: '0.00001', minTotalQuote: '5.05', maxPositionBase: '1' } },
  strategies: [{ module: 'spot-grid', id: 'grid1', budgetQuote: '5000', schedule: '* * * * * *', params: { market: 'BTC_USDT', levels: 2, spacingPct: '0.1', orderAmount: '0.002' } }],
  risk: { maxNotionalPerOrderQuote: '500' },
};

let daemon: DaemonProcess;
let session: BrowserSession;
let port: number;
// Made at file level (not in beforeAll) so that they are removed after the last test.
const [confDir, dataRoot, cwd] = [tempDir(), tempDir(), tempDir()];

beforeAll(async () => {
  port = await freePort();
  daemon = spawnDaemon({ BOT_CONFIG: writeConfig(config, confDir), BOT_DATA_DIR: path.join(dataRoot, 'data'), BOT_HTTP_PORT: String(port), BOT_HTTP_HOST: '0.0.0.0', BOT_CONTROL_TOKEN: TOKEN }, cwd);
  await eventually(async () => (await fetch(`http://127.0.0.1:${port}/healthz`, { headers: { authorization: `Bearer ${TOKEN}` } })).status === 200, 'the daemon up', WAIT);
  session = await openBrowser();
}, 60_000);

afterAll(async () => {
  await session?.close();
  daemon?.child.kill('SIGINT');
  await daemon?.exited;
});

describe('dashboard beyond loopback', () => {
  it('asks for the token, refuses a wrong one, then shows live state and controls', async () => {
    const page = session.page;
    await page.goto(`http://127.0.0.1:${port}/`);
    await page.locator('#login').waitFor({ state: 'visible' });
    expect(await page.locator('#strategies tbody tr').count()).toBe(0);

    await page.locator('#token').fill('not-the-token-at-all-0000000000');
    await page.locator('#login button[type="submit"]').click();
    await eventually(async () => ((await page.locator('#notice').textContent()) ?? '').includes('wrong token'), 'the refusal shown', WAIT);
    expect(await page.locator('#login').isVisible()).toBe(true);

    await page.locator('#token').fill(TOKEN);
    await page.locator('#login button[type="submit"]').click();
    await page.locator('#login').waitFor({ state: 'hidden' });
    const row = page.locator('#strategies tbody tr[data-strategy="grid1"]');
    await row.waitFor();
    await eventually(async () => (await page.locator('#conn').textContent()) === 'live', 'the stream connected', WAIT);
    await row.locator('button[data-action="pause"]').click();
    await eventually(async () => (await row.getAttribute('data-status')) === 'paused', 'paused from the page', WAIT);
    await session.screenshot('dashboard-token');
    // The token never reaches the page's storage or DOM, and the only failures logged are the
    // 401s of the requests made before signing in.
    expect(await page.content()).not.toContain(TOKEN);
    expect(session.errors.filter((e) => !/401|Unauthorized/.test(e))).toEqual([]);
    expect(session.offHostRequests).toEqual([]);
  });
});
