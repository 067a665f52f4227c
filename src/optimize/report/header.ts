/**
 * The top of the study report: what was searched and over which inputs (hashes shortened, the
 * full hash in the tooltip), how many trials ran and failed, the overfitting flags (prominent:
 * they say when the best params should not be trusted) and the failed trials' errors.
 */
import { escapeHtml as html } from '../../web/html.js';
import type { StudyResult, TrialWindow } from '../types.js';
import { paramsText, shortHash, studySpan, windowText } from './format.js';

function hashCell(sha256: string): string {
  return `<code title="${html(sha256)}">${html(shortHash(sha256))}</code>`;
}

function phaseCounts(result: StudyResult): string {
  const counts = new Map<TrialWindow['phase'], number>();
  for (const t of result.trials) counts.set(t.window.phase, (counts.get(t.window.phase) ?? 0) + 1);
  const parts = (['full', 'train', 'test'] as const).filter((p) => counts.has(p)).map((p) => `${counts.get(p)} ${p}`);
  return result.walkForward === null || parts.length === 0 ? '' : ` (${parts.join(', ')})`;
}

function failureCount(result: StudyResult): string {
  if (result.failures === undefined) return '<span class="note">not recorded in this result</span>';
  const n = result.failures.length;
  return n === 0 ? '0' : `<b class="bad">${n}</b> (listed below)`;
}

export function headerTable(result: StudyResult): string {
  const { inputs } = result;
  const span = studySpan([...result.trials.map((t) => t.window), ...(result.failures ?? []).map((f) => f.window)]);
  const flags = inputs.backtestFlags.length === 0 ? '<span class="note">none</span>' : `<code>${html(inputs.backtestFlags.join(' '))}</code>`;
  const rows: Array<[string, string]> = [
    ['Study', `<code>${html(result.study)}</code>`],
    ['Objective', html(result.objective)],
    ['Search', `${html(result.search)}, seed ${result.seed}`],
    ['Strategy', `<code>${html(inputs.strategy)}</code>, module SHA-256 ${hashCell(inputs.strategySha256)}`],
    ['Config', `SHA-256 ${hashCell(inputs.configSha256)}`],
    ['Prices', `<code>${html(inputs.prices)}</code>, SHA-256 ${hashCell(inputs.pricesSha256)}`],
    ['Backtest flags', flags],
    ['Span (UTC)', span === null ? '—' : html(windowText(span))],
    ['Trials', `${result.trials.length}${phaseCounts(result)}`],
    ['Failed trials', failureCount(result)],
  ];
  return `<table id="study"><tbody>\n${rows.map(([k, v]) => `<tr><th>${k}</th><td>${v}</td></tr>`).join('\n')}\n</tbody></table>`;
}

export function flagsSection(result: StudyResult): string {
  if (result.flags.length === 0) {
    return '<section id="flags" class="flags-none"><h2>Overfitting flags</h2><p id="no-flags">No overfitting flag was raised.</p></section>';
  }
  const items = result.flags.map((f) => {
    // The optimiser's own messages may name their fold already: it is not said twice.
    const where = f.fold === null || f.message.startsWith(`fold ${f.fold}:`) ? '' : ` <span class="fold">fold ${f.fold}</span>`;
    return `<li><code>${html(f.code)}</code>${where}: ${html(f.message)}</li>`;
  });
  return `<section id="flags" class="flags" role="alert"><h2>⚠ Overfitting flags (${result.flags.length})</h2>`
    + `<ul>\n${items.join('\n')}\n</ul><p class="note">The best parameters below may not hold outside the data they were chosen on.</p></section>`;
}

export function failuresSection(result: StudyResult): string {
  const failures = result.failures ?? [];
  if (failures.length === 0) return '';
  const order = result.space.params.map((p) => p.name);
  const rows = [...failures].sort((a, b) => a.index - b.index).map((f) => `<tr><td class="num">${f.index}</td><td><code>${html(paramsText(f.params, order))}</code></td>`
    + `<td>${html(windowText(f.window))} ${html(f.window.phase)}${f.window.fold === null ? '' : ` fold ${f.window.fold}`}</td><td class="error">${html(f.error)}</td></tr>`);
  return `<section id="failures"><h2>Failed trials (${failures.length})</h2><div class="scroll"><table id="failed-trials"><thead><tr><th class="num">#</th>`
    + `<th>Params</th><th>Window (UTC)</th><th>Error</th></tr></thead><tbody>\n${rows.join('\n')}\n</tbody></table></div></section>`;
}
