/**
 * The backtest's HTML report: one self-contained file (charting library, styles, data and script
 * inlined; no request of any kind), byte-identical for the same result. docs/backtest-metrics.md
 * defines the figures it shows.
 */
import { requireBrowserModule } from '../../web/browser-code.js';
import { chartLibrarySource } from '../../web/chart-library.js';
import type { BacktestResult } from '../result.js';
import { chartDataOf, holdLineOf, namesOf, reportInputOf, type HoldLine, type ReportInput } from './chart-data.js';
import { REPORT_COLOURS } from './colours.js';
import { CHART_ATTRIBUTION_HTML, escapeHtml as html, jsonForScript } from '../../web/html.js';
import { utc } from './format.js';
import type { FileWriter } from '../file-writer.js';
import { page, pageLines, type PageParts } from './page.js';
import { STYLES } from './styles.js';
import { fillTable, inputsTable, summaryTable, tradeTable } from './tables.js';

export { REPORT_COLOURS } from './colours.js';
export { reportInputOf, type ReportInput } from './chart-data.js';

function swatch(colour: string, label: string): string {
  return `<span class="swatch" style="background:${colour}"></span>${label}`;
}

function holdLegend(hold: HoldLine | null): string {
  if (hold === null) return '';
  const sign = hold.changePct.startsWith('-') ? '' : '+';
  return swatch(REPORT_COLOURS.hold, `buy and hold ${html(hold.market)} with the starting equity (the market's own change: <span id="market-change">${sign}${html(hold.changePct)} %</span>)`);
}

function chartsSection(hold: HoldLine | null, names: readonly string[]): string {
  const markets = names.map((name, i) => {
    const chart = `<div class="chart" id="chart-price-${i}"></div>`;
    return `<h3>${html(name)}</h3>\n${chart}\n<p class="legend">${swatch(REPORT_COLOURS.price, 'price')}${swatch(REPORT_COLOURS.buy, 'buy fill')}${swatch(REPORT_COLOURS.sell, 'sell fill')}</p>`;
  });
  return [
    '<section id="equity"><h2>Equity</h2><div class="chart" id="chart-equity"></div>',
    `<p class="legend">${swatch(REPORT_COLOURS.equity, 'account equity (quote currency)')}${holdLegend(hold)}</p></section>`,
    '<section id="drawdown"><h2>Drawdown from the running peak</h2><div class="chart small" id="chart-drawdown"></div>',
    `<p class="legend">${swatch(REPORT_COLOURS.drawdown, 'drawdown, % of the peak')}</p></section>`,
    `<section id="prices"><h2>Prices and fills</h2>\n${markets.join('\n')}\n</section>`,
  ].join('\n');
}

function body(input: ReportInput, names: readonly string[], hold: HoldLine | null): string {
  const result = input.head;
  const period = `${utc(result.inputs.fromMs)} → ${utc(result.inputs.toMs)}`;
  return [
    '<h1>Backtest report</h1>',
    `<p class="sub">${html(period)} · config <code>${html(result.inputs.config)}</code></p>`,
    `<section id="summary-section"><h2>Summary</h2>\n${summaryTable(result)}\n`,
    '<p class="note">Amounts in the quote currency, exact. Definitions: docs/backtest-metrics.md in the bot\'s repository.</p></section>',
    chartsSection(hold, names),
    `<section id="trades-section"><h2>Round trips (${input.tradeCount})</h2>\n${tradeTable(input.firstTrades, input.tradeCount)}\n</section>`,
    `<section id="fills-section"><h2>Fills</h2>\n${fillTable(input.firstFills, input.fillCount)}\n</section>`,
    `<section id="inputs-section"><h2>Inputs</h2>\n${inputsTable(result)}\n</section>`,
    `<footer>${CHART_ATTRIBUTION_HTML}</footer>`,
  ].join('\n');
}

/** The report of `result` as one HTML document. */
export function renderReport(result: BacktestResult): string {
  return page(reportParts(reportInputOf(result)));
}

/** renderReport's document written part by part (byte-identical), from a result held or read as it goes. */
export function writeReport(w: FileWriter, input: ReportInput): void {
  pageLines(reportParts(input)).forEach((line, i) => {
    if (i > 0) w.write('\n');
    w.write(line);
  });
}

function reportParts(input: ReportInput): PageParts {
  const { head } = input;
  const names = namesOf(input);
  const hold = holdLineOf(head, names);
  return {
    title: html(`Backtest report ${utc(head.inputs.fromMs)} → ${utc(head.inputs.toMs)}`),
    body: body(input, names, hold),
    styles: STYLES,
    dataJson: jsonForScript(chartDataOf(input, hold)),
    scripts: [chartLibrarySource()],
    // The page script (src/web/browser/backtest-report.ts, built); "</script" could not end it early.
    moduleScript: requireBrowserModule('backtest-report').replace(/<\/script/gi, '<\\/script'),
  };
}
