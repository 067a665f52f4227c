/**
 * The walk-forward part: one row per fold (its train and test windows, the params the train
 * window chose, their objective in and out of sample, the test window's net PnL and round trips)
 * and the test windows' equity stitched into one curve.
 */
import { signClass } from '../../backtest/report/format.js';
import { escapeHtml as html } from '../../web/html.js';
import type { StudyResult, WalkForwardFold } from '../types.js';
import { STUDY_COLOURS } from './colours.js';
import { fixed4, paramsText, windowText } from './format.js';

function objectiveCell(value: string | null): string {
  const title = value === null ? '' : ` title="${html(value)}"`;
  return `<td class="num"${title}>${html(fixed4(value))}</td>`;
}

function foldRow(fold: WalkForwardFold, order: readonly string[]): string {
  const net = fold.testMetrics.netPnl;
  return `<tr><td class="num">${fold.fold}</td><td>${html(windowText(fold.train))}</td><td>${html(windowText(fold.test))}</td>`
    + `<td><code>${html(paramsText(fold.bestParams, order))}</code></td>${objectiveCell(fold.inSample)}${objectiveCell(fold.outOfSample)}`
    + `<td class="${signClass(net)}">${html(net)}</td><td class="num">${fold.testMetrics.trades}</td></tr>`;
}

export function walkForwardSection(result: StudyResult): string {
  const wf = result.walkForward;
  if (wf === null) {
    return '<section id="walk-forward"><h2>Walk-forward</h2><p class="note" id="no-walk-forward">This study did not use walk-forward: every trial ran over the whole span.</p></section>';
  }
  const order = result.space.params.map((p) => p.name);
  const head = '<tr><th class="num">Fold</th><th>Train (UTC)</th><th>Test (UTC)</th><th>Best params (train)</th><th class="num">In-sample objective</th>'
    + '<th class="num">Out-of-sample objective</th><th class="num">Test net PnL</th><th class="num">Test trades</th></tr>';
  const table = wf.folds.length === 0
    ? '<p class="note" id="no-folds">No fold finished.</p>'
    : `<div class="scroll"><table id="folds"><thead>${head}</thead><tbody>\n${[...wf.folds].sort((a, b) => a.fold - b.fold).map((f) => foldRow(f, order)).join('\n')}\n</tbody></table></div>`;
  const chart = wf.stitchedEquity.length === 0
    ? '<p class="note" id="no-oos-equity">No out-of-sample equity was recorded.</p>'
    : '<div class="chart" id="chart-oos-equity"></div>'
      + `<p class="legend"><span class="swatch" style="background:${STUDY_COLOURS.oosEquity}"></span>account equity over the test windows only, fold after fold</p>`;
  return [
    `<section id="walk-forward"><h2>Walk-forward (${wf.folds.length} folds, objective ${html(result.objective)})</h2>`,
    table,
    '<h3>Stitched out-of-sample equity</h3>',
    chart,
    '</section>',
  ].join('\n');
}
