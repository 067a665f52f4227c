/**
 * Escaping for the HTML the pages build in Node (the dashboard's shell, the backtest report):
 * every text that did not come from this code goes through `escapeHtml`; data embedded for a
 * page's script goes through `jsonForScript`.
 */

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text safe inside an element or a quoted attribute. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);
}

/**
 * JSON safe inside a `<script type="application/json">` element: no `<` can start `</script>` or
 * `<!--`, and `>`, `&`, U+2028 and U+2029 are escaped too. JSON.parse reads them back unchanged.
 */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/**
 * The notice the charting library's licence asks for (lightweight-charts, Apache-2.0: TradingView's
 * attribution notice and a link to tradingview.com), shown as page text instead of a logo over
 * the chart. A link is no request: the self-contained report stays offline.
 */
export const CHART_ATTRIBUTION_HTML = 'Charts: <a href="https://www.tradingview.com/" rel="noopener noreferrer" target="_blank">TradingView Lightweight Charts™</a>, '
  + 'Copyright (c) TradingView, Inc., licensed under the Apache License 2.0.';
