/**
 * The dashboard's HTML: a static shell (no data in it, so nothing to escape server-side but the
 * mode label); the page's module (src/web/browser/dashboard.ts) fills it from `/api/state` and the
 * event stream, always through `textContent`. Scripts and style are served by the daemon
 * (`/assets/...`), no CDN.
 */
import { CHART_ATTRIBUTION_HTML, escapeHtml } from '../html.js';

function section(id: string, title: string, body: string): string {
  return `<section id="${id}-section"><h2>${escapeHtml(title)}</h2>${body}</section>`;
}

/** A table shell; a heading starting with `#` heads a numeric (right-aligned) column. */
function table(id: string, headings: readonly string[]): string {
  const th = (h: string): string => (h.startsWith('#') ? `<th class="num">${escapeHtml(h.slice(1))}</th>` : `<th>${escapeHtml(h)}</th>`);
  return `<table id="${id}"><thead><tr>${headings.map(th).join('')}</tr></thead><tbody></tbody></table>`;
}

export function dashboardPage(o: { mode: 'paper' | 'live' }): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>v4-bot dashboard (${escapeHtml(o.mode)})</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/assets/dashboard.css">
</head>
<body data-mode="${escapeHtml(o.mode)}">
<header>
  <h1>v4-bot <span class="mode">${escapeHtml(o.mode)}</span></h1>
  <div class="state">Trading: <strong id="trading-state">…</strong> <span id="trading-reason"></span></div>
  <div class="global-actions">
    <button type="button" data-action="halt" class="danger">Halt</button>
    <button type="button" data-action="resume-trading">Resume trading</button>
    <button type="button" data-action="cancel-all" class="danger">Cancel all</button>
  </div>
  <div class="conn"><span id="conn" class="down">connecting</span> <span id="updated"></span></div>
</header>
<div id="notice" role="status"></div>
<form id="login" hidden>
  <label>Control token <input id="token" type="password" autocomplete="off" size="40"></label>
  <button type="submit">Sign in</button>
  <span class="hint">BOT_CONTROL_TOKEN, or the data dir's control-token file</span>
</form>
<main>
${section('strategies', 'Strategies and PnL', table('strategies', ['Strategy', 'Module', 'Status', '#Open orders', '#Fills', '#Realised (gross)', '#Fees', '#Realised (net)', '#Unrealised', 'Last tick (UTC)', 'Actions']))}
${section('candles', 'Markets (candles, UTC)', '<div id="candle-charts" class="candle-grid"></div>')}
<div class="row">
<div class="column">
${section('equity', 'Equity', '<div id="equity-figures" class="figures"></div><div id="equity-parts" class="figures"></div><div id="equity-chart" class="chart"></div><h3>Drawdown %</h3><div id="drawdown-chart" class="chart small"></div>')}
${section('positions', 'Positions and protective legs', table('positions', ['Strategy', 'Market', '#Base', '#Avg entry', '#Last', 'Protective legs']))}
</div>
${section('risk', 'Health and limits', '<h3>Jobs</h3>' + table('jobs', ['Job', 'Last run (UTC)', 'Outcome', '#Skipped']) + '<h3>Credit line</h3><div id="credit"></div><h3>Flex earnings</h3><div id="flex"></div><h3>Request queue</h3>' + table('pools', ['Pool', 'Used / budget', '#Queued', 'Paused', '#Refused']) + '<div id="queue"></div>')}
</div>
${section('orders', 'Open orders', table('orders', ['Client order id', 'Strategy', 'Market', 'Side', '#Amount', '#Price', '#Filled', 'State']))}
${section('fills', 'Recent fills', table('fills', ['Time (UTC)', 'Strategy', 'Market', 'Side', '#Amount', '#Price', '#Fee', 'Role']))}
<div class="row">
${section('alerts', 'Alerts', table('alerts', ['Time (UTC)', 'Kind', 'Subject', 'Detail']))}
${section('actions', 'Control actions', table('actions', ['Time (UTC)', 'Action', 'Target', 'Who', 'Result', 'Detail']))}
</div>
</main>
<footer>Amounts at their market's tick and step (hover a figure for its exact value); times in UTC. ${CHART_ATTRIBUTION_HTML}</footer>
<script src="/assets/chart.js"></script>
<script type="module" src="/assets/dashboard.js"></script>
</body>
</html>
`;
}
