/**
 * The dashboard's figures beside the tables: equity and the parts of its rule (docs/equity.md),
 * jobs, request pools, the credit line, flex earnings and the request queue.
 */
import type { DashboardState, EquityView } from './dashboard-state.js';
import { byId, el, figures, fill, num, row } from './dom.js';
import { Precision, utcTime } from './format.js';

function renderEquity(e: EquityView, p: Precision): void {
  figures('equity-figures', [
    ['Equity', `${p.money(e.current)} ${e.asset}`],
    ['Peak', p.money(e.peak)],
    ['Drawdown', e.drawdownPct === null ? '-' : `${e.drawdownPct} %`],
  ]);
  if (e.parts === null) {
    byId('equity-parts').textContent = 'parts: not recorded yet';
    return;
  }
  const box = figures('equity-parts', [
    ['Available balances', p.money(e.parts.balances)],
    ['Held by open orders', p.money(e.parts.held)],
    ['Collateral positions', p.money(e.parts.positions)],
    ['Flex', p.money(e.parts.flex)],
  ]);
  const unvalued = Object.entries(e.unvalued ?? {}).map(([asset, v]) => `${v} ${asset}`).join(', ');
  if (unvalued) box.appendChild(el('div', `Not valued (no price into ${e.asset}): ${unvalued}`));
  if (e.unmarked !== null && e.unmarked.length > 0) box.appendChild(el('div', `Positions without a price (margin only): ${e.unmarked.join(', ')}`));
}

function renderJobs(st: DashboardState): void {
  const jobs = Object.keys(st.jobs).sort().map((k) => [k, st.jobs[k]] as const);
  fill('jobs', jobs, ([name, j]) => row([
    name, utcTime(j?.lastRunMs), el('td', j?.lastOutcome ?? '-', j?.lastOutcome === 'failed' ? 'neg' : ''), num(String(j?.skipped ?? 0)),
  ]));
}

function renderPools(st: DashboardState): void {
  const pools = Object.keys(st.rateLimits).sort().map((k) => [k, st.rateLimits[k]] as const);
  fill('pools', pools, ([name, pool]) => {
    if (pool === undefined) return row([name]);
    const used = el('td', `${pool.used} / ${pool.limit}`);
    const meter = el('span', null, 'meter');
    const bar = el('i');
    bar.style.width = `${Math.min(100, pool.limit > 0 ? (100 * pool.used) / pool.limit : 0)}%`;
    meter.appendChild(bar);
    used.appendChild(meter);
    return row([name, used, num(String(pool.queued)), el('td', pool.paused ? 'paused' : 'no', pool.paused ? 'neg' : ''), num(String(pool.refused))]);
  });
}

function creditText(st: DashboardState): string {
  const c = st.credit;
  if (c === null) return 'never checked';
  if (!c.active) return 'no active loan';
  return `${c.amount} ${c.asset}: LTV ${c.currentLtv} (reduce-only at ${c.reduceOnlyAtLtv}, resume below ${c.resumeBelowLtv}, `
    + `margin call ${c.marginCallLtv}, liquidation ${c.liquidationLtv})`;
}

export function renderHealth(st: DashboardState): void {
  const p = new Precision(st.markets);
  const q = st.requestQueue;
  byId('queue').textContent = `Store: ${q.store}${q.storeUp === false ? ' (DOWN)' : ''}${q.nonceCollisionSuspected ? '; second signer suspected' : ''}`;
  byId('credit').textContent = creditText(st);
  const flex = Object.entries(st.flex.earnings).map(([asset, v]) => `${asset === st.equity.asset ? p.money(v) : v} ${asset}`).join(', ');
  byId('flex').textContent = (flex || 'none') + (st.flex.disabled ? ' (job disabled)' : '');
  renderEquity(st.equity, p);
  renderJobs(st);
  renderPools(st);
}
