/**
 * The study report in Debian's headless Chromium, opened from a file with no network: the equity
 * charts paint their series (pixels of the report's own colours, counted per chart), the SVG
 * scatters hold a dot per trial inside their plot, clicking a header sorts the trials by exact
 * value (numbers as numbers, not as text; no value last either way), HTML from a param value or
 * name stays text, and the page asks for nothing and logs no error.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Decimal } from '../../../src/core/decimal.js';
import { STUDY_COLOURS, renderStudyReport } from '../../../src/optimize/report/index.js';
import type { StudyResult } from '../../../src/optimize/types.js';
import { countCanvasPixels, openBrowser, type BrowserSession, type ColourRange } from '../../support/browser.js';
import { INJECTION_VALUE, failedStudy, gridStudy, walkForwardStudy } from '../../support/study-fixtures.js';
import { tempDir } from '../../support/temp-dir.js';
import { eventually } from '../../support/eventually.js';

let session: BrowserSession;
const dir = tempDir('study-report-');

/** A ±12 band around a #rrggbb colour (antialiasing shifts edge pixels). */
function near(hex: string): ColourRange {
  const c = [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16));
  const band = (v: number): [number, number] => [Math.max(0, v - 12), Math.min(255, v + 12)];
  return { r: band(c[0] as number), g: band(c[1] as number), b: band(c[2] as number) };
}

async function open(name: string, result: StudyResult): Promise<void> {
  const file = path.join(dir, `${name}.html`);
  writeFileSync(file, renderStudyReport(result));
  await session.page.goto(pathToFileURL(file).href);
  // Polled from here, not with waitForFunction: that one compiles its predicate inside the page
  // when the first check fails, and the page's policy refuses eval (a console error, on a slow run).
  await eventually(() => session.page.evaluate('window.reportState !== undefined && window.reportState.ready === true'), 'the report drawn', { timeoutMs: 30_000 });
}

/** The trials table's cell texts of column `col`, top to bottom. */
async function column(col: number): Promise<string[]> {
  return (await session.page.evaluate(`[...document.querySelectorAll('#trials tbody tr')].map((r) => r.cells[${col}].textContent)`)) as string[];
}

async function clickHeader(text: string): Promise<void> {
  await session.page.locator('#trials thead th', { hasText: new RegExp(`^${text}$`) }).click();
}

/** True when the texts (dash = no value) are in numeric order with every dash after the numbers. */
function inOrder(texts: readonly string[], direction: 1 | -1): boolean {
  const firstDash = texts.indexOf('—');
  const values = (firstDash < 0 ? texts : texts.slice(0, firstDash)).map((t) => new Decimal(t.replace('%', '')));
  if (firstDash >= 0 && texts.slice(firstDash).some((t) => t !== '—')) return false;
  return values.every((v, i) => i === 0 || v.comparedTo(values[i - 1] as Decimal) * direction >= 0);
}

beforeAll(async () => {
  session = await openBrowser();
});

afterAll(async () => {
  await session?.close();
});

describe('study report in a browser', () => {
  it('draws the best equity and a dot per trial in each scatter, with no error and no request', async () => {
    const result = gridStudy();
    await open('grid', result);
    const { page } = session;
    expect(await page.evaluate('window.reportState.charts')).toBe(1);
    expect(await countCanvasPixels(page, near(STUDY_COLOURS.bestEquity), '#chart-best-equity')).toBeGreaterThan(300);
    const scored = result.trials.filter((t) => t.objective !== null).length;
    for (const i of [0, 1, 2, 3]) {
      // Painted, inside the plot's frame: every dot's box lies within the frame's.
      const inside = (await page.evaluate(`(() => {
        const frame = document.querySelector('#scatter-${i} rect.plot').getBoundingClientRect();
        return [...document.querySelectorAll('#scatter-${i} circle:not(.best)')].map((c) => c.getBoundingClientRect())
          .filter((b) => b.width > 0 && b.left >= frame.left && b.right <= frame.right && b.top >= frame.top && b.bottom <= frame.bottom).length;
      })()`)) as number;
      expect(inside).toBe(scored);
      expect(await page.evaluate(`document.querySelectorAll('#scatter-${i} circle.best').length`)).toBe(1);
    }
    await session.screenshot('study-report-grid');
    expect(session.errors).toEqual([]);
    expect(session.offHostRequests).toEqual([]);
  });

  it('keeps HTML from a param value as text: nothing runs, no element is made', async () => {
    const { page } = session;
    expect(await page.evaluate('window.pwned === undefined')).toBe(true);
    expect(await page.evaluate(`document.querySelectorAll('script').length`)).toBe(3);
    expect(await page.evaluate(`document.querySelectorAll('#trials img, #trials script').length`)).toBe(0);
    expect(await column(4)).toContain(INJECTION_VALUE);
  });

  it('sorts the trials by a decimal column numerically on a header click, and reverses on a second', async () => {
    const net = await column(6);
    // The fixture must be able to tell text order from numeric order, or the test proves nothing.
    const asText = [...net].sort();
    const asNumbers = [...net].sort((a, b) => new Decimal(a).comparedTo(b));
    expect(asText).not.toEqual(asNumbers);
    await clickHeader('Net PnL');
    expect(await column(6)).toEqual(asNumbers);
    expect(await session.page.evaluate(`document.querySelector('#trials th[data-col="6"]').getAttribute('aria-sort')`)).toBe('ascending');
    await clickHeader('Net PnL');
    expect(await column(6)).toEqual([...asNumbers].reverse());
    expect(await session.page.evaluate('window.reportState.sort')).toEqual({ column: 6, direction: 'descending' });
  });

  it('keeps trials without a value last in both directions, and ties in trial order', async () => {
    await clickHeader('Sharpe');
    const up = await column(9);
    expect(up.filter((t) => t === '—')).toHaveLength(4);
    expect(inOrder(up, 1)).toBe(true);
    await clickHeader('Sharpe');
    const down = await column(9);
    expect(inOrder(down, -1)).toBe(true);
    expect(down.slice(-4)).toEqual(['—', '—', '—', '—']);
    await clickHeader('lookback');
    const lookback = (await column(1)).map(Number);
    const index = (await column(0)).map(Number);
    expect(lookback).toEqual([...lookback].sort((a, b) => a - b));
    // Within one lookback the trials keep their creation order.
    expect(index.filter((_, i) => lookback[i] === 20)).toEqual([...index.filter((_, i) => lookback[i] === 20)].sort((a, b) => a - b));
  });

  it('draws the stitched out-of-sample equity of a walk-forward study and shows its flags', async () => {
    await open('walk-forward', walkForwardStudy());
    const { page } = session;
    expect(await page.evaluate('window.reportState.charts')).toBe(2);
    expect(await countCanvasPixels(page, near(STUDY_COLOURS.oosEquity), '#chart-oos-equity')).toBeGreaterThan(300);
    expect(await countCanvasPixels(page, near(STUDY_COLOURS.oosEquity), '#chart-best-equity')).toBe(0);
    expect(await page.evaluate(`document.querySelectorAll('#flags li').length`)).toBe(3);
    expect(await page.evaluate(`document.querySelectorAll('#folds tbody tr').length`)).toBe(3);
    expect(await page.evaluate('window.pwned === undefined')).toBe(true);
    await session.screenshot('study-report-walk-forward');
    expect(session.errors).toEqual([]);
    expect(session.offHostRequests).toEqual([]);
  });

  it('opens a study in which every trial failed without an error', async () => {
    await open('failed', failedStudy());
    const { page } = session;
    expect(await page.evaluate('window.reportState.charts')).toBe(0);
    expect(await page.evaluate(`document.querySelectorAll('#failed-trials tbody tr').length`)).toBe(3);
    expect(await page.evaluate(`document.getElementById('no-best') !== null && document.getElementById('no-walk-forward') !== null`)).toBe(true);
    expect(session.errors).toEqual([]);
    expect(session.offHostRequests).toEqual([]);
  });
});
