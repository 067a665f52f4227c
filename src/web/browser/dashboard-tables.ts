/**
 * The dashboard's trading tables: strategies and their PnL, positions with their protective legs,
 * open orders, recent fills, alerts and control actions. Amounts at their market's precision
 * (the exact value in the tooltip), times in UTC with the date.
 */
import type { DashboardState, LegView, StrategyView } from './dashboard-state.js';
import { el, fill, num, row } from './dom.js';
import { Precision, signClass, utcTime } from './format.js';

function strategyActions(s: StrategyView): HTMLTableCellElement {
  const td = el('td');
  const add = (action: string, label: string): void => {
    const b = el('button', label);
    b.type = 'button';
    b.dataset['action'] = action;
    b.dataset['strategy'] = s.id;
    td.append(b, ' ');
  };
  if (s.paused) add('resume', 'Resume');
  else add('pause', 'Pause');
  if (s.quarantined) add('unquarantine', 'Unquarantine');
  return td;
}

function statusOf(s: StrategyView): 'quarantined' | 'paused' | 'running' {
  if (s.quarantined) return 'quarantined';
  return s.paused ? 'paused' : 'running';
}

function statusCell(s: StrategyView): HTMLTableCellElement {
  const td = el('td');
  if (s.quarantined) td.appendChild(el('span', 'quarantined', 'tag quarantined'));
  if (s.paused) td.appendChild(el('span', 'paused', 'tag paused'));
  if (!s.quarantined && !s.paused) td.appendChild(el('span', 'running', 'tag running'));
  return td;
}

function renderStrategies(st: DashboardState, p: Precision): void {
  const money = (v: string | null): HTMLTableCellElement => num(p.money(v), signClass(v), v);
  fill('strategies', st.strategies, (s) => {
    const tr = row([
      s.id, s.module, statusCell(s), num(String(s.openOrders)), num(String(s.fills)), money(s.realisedGross), num(p.money(s.fees), '', s.fees),
      money(s.realisedNet), money(s.unrealised), utcTime(s.lastTickMs), strategyActions(s),
    ]);
    tr.dataset['strategy'] = s.id;
    tr.dataset['status'] = statusOf(s);
    return tr;
  }, 'no strategies configured');
}

function legsCell(market: string, legs: readonly LegView[], p: Precision): HTMLTableCellElement {
  const td = el('td');
  if (legs.length === 0) td.appendChild(el('span', 'none', 'empty'));
  for (const l of legs) td.appendChild(el('span', `${l.kind === 'stop_loss' ? 'SL' : 'TP'} ${p.price(market, l.price)} (${l.state})`, 'tag'));
  return td;
}

function renderPositions(st: DashboardState, p: Precision): void {
  fill('positions', st.positions, (x) => row([
    x.strategyId ?? '(external)', x.market, num(p.amount(x.market, x.base), signClass(x.base), x.base),
    num(p.price(x.market, x.avgEntry), '', x.avgEntry), num(p.price(x.market, x.last), '', x.last), legsCell(x.market, x.legs, p),
  ]), 'flat');
}

function renderOrders(st: DashboardState, p: Precision): void {
  fill('orders', st.openOrders, (o) => row([
    o.clientOrderId, o.strategyId, o.market, el('td', o.side, o.side), num(p.amount(o.market, o.amount), '', o.amount),
    num(p.price(o.market, o.price), '', o.price), num(p.amount(o.market, o.filled), '', o.filled), o.state,
  ]), 'no open orders');
}

function renderFills(st: DashboardState, p: Precision): void {
  fill('fills', st.fills, (f) => {
    const fee = `${p.fee(f.market, f.feeAsset, st.equity.asset, f.fee)} ${f.feeAsset}`;
    const tr = row([
      utcTime(f.timeMs), f.strategyId ?? '(external)', f.market, el('td', f.side, f.side), num(p.amount(f.market, f.amount), '', f.amount),
      num(p.price(f.market, f.price), '', f.price), num(fee, '', `${f.fee} ${f.feeAsset}`), f.role,
    ]);
    tr.dataset['deal'] = String(f.dealId);
    return tr;
  }, 'no fills yet');
}

function renderLogs(st: DashboardState): void {
  fill('alerts', st.alerts, (a) => row([utcTime(a.atMs), a.kind, a.subject, a.detail]), 'no alerts');
  fill('actions', st.actions, (a) => row([
    utcTime(a.atMs), a.action, a.target ?? '-', a.who + (a.remote ? ` @ ${a.remote}` : ''), a.result, a.detail ?? '',
  ]), 'no control actions yet');
}

export function renderTables(st: DashboardState): void {
  const p = new Precision(st.markets);
  renderStrategies(st, p);
  renderPositions(st, p);
  renderOrders(st, p);
  renderFills(st, p);
  renderLogs(st);
}
