/**
 * The text layout of `npm run status`: one heading per section and aligned columns, rendered from
 * the same object `--json` prints (src/cli/status-model.ts), so both always say the same.
 */
import type { Json } from './status-model.js';

type Obj = Record<string, Json>;
type Cell = string | number | null;

/** Columns padded to their widest cell; `right` columns (numbers) are right-aligned. */
export function table(headers: readonly string[], rows: readonly Cell[][], right: ReadonlySet<number> = new Set()): string[] {
  const text = rows.map((r) => r.map((c) => (c === null ? '-' : String(c))));
  const widths = headers.map((h, i) => Math.max(h.length, ...text.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]): string =>
    `  ${cells.map((c, i) => (right.has(i) ? c.padStart(widths[i] ?? 0) : c.padEnd(widths[i] ?? 0))).join('  ')}`.trimEnd();
  return [line(headers), ...text.map(line)];
}

/** 75 s → `1m15s`; a whole day and more → `2d3h`. */
export function age(ms: number): string {
  const sec = Math.max(0, Math.floor(ms / 1000));
  if (sec < 60) return `${sec}s`;
  if (sec < 3600) return `${Math.floor(sec / 60)}m${String(sec % 60).padStart(2, '0')}s`;
  if (sec < 86_400) return `${Math.floor(sec / 3600)}h${String(Math.floor((sec % 3600) / 60)).padStart(2, '0')}m`;
  return `${Math.floor(sec / 86_400)}d${Math.floor((sec % 86_400) / 3600)}h`;
}

const iso = (ms: Json | undefined): string => (typeof ms === 'number' ? new Date(ms).toISOString() : '-');
const str = (v: Json | undefined): string => (v === null || v === undefined ? '-' : typeof v === 'object' ? JSON.stringify(v) : String(v));
const pairs = (m: Json | undefined): string =>
  Object.entries((m ?? {}) as Record<string, Json>)
    .map(([k, v]) => `${str(v)} ${k}`)
    .join(', ') || 'none';

function header(st: Obj): string[] {
  const ts = st['tradingState'] as Obj;
  const q = st['quarantined'] as Obj[];
  const paused = (st['paused'] ?? []) as Obj[];
  const warmUp = (st['warmUp'] ?? []) as Obj[];
  return [
    `Data dir: ${str(st['dataDir'])} (mode: ${str(st['mode'] ?? 'not read, --data-dir given')})`,
    `Trading state: ${str(ts['state'])} (${str(ts['reason'])}${ts['sinceMs'] === null ? '' : `, since ${iso(ts['sinceMs'])}`})`,
    `Quarantined: ${q.length === 0 ? 'none' : q.map((r) => `${str(r['strategyId'])} (${str(r['reason'])})`).join('; ')}`,
    `Paused: ${paused.length === 0 ? 'none' : paused.map((r) => `${str(r['strategyId'])} (since ${iso(r['atMs'])}, by ${str(r['by'])})`).join('; ')}`,
    `Warm-up: ${warmUp.length === 0 ? 'none' : warmUp.map((w) => `${str(w['strategyId'])} ${str(w['market'])} ${str(w['timeframe'])} ${str(w['have'])} of ${str(w['want'])} candles`).join('; ')}`,
    `Last reconciliation: ${str(st['reconciledAt'] ?? 'never')}`,
  ];
}

function ordersText(st: Obj): string[] {
  const o = st['orders'] as { byState: Record<string, number>; open: Obj[]; unresolved: Obj[] };
  const counts = Object.entries(o.byState).sort().map(([k, v]) => `${k} ${v}`).join(', ') || 'none';
  const out = ['', `Orders by state: ${counts}`, `Open orders (${o.open.length}):`];
  if (o.open.length === 0) return out;
  const rows = o.open.map((r) => [r['clientOrderId'], r['strategyId'], r['market'], r['side'], r['price'], r['amount'], r['filled'], r['state'], age(r['ageMs'] as number)] as Cell[]);
  return [...out, ...table(['ID', 'STRATEGY', 'MARKET', 'SIDE', 'PRICE', 'AMOUNT', 'FILLED', 'STATE', 'AGE'], rows, new Set([4, 5, 6, 8]))];
}

function fillsText(st: Obj): string[] {
  const f = st['fills'] as { count: number; recent: Obj[] };
  const out = ['', `Fills: ${f.count}; most recent (${f.recent.length}):`];
  if (f.recent.length === 0) return out;
  const rows = f.recent.map((r) => [iso(r['timeMs']), r['strategyId'] ?? '(external)', r['market'], r['side'], r['price'], r['amount'], `${str(r['fee'])} ${str(r['feeAsset'])}`.trim(), r['role']] as Cell[]);
  return [...out, ...table(['TIME', 'STRATEGY', 'MARKET', 'SIDE', 'PRICE', 'AMOUNT', 'FEE', 'ROLE'], rows, new Set([4, 5]))];
}

function accountText(st: Obj): string[] {
  const a = st['account'] as Obj | null;
  if (a === null) return ['', 'Balances and equity: not recorded yet (the daemon records them at each equity check)'];
  return [
    '',
    `Balances (as of ${iso(a['atMs'])}, the daemon's last equity check):`,
    ...table(['ASSET', 'AMOUNT'], Object.entries(a['balances'] as Record<string, string>).map(([k, v]) => [k, v]), new Set([1])),
    `Equity: ${str(a['equity'])} ${str(a['equityAsset'])} (peak ${str(a['peakEquity'])}, drawdown ${str(a['drawdownPct'])} %)`,
    ...partsText(a),
  ];
}

/** The equity rule's parts (docs/equity.md) and what it could not value. */
function partsText(a: Obj): string[] {
  const parts = a['equityParts'] as Record<string, string> | null;
  if (parts === null) return ['  parts: not recorded (the daemon that wrote this check predates them)'];
  const out = [
    `  = available balances ${str(parts['balances'])} + held by open orders ${str(parts['held'])} + collateral positions ${str(parts['positions'])} + flex ${str(parts['flex'])}`,
  ];
  const unvalued = Object.entries(a['unvalued'] as Record<string, string>);
  if (unvalued.length > 0) out.push(`  not valued (no price into ${str(a['equityAsset'])}, left out): ${unvalued.map(([k, v]) => `${v} ${k}`).join(', ')}`);
  const unmarked = a['unmarkedPositions'] as string[];
  if (unmarked.length > 0) out.push(`  positions without a price (counted at their margin only): ${unmarked.join(', ')}`);
  return out;
}

function positionsText(st: Obj): string[] {
  const ps = st['positions'] as Obj[];
  const pnl = st['pnl'] as { markSource: string; totals: Obj[] };
  const out = ['', `Positions (unrealised PnL marked at: ${pnl.markSource}):`];
  if (ps.length > 0) {
    const rows = ps.map((p) => [p['strategyId'] ?? '(external)', p['market'], p['base'], p['avgEntry'], p['markPrice'], p['unrealisedPnl'], p['realisedPnlBeforeFees'], p['feesInQuote'], p['realisedPnlAfterFees']] as Cell[]);
    const heads = ['STRATEGY', 'MARKET', 'BASE', 'AVG ENTRY', 'MARK', 'UNREALISED', 'REALISED BEFORE FEES', 'FEES', 'REALISED AFTER FEES'];
    out.push(...table(heads, rows, new Set([2, 3, 4, 5, 6, 7, 8])));
  }
  for (const t of pnl.totals) {
    out.push(
      `Total ${str(t['quoteAsset'])}: realised ${str(t['realisedPnlBeforeFees'])} before fees, fees ${str(t['fees'])}, ` +
        `realised ${str(t['realisedPnlAfterFees'])} after fees, unrealised ${str(t['unrealisedPnl'])}`,
    );
  }
  const unvalued = ps.filter((p) => Object.keys(p['feesNotValued'] as Obj).length > 0);
  for (const p of unvalued) out.push(`  fees not in the totals (${str(p['market'])}): ${pairs(p['feesNotValued'])}`);
  return out;
}

function alertsText(st: Obj): string[] {
  const a = st['alerts'] as { count: number; recent: Obj[] };
  const out = ['', `Alerts: ${a.count}; most recent (${a.recent.length}):`];
  if (a.recent.length === 0) return out;
  return [...out, ...table(['TIME', 'KIND', 'SUBJECT', 'DETAIL'], a.recent.map((r) => [iso(r['atMs']), r['kind'], r['subject'], str(r['detail']).slice(0, 100)] as Cell[]))];
}

function creditLine(c: Obj | null): string {
  if (c === null) return 'never checked';
  if (c['active'] !== true) return 'no active loan';
  return `${str(c['amount'])} ${str(c['asset'])}, LTV ${str(c['currentLtv'])} (margin call ${str(c['marginCallLtv'])})`;
}

function otherText(st: Obj): string[] {
  const fl = st['flex'] as Obj;
  return [
    '',
    `Flex earnings: ${pairs(fl['earnings'])}${fl['disabled'] === null ? '' : ' (job disabled)'}`,
    `Credit line: ${creditLine(st['credit'] as Obj | null)}`,
  ];
}

/** The last balance audit: outcome and window, then each asset it judged beyond `explained`, or every asset when any is unexplained. */
function auditText(st: Obj): string[] {
  const a = st['audit'] as Obj | null | undefined;
  if (a == null) return ['', 'Balance audit: not run yet'];
  const window = a['fromMs'] === null ? '' : ` (window from ${iso(a['fromMs'])})`;
  const out = ['', `Balance audit: ${str(a['outcome'])} at ${iso(a['atMs'])}${window}`];
  const assets = a['assets'] as Obj[];
  const shown = a['outcome'] === 'unexplained' ? assets : assets.filter((r) => r['verdict'] !== 'explained');
  if (shown.length === 0) return out;
  const rows = shown.map((r) => [r['asset'], r['verdict'], r['actual'], r['expected'], r['difference'], r['allowed'], iso(r['fromMs'])] as Cell[]);
  return [...out, ...table(['ASSET', 'VERDICT', 'ACTUAL CHANGE', 'EXPECTED CHANGE', 'DIFFERENCE', 'ALLOWED', 'SINCE'], rows, new Set([2, 3, 4, 5]))];
}

export function renderText(st: Obj): string {
  return [...header(st), ...ordersText(st), ...fillsText(st), ...accountText(st), ...positionsText(st), ...alertsText(st), ...otherText(st), ...auditText(st)].join('\n');
}
