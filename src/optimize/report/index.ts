/**
 * The optimisation study's HTML report (`report.html` beside `result.json`, docs/optimize-report.md):
 * one self-contained file like the backtest report (charting library, styles, data and script
 * inlined, a CSP that allows no request), byte-identical for the same result. Every text from the
 * result is escaped: param names and string values come from the user's space file.
 */
import { page } from '../../backtest/report/page.js';
import { requireBrowserModule } from '../../web/browser-code.js';
import { chartLibrarySource } from '../../web/chart-library.js';
import { CHART_ATTRIBUTION_HTML, escapeHtml as html, jsonForScript } from '../../web/html.js';
import type { StudyResult } from '../types.js';
import { bestSection } from './best.js';
import { studyChartData } from './chart-data.js';
import { failuresSection, flagsSection, headerTable } from './header.js';
import { scatterSection } from './scatter.js';
import { STUDY_STYLES } from './styles.js';
import { trialsTable } from './trials-table.js';
import { walkForwardSection } from './walk-forward.js';

export { STUDY_COLOURS } from './colours.js';

function body(result: StudyResult): string {
  return [
    '<h1>Optimisation report</h1>',
    `<p class="sub">Study <code>${html(result.study)}</code> · strategy <code>${html(result.inputs.strategy)}</code> · objective ${html(result.objective)}</p>`,
    `<section id="study-section"><h2>Study</h2>\n${headerTable(result)}\n</section>`,
    flagsSection(result),
    bestSection(result),
    `<section id="objective-section"><h2>Objective against each parameter</h2>\n${scatterSection(result)}\n</section>`,
    `<section id="trials-section"><h2>Trials (${result.trials.length})</h2>\n${trialsTable(result)}\n</section>`,
    walkForwardSection(result),
    failuresSection(result),
    '<p class="note">Amounts in the quote currency, exact. Figures: docs/backtest-metrics.md; the study: docs/optimize-report.md.</p>',
    `<footer>${CHART_ATTRIBUTION_HTML}</footer>`,
  ].filter((part) => part !== '').join('\n');
}

/** The report of `result` as one HTML document. */
export function renderStudyReport(result: StudyResult): string {
  return page({
    title: html(`Optimisation report ${result.study}`),
    body: body(result),
    styles: STUDY_STYLES,
    dataJson: jsonForScript(studyChartData(result)),
    scripts: [chartLibrarySource()],
    // The page script (src/web/browser/study-report.ts, built); "</script" could not end it early.
    moduleScript: requireBrowserModule('study-report').replace(/<\/script/gi, '<\\/script'),
  });
}
