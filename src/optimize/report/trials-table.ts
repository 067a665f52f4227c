/**
 * The trials table: one row per trial, one column per param, then the objective, the tuned
 * strategy's main figures and the trial's window. Every cell carries its sort key (`data-k`, the
 * value's rank in its column, sort-keys.ts); the page script sorts on a header click.
 */
import { dec } from '../../core/decimal.js';
import { fixed2, percent, signClass } from '../../backtest/report/format.js';
import { escapeHtml as html } from '../../web/html.js';
import type { StudyResult } from '../types.js';
import { fixed4, paramText, windowText } from './format.js';
import { sortRanks, type SortValue } from './sort-keys.js';

/** Rows shown at most; a larger study shows its best trials by objective (result.json has them all). */
export const TRIAL_ROW_LIMIT = 5000;

export type Trial = StudyResult['trials'][number];

interface Column {
  head: string;
  num: boolean;
  value: (t: Trial) => SortValue;
  text: (t: Trial) => string;
  /** Extra classes of the cell (the sign of a money figure). */
  cls?: (t: Trial) => string;
  /** The exact value, as the cell's tooltip, when the text rounds it. */
  exact?: (t: Trial) => string | null;
}

function paramColumn(name: string): Column {
  const get = (t: Trial): SortValue => (Object.hasOwn(t.params, name) ? (t.params[name] ?? null) : null);
  return { head: name, num: false, value: get, text: (t) => { const v = get(t); return v === null ? '—' : paramText(v); } };
}

export function trialColumns(result: StudyResult): Column[] {
  return [
    { head: '#', num: true, value: (t) => t.index, text: (t) => String(t.index) },
    ...result.space.params.map((p) => paramColumn(p.name)),
    { head: `Objective (${result.objective})`, num: true, value: (t) => t.objective, text: (t) => fixed4(t.objective), exact: (t) => t.objective },
    { head: 'Net PnL', num: true, value: (t) => t.metrics.netPnl, text: (t) => t.metrics.netPnl, cls: (t) => signClass(t.metrics.netPnl) },
    { head: 'Trades', num: true, value: (t) => t.metrics.trades, text: (t) => String(t.metrics.trades) },
    { head: 'Max drawdown', num: true, value: (t) => t.metrics.maxDrawdown, text: (t) => percent(t.metrics.maxDrawdown), exact: (t) => t.metrics.maxDrawdown },
    { head: 'Sharpe', num: true, value: (t) => t.metrics.sharpeDaily, text: (t) => fixed2(t.metrics.sharpeDaily), exact: (t) => t.metrics.sharpeDaily },
    { head: 'Window (UTC)', num: false, value: (t) => t.window.fromMs, text: (t) => windowText(t.window) },
    { head: 'Fold', num: true, value: (t) => t.window.fold, text: (t) => (t.window.fold === null ? '—' : String(t.window.fold)) },
    { head: 'Phase', num: false, value: (t) => t.window.phase, text: (t) => t.window.phase },
  ];
}

/** The trials listed: all of them in index order, or the best `limit` by objective (no objective last). */
export function shownTrials(trials: readonly Trial[], limit = TRIAL_ROW_LIMIT): Trial[] {
  const byIndex = [...trials].sort((a, b) => a.index - b.index);
  if (byIndex.length <= limit) return byIndex;
  const best = [...byIndex].sort((a, b) => {
    if (a.objective === null || b.objective === null) return (a.objective === null ? 1 : 0) - (b.objective === null ? 1 : 0);
    return dec(b.objective).comparedTo(dec(a.objective));
  });
  const keep = new Set(best.slice(0, limit));
  return byIndex.filter((t) => keep.has(t));
}

function cell(c: Column, t: Trial, rank: number | null): string {
  const cls = [c.num ? 'num' : '', c.cls?.(t) ?? ''].join(' ').trim();
  const exact = c.exact?.(t) ?? null;
  const title = exact !== null && exact !== c.text(t) ? ` title="${html(exact)}"` : '';
  return `<td${cls === '' ? '' : ` class="${html(cls)}"`} data-k="${rank === null ? '' : rank}"${title}>${html(c.text(t))}</td>`;
}

export function trialsTable(result: StudyResult): string {
  if (result.trials.length === 0) return '<p class="note" id="no-trials">No trial finished: there is nothing to list.</p>';
  const shown = shownTrials(result.trials);
  const columns = trialColumns(result);
  const ranks = columns.map((c) => sortRanks(shown.map(c.value)));
  const head = columns.map((c, i) => `<th class="sortable${c.num ? ' num' : ''}" data-col="${i}" aria-sort="none" tabindex="0">${html(c.head)}</th>`).join('');
  const rows = shown.map((t, r) => `<tr>${columns.map((c, i) => cell(c, t, ranks[i]?.[r] ?? null)).join('')}</tr>`);
  const note = shown.length < result.trials.length
    ? `<p class="note">The ${shown.length} best of ${result.trials.length} trials by objective are listed; result.json has them all.</p>`
    : '';
  return `${note}<p class="note">Click a column's header to sort by it (again to reverse); trials without a value stay last.</p>`
    + `<div class="scroll"><table id="trials"><thead><tr>${head}</tr></thead><tbody>\n${rows.join('\n')}\n</tbody></table></div>`;
}
