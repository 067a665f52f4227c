/**
 * The report's tables, rendered in Node with every text escaped: the summary (total and per
 * strategy), the trade list, the fill list and the run's inputs.
 */
import type { BacktestFill, BacktestMetrics, BacktestTrade } from '../result.js';
import type { ResultHead } from '../result-file.js';
import { escapeHtml as html } from '../../web/html.js';
import { fixed2, percent, signClass, utc } from './format.js';

/** Rows shown per list; the full lists are in result.json. */
export const ROW_LIMIT = 5000;

/** A summary row: its label, the cell's text, whether it is money (signed colour), and the field it shows. */
export type MetricRow = [label: string, cell: (m: BacktestMetrics) => string, money: boolean, field: keyof BacktestMetrics];

/** One row per `BacktestMetrics` field, as the summary shows it (the optimisation report reuses them). */
export const METRIC_ROWS: readonly MetricRow[] = [
  ['Realised PnL before fees', (m) => m.realisedPnl, true, 'realisedPnl'],
  ['Fees paid', (m) => m.fees, false, 'fees'],
  ['Realised PnL after fees', (m) => m.realisedPnlAfterFees, true, 'realisedPnlAfterFees'],
  ['Unrealised PnL (marked at the last price)', (m) => m.unrealisedPnl, true, 'unrealisedPnl'],
  ['Flex earnings', (m) => m.flexEarnings, true, 'flexEarnings'],
  ['Net PnL', (m) => m.netPnl, true, 'netPnl'],
  ['Orders', (m) => String(m.orders), false, 'orders'],
  ['Fills', (m) => String(m.fills), false, 'fills'],
  ['Round trips', (m) => String(m.trades), false, 'trades'],
  ['Win rate', (m) => percent(m.winRate), false, 'winRate'],
  ['Max drawdown', (m) => percent(m.maxDrawdown), false, 'maxDrawdown'],
  ['Exposure', (m) => percent(m.exposure), false, 'exposure'],
  ['Sharpe (daily returns, × √365)', (m) => fixed2(m.sharpeDaily), false, 'sharpeDaily'],
];

/** Below this span a Sharpe ratio of daily returns rests on too few days to mean anything. */
export const SHARPE_MIN_DAYS = 30;

/** Strategy ids in a fixed order, own keys only. */
export function strategyIds(result: ResultHead): string[] {
  return Object.keys(result.strategies).sort();
}

export function summaryTable(result: ResultHead): string {
  const ids = strategyIds(result);
  const columns: BacktestMetrics[] = [result.total, ...ids.map((id) => result.strategies[id] as BacktestMetrics)];
  const head = `<tr><th>Figure</th><th class="num">Total</th>${ids.map((id) => `<th class="num">${html(id)}</th>`).join('')}</tr>`;
  const short = result.inputs.toMs - result.inputs.fromMs < SHARPE_MIN_DAYS * 86_400_000;
  const body = METRIC_ROWS.map(([label, cell, money]) => {
    const sharpe = label.startsWith('Sharpe');
    // Under 30 days the figure is shown but marked: too few daily returns to mean anything.
    const text = (m: BacktestMetrics): string => (sharpe && short && m.sharpeDaily !== null ? `${cell(m)} (not meaningful: under ${SHARPE_MIN_DAYS} days)` : cell(m));
    const cells = columns.map((m) => `<td class="${money ? signClass(cell(m)) : 'num'}">${html(text(m))}</td>`).join('');
    return `<tr><td>${html(label)}</td>${cells}</tr>`;
  }).join('\n');
  return `<table id="summary"><thead>${head}</thead><tbody>\n${body}\n</tbody></table>`;
}

function limitNote(shown: number, total: number, what: string): string {
  if (shown >= total) return '';
  return `<p class="note">The first ${shown} of ${total} ${what} are listed; result.json has them all.</p>`;
}

function tradeRow(t: BacktestTrade, i: number): string {
  const cells = [
    `<td class="num">${i + 1}</td>`, `<td>${html(t.strategy)}</td>`, `<td>${html(t.market)}</td>`, `<td>${html(t.direction)}</td>`,
    `<td>${utc(t.openedMs)}</td>`, `<td>${utc(t.closedMs)}</td>`, `<td class="num">${html(t.amount)}</td>`,
    `<td class="num">${html(t.entryPrice)}</td>`, `<td class="num">${html(t.exitPrice)}</td>`, `<td class="${signClass(t.pnl)}">${html(t.pnl)}</td>`,
  ];
  return `<tr>${cells.join('')}</tr>`;
}

/** The trade list: the first ROW_LIMIT of `trades` (which may hold only those) out of `count`. */
export function tradeTable(trades: readonly BacktestTrade[], count = trades.length): string {
  if (count === 0) return '<p class="note" id="no-trades">No round trip closed during the run.</p>';
  const shown = trades.slice(0, ROW_LIMIT);
  const head = '<tr><th class="num">#</th><th>Strategy</th><th>Market</th><th>Direction</th><th>Opened (UTC)</th><th>Closed (UTC)</th>'
    + '<th class="num">Amount</th><th class="num">Entry</th><th class="num">Exit</th><th class="num">PnL after fees</th></tr>';
  return `${limitNote(shown.length, count, 'round trips')}<div class="scroll"><table id="trades"><thead>${head}</thead><tbody>\n`
    + `${shown.map(tradeRow).join('\n')}\n</tbody></table></div>`;
}

function fillRow(f: BacktestFill): string {
  const cells = [
    `<td>${utc(f.timeMs)}</td>`, `<td>${html(f.strategy)}</td>`, `<td>${html(f.market)}</td>`, `<td>${html(f.side)}</td>`,
    `<td class="num">${html(f.price)}</td>`, `<td class="num">${html(f.amount)}</td>`, `<td class="num">${html(f.fee)}</td>`, `<td><code>${html(f.orderId)}</code></td>`,
  ];
  return `<tr>${cells.join('')}</tr>`;
}

/** The fill list: the first ROW_LIMIT of `fills` (which may hold only those) out of `count`. */
export function fillTable(fills: readonly BacktestFill[], count = fills.length): string {
  const shown = fills.slice(0, ROW_LIMIT);
  const head = '<tr><th>Time (UTC)</th><th>Strategy</th><th>Market</th><th>Side</th><th class="num">Price</th><th class="num">Amount</th>'
    + '<th class="num">Fee</th><th>Order</th></tr>';
  return `<details id="fills-list"><summary>Fills (${count})</summary>${limitNote(shown.length, count, 'fills')}`
    + `<div class="scroll"><table id="fills"><thead>${head}</thead><tbody>\n${shown.map(fillRow).join('\n')}\n</tbody></table></div></details>`;
}

export function inputsTable(result: ResultHead): string {
  const { inputs } = result;
  const rows: Array<[string, string]> = [
    ['Config', `<code>${html(inputs.config)}</code><br><span class="note">SHA-256 </span><code>${html(inputs.configSha256)}</code>`],
    ...inputs.prices.map((p): [string, string] => ['Prices', `<code>${html(p.file)}</code><br><span class="note">SHA-256 </span><code>${html(p.sha256)}</code>`]),
    ['Period (UTC)', `${utc(inputs.fromMs)} → ${utc(inputs.toMs)}`],
    ...Object.keys(inputs.fillModel).sort().map((k): [string, string] => [`Fill model: ${html(k)}`, `<code>${html(inputs.fillModel[k] ?? '')}</code>`]),
  ];
  return `<table id="inputs"><tbody>\n${rows.map(([k, v]) => `<tr><th>${k}</th><td>${v}</td></tr>`).join('\n')}\n</tbody></table>`;
}
