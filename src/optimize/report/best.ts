/**
 * The best parameters: their values, every backtest figure of their trial (the rows of the
 * backtest report's summary, the exact value in each tooltip) and their equity curve.
 */
import type { BacktestMetrics } from '../../backtest/result.js';
import { signClass } from '../../backtest/report/format.js';
import { METRIC_ROWS } from '../../backtest/report/tables.js';
import { escapeHtml as html } from '../../web/html.js';
import type { ParamValue, ParamValues, StudyResult } from '../types.js';
import { STUDY_COLOURS } from './colours.js';
import { fixed4, orderedNames, paramText } from './format.js';

export function metricsTable(id: string, metrics: BacktestMetrics): string {
  const rows = METRIC_ROWS.map(([label, cell, money, field]) => {
    const shown = cell(metrics);
    const exact = String(metrics[field] ?? '—');
    const title = exact === shown ? '' : ` title="${html(exact)}"`;
    return `<tr data-field="${field}"><th>${html(label)}</th><td class="${money ? signClass(shown) : 'num'}"${title}>${html(shown)}</td></tr>`;
  });
  return `<table id="${id}" class="figures"><tbody>\n${rows.join('\n')}\n</tbody></table>`;
}

function paramsTable(result: StudyResult, params: ParamValues): string {
  const names = orderedNames(params, result.space.params.map((p) => p.name));
  const rows = names.map((n) => `<tr><th>${html(n)}</th><td><code>${html(paramText(params[n] as ParamValue))}</code></td></tr>`);
  return `<table id="best-params" class="figures"><tbody>\n${rows.join('\n')}\n</tbody></table>`;
}

export function bestSection(result: StudyResult): string {
  const { best } = result;
  if (best === null) {
    return '<section id="best"><h2>Best parameters</h2><p class="note" id="no-best">No best parameters: no trial produced an objective value.</p></section>';
  }
  const chart = best.equity.length === 0
    ? '<p class="note" id="no-best-equity">The best trial recorded no equity.</p>'
    : `<div class="chart" id="chart-best-equity"></div><p class="legend"><span class="swatch" style="background:${STUDY_COLOURS.bestEquity}"></span>account equity of the best trial (quote currency)</p>`;
  return [
    '<section id="best"><h2>Best parameters</h2>',
    `<p>Objective <b>${html(result.objective)}</b>: <b class="num" title="${html(best.objective ?? '')}">${html(fixed4(best.objective))}</b></p>`,
    `<div class="columns"><div><h3>Parameters</h3>${paramsTable(result, best.params)}</div>`,
    `<div><h3>Backtest figures</h3>${metricsTable('best-metrics', best.metrics)}</div></div>`,
    `<h3>Equity</h3>${chart}</section>`,
  ].join('\n');
}
