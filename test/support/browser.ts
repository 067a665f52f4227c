/**
 * A real headless Chromium for page tests: Debian's `/usr/bin/chromium` (installed by .ci/run),
 * driven by playwright-core. Nothing is downloaded. The flags keep Chromium off the network
 * (this machine's network is closed; background services would otherwise retry at every start).
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { ROOT } from './daemon-process.js';

export const CHROMIUM_PATH = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';

/** Screenshots kept after the run (git-ignored): a reviewer can look at what the test saw. */
export const ARTIFACTS_DIR = path.join(ROOT, 'test-artifacts');

export interface BrowserSession {
  browser: Browser;
  page: Page;
  /** Console errors and uncaught page errors seen so far. */
  errors: string[];
  /** Requests the page tried to send anywhere but loopback (a self-contained page sends none). */
  offHostRequests: string[];
  screenshot(name: string): Promise<string>;
  close(): Promise<void>;
}

const LOOPBACK = /^(https?|wss?):\/\/(127\.0\.0\.1|localhost|\[::1\])(:\d+)?\//;

/** Opens one page in a fresh profile; the caller navigates it. */
export async function openBrowser(): Promise<BrowserSession> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync',
    ],
  });
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const errors: string[] = [];
  const offHostRequests: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(msg.text());
  });
  page.on('pageerror', (err) => errors.push(err.message));
  page.on('request', (req) => {
    const url = req.url();
    if (!url.startsWith('data:') && !url.startsWith('file:') && !url.startsWith('about:') && !LOOPBACK.test(url)) offHostRequests.push(url);
  });
  return {
    browser,
    page,
    errors,
    offHostRequests,
    async screenshot(name) {
      mkdirSync(ARTIFACTS_DIR, { recursive: true });
      const file = path.join(ARTIFACTS_DIR, `${name}.png`);
      await page.screenshot({ path: file, fullPage: true });
      return file;
    },
    async close() {
      // Playwright gives every non-persistent launch a fresh temporary profile and removes it here.
      await browser.close().catch(() => undefined);
    },
  };
}

/** A colour test for canvas pixels: each channel within [min, max]. */
export interface ColourRange {
  r: [number, number];
  g: [number, number];
  b: [number, number];
}

/**
 * Pixels of that colour over every canvas in `selector` (default: the page): proof a chart painted
 * its series, not only its grid. Runs in the page; written as a string because tests compile
 * without the DOM library.
 */
export async function countCanvasPixels(page: Page, colour: ColourRange, selector = 'body'): Promise<number> {
  const fn = `(() => {
    const c = ${JSON.stringify(colour)};
    let count = 0;
    for (const canvas of document.querySelectorAll(${JSON.stringify(selector)} + ' canvas')) {
      const ctx = canvas.getContext('2d');
      if (ctx === null || canvas.width === 0 || canvas.height === 0) continue;
      const d = ctx.getImageData(0, 0, canvas.width, canvas.height).data;
      for (let i = 0; i < d.length; i += 4) {
        if (d[i] >= c.r[0] && d[i] <= c.r[1] && d[i + 1] >= c.g[0] && d[i + 1] <= c.g[1] && d[i + 2] >= c.b[0] && d[i + 2] <= c.b[1]) count++;
      }
    }
    return count;
  })()`;
  return (await page.evaluate(fn)) as number;
}
