/**
 * The bundled charting library draws in Debian's headless Chromium with no network: the base
 * that the backtest report and the dashboard both stand on.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chartLibrarySource } from '../../../src/web/chart-library.js';
import { countCanvasPixels, openBrowser, type BrowserSession } from '../../support/browser.js';

let session: BrowserSession;

beforeAll(async () => {
  session = await openBrowser();
});

afterAll(async () => {
  await session.close();
});

const page = (): string => `<!doctype html><html><body><div id="c" style="width:600px;height:300px"></div>
<script>${chartLibrarySource()}</script>
<script>
  const chart = LightweightCharts.createChart(document.getElementById('c'), { width: 600, height: 300 });
  const s = chart.addSeries(LightweightCharts.LineSeries, { color: '#d00' });
  s.setData([{ time: 1700000000, value: 1 }, { time: 1700000060, value: 3 }, { time: 1700000120, value: 2 }]);
  window.drawn = true;
</script></body></html>`;

describe('chart library', () => {
  it('draws a line series offline, with no console error', async () => {
    await session.page.setContent(page());
    await session.page.waitForFunction('window.drawn === true');
    // Red pixels on the canvases mean the series was painted, not only the grid.
    const red = await countCanvasPixels(session.page, { r: [181, 255], g: [0, 79], b: [0, 79] });
    await session.screenshot('chart-library');
    expect(red).toBeGreaterThan(50);
    expect(session.errors).toEqual([]);
    expect(session.offHostRequests).toEqual([]);
  });
});
