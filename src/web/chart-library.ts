/**
 * The charting library (lightweight-charts, Apache-2.0) as one script text, for pages that must
 * work with no network: the backtest report inlines it, the dashboard serves it from the daemon.
 * Read once from the installed package (a runtime dependency), never fetched.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);

let cached: string | null = null;

/** Path of the standalone build: it defines `window.LightweightCharts` when loaded by a <script>. */
export function chartLibraryPath(): string {
  const pkg = require.resolve('lightweight-charts/package.json');
  return path.join(path.dirname(pkg), 'dist', 'lightweight-charts.standalone.production.js');
}

/** The library's source, safe to inline inside a <script> element. */
export function chartLibrarySource(): string {
  if (cached === null) {
    // A literal "</script" inside inline code would end the element early.
    cached = readFileSync(chartLibraryPath(), 'utf8').replace(/<\/script/gi, '<\\/script');
  }
  return cached;
}
