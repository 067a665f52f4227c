/**
 * The dashboard's script (served as `/assets/dashboard.js`; plain browser JavaScript, kept as a
 * string because the build copies only TypeScript). It loads `/api/state`, then follows
 * `/api/events` (server-sent events; the browser reconnects by itself). Everything shown is set
 * with `textContent`, never parsed as HTML, so a strategy id or an alert's text cannot inject
 * markup. Control buttons POST JSON with the `X-Bot-Client: dashboard` header; the session cookie
 * authenticates them (README › Dashboard). Bot-wide actions ask for a second click.
 */
const SCRIPT = String.raw`
'use strict';
(function () {
  var LC = window.LightweightCharts;
  var state = null;
  var charts = null;

  function $(id) { return document.getElementById(id); }
  function el(tag, text, cls) {
    var e = document.createElement(tag);
    if (text !== undefined && text !== null) e.textContent = String(text);
    if (cls) e.className = cls;
    return e;
  }
  function time(ms) { return ms === null || ms === undefined ? '-' : new Date(ms).toLocaleTimeString(); }
  function signed(v) { return v === null || v === undefined ? '' : (v.charAt(0) === '-' ? 'neg' : (/^0(\.0*)?$/.test(v) ? '' : 'pos')); }
  function money(v) { return v === null || v === undefined ? '-' : v; }
  function num(v, cls) { var td = el('td', money(v), 'num ' + (cls || '')); return td; }

  function fill(tbodyParent, rows, render, emptyText) {
    var body = $(tbodyParent).tBodies[0];
    body.replaceChildren();
    if (rows.length === 0) {
      var tr = el('tr');
      var td = el('td', emptyText || 'none', 'empty');
      td.colSpan = $(tbodyParent).tHead.rows[0].cells.length;
      tr.appendChild(td);
      body.appendChild(tr);
      return;
    }
    rows.forEach(function (r) { var tr = render(r); body.appendChild(tr); });
  }
  function row(cells) {
    var tr = el('tr');
    cells.forEach(function (c) { tr.appendChild(c instanceof Node ? c : el('td', c)); });
    return tr;
  }

  function notice(text, isError) {
    var n = $('notice');
    n.textContent = text || '';
    n.className = text ? ('show' + (isError ? ' error' : '')) : '';
  }

  async function control(action, strategy) {
    var res;
    try {
      res = await fetch('/api/control/' + action, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-bot-client': 'dashboard' },
        credentials: 'same-origin',
        body: JSON.stringify(strategy ? { strategy: strategy } : {}),
      });
    } catch (e) {
      notice(action + ': daemon unreachable', true);
      return;
    }
    var body = await res.json().catch(function () { return { message: 'HTTP ' + res.status }; });
    if (res.status === 401) $('login').hidden = false;
    notice(action + (strategy ? ' ' + strategy : '') + ': ' + (body.message || body.result), !res.ok || body.result !== 'ok');
    refresh();
  }

  function armed(button, fire) {
    if (button.classList.contains('armed')) {
      button.classList.remove('armed');
      button.textContent = button.dataset.label;
      fire();
      return;
    }
    button.dataset.label = button.textContent;
    button.textContent = 'Confirm ' + button.textContent.toLowerCase() + '?';
    button.classList.add('armed');
    setTimeout(function () {
      if (!button.classList.contains('armed')) return;
      button.classList.remove('armed');
      button.textContent = button.dataset.label;
    }, 5000);
  }

  document.addEventListener('click', function (ev) {
    var b = ev.target.closest ? ev.target.closest('button[data-action]') : null;
    if (!b) return;
    var action = b.dataset.action;
    var strategy = b.dataset.strategy || null;
    if (strategy === null) armed(b, function () { control(action, null); });
    else control(action, strategy);
  });

  $('login').addEventListener('submit', async function (ev) {
    ev.preventDefault();
    var token = $('token').value.trim();
    var res = await fetch('/api/session', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer ' + token, 'x-bot-client': 'dashboard' },
      credentials: 'same-origin',
      body: '{}',
    }).catch(function () { return null; });
    $('token').value = '';
    if (res && res.ok) { $('login').hidden = true; notice('signed in', false); connect(); refresh(); }
    else notice('sign-in refused: wrong token', true);
  });

  function strategyActions(s) {
    var td = el('td');
    function add(action, label) {
      var b = el('button', label);
      b.type = 'button';
      b.dataset.action = action;
      b.dataset.strategy = s.id;
      td.appendChild(b);
      td.appendChild(document.createTextNode(' '));
    }
    if (s.paused) add('resume', 'Resume'); else add('pause', 'Pause');
    if (s.quarantined) add('unquarantine', 'Unquarantine');
    return td;
  }

  function statusCell(s) {
    var td = el('td');
    if (s.quarantined) td.appendChild(el('span', 'quarantined', 'tag quarantined'));
    if (s.paused) td.appendChild(el('span', 'paused', 'tag paused'));
    if (!s.quarantined && !s.paused) td.appendChild(el('span', 'running', 'tag running'));
    return td;
  }

  function renderStrategies(st) {
    fill('strategies', st.strategies, function (s) {
      var tr = row([el('td', s.id), el('td', s.module), statusCell(s), num(String(s.openOrders)), num(String(s.fills)),
        num(s.realisedGross, signed(s.realisedGross)), num(s.fees), num(s.realisedNet, signed(s.realisedNet)),
        num(s.unrealised, signed(s.unrealised)), el('td', time(s.lastTickMs)), strategyActions(s)]);
      tr.dataset.strategy = s.id;
      tr.dataset.status = s.quarantined ? 'quarantined' : (s.paused ? 'paused' : 'running');
      return tr;
    }, 'no strategies configured');
  }

  function legsCell(legs) {
    var td = el('td');
    if (legs.length === 0) { td.appendChild(el('span', 'none', 'empty')); return td; }
    legs.forEach(function (l) { td.appendChild(el('span', (l.kind === 'stop_loss' ? 'SL ' : 'TP ') + l.price + ' (' + l.state + ')', 'tag')); });
    return td;
  }

  function renderTables(st) {
    fill('positions', st.positions, function (p) {
      return row([el('td', p.strategyId === null ? '(external)' : p.strategyId), el('td', p.market), num(p.base, signed(p.base)), num(p.avgEntry), num(p.last), legsCell(p.legs)]);
    }, 'flat');
    fill('orders', st.openOrders, function (o) {
      return row([el('td', o.clientOrderId), el('td', o.strategyId), el('td', o.market), el('td', o.side, o.side), num(o.amount), num(o.price), num(o.filled), el('td', o.state)]);
    }, 'no open orders');
    fill('fills', st.fills, function (f) {
      var tr = row([el('td', time(f.timeMs)), el('td', f.strategyId === null ? '(external)' : f.strategyId), el('td', f.market), el('td', f.side, f.side), num(f.amount), num(f.price), num(f.fee + ' ' + f.feeAsset), el('td', f.role)]);
      tr.dataset.deal = String(f.dealId);
      return tr;
    }, 'no fills yet');
    fill('alerts', st.alerts, function (a) { return row([el('td', time(a.atMs)), el('td', a.kind), el('td', a.subject), el('td', a.detail)]); }, 'no alerts');
    fill('actions', st.actions, function (a) { return row([el('td', time(a.atMs)), el('td', a.action), el('td', a.target || '-'), el('td', a.who + (a.remote ? ' @ ' + a.remote : '')), el('td', a.result), el('td', a.detail || '')]); }, 'no control actions yet');
    fill('jobs', Object.keys(st.jobs).sort().map(function (k) { return [k, st.jobs[k]]; }), function (j) {
      return row([el('td', j[0]), el('td', time(j[1].lastRunMs)), el('td', j[1].lastOutcome || '-', j[1].lastOutcome === 'failed' ? 'neg' : ''), num(String(j[1].skipped))]);
    });
    fill('pools', Object.keys(st.rateLimits).sort().map(function (k) { return [k, st.rateLimits[k]]; }), function (p) {
      var used = el('td', p[1].used + ' / ' + p[1].limit);
      var meter = el('span', null, 'meter');
      var bar = el('i');
      bar.style.width = Math.min(100, p[1].limit > 0 ? (100 * p[1].used / p[1].limit) : 0) + '%';
      meter.appendChild(bar);
      used.appendChild(meter);
      return row([el('td', p[0]), used, num(String(p[1].queued)), el('td', p[1].paused ? 'paused' : 'no', p[1].paused ? 'neg' : ''), num(String(p[1].refused))]);
    });
  }

  function renderSide(st) {
    var q = st.requestQueue || {};
    $('queue').textContent = 'Store: ' + q.store + (q.storeUp === false ? ' (DOWN)' : '') + (q.nonceCollisionSuspected ? '; second signer suspected' : '');
    var c = st.credit;
    $('credit').textContent = c === null ? 'never checked' : (!c.active ? 'no active loan' :
      c.amount + ' ' + c.asset + ': LTV ' + c.currentLtv + ' (reduce-only at ' + c.reduceOnlyAtLtv + ', resume below ' + c.resumeBelowLtv + ', margin call ' + c.marginCallLtv + ', liquidation ' + c.liquidationLtv + ')');
    var flex = Object.keys(st.flex.earnings).map(function (k) { return st.flex.earnings[k] + ' ' + k; }).join(', ');
    $('flex').textContent = (flex || 'none') + (st.flex.disabled ? ' (job disabled)' : '');
    var e = st.equity;
    var figs = $('equity-figures');
    figs.replaceChildren();
    [['Equity', money(e.current) + ' ' + e.asset], ['Peak', money(e.peak)], ['Drawdown', e.drawdownPct === null ? '-' : e.drawdownPct + ' %']].forEach(function (f) {
      var d = el('div', f[0]);
      d.appendChild(el('b', f[1]));
      figs.appendChild(d);
    });
    renderEquityParts(e);
  }

  // The parts of the equity rule (docs/equity.md) and what it could not value.
  function renderEquityParts(e) {
    var box = $('equity-parts');
    box.replaceChildren();
    if (!e.parts) { box.textContent = 'parts: not recorded yet'; return; }
    [['Available balances', e.parts.balances], ['Held by open orders', e.parts.held], ['Collateral positions', e.parts.positions], ['Flex', e.parts.flex]].forEach(function (f) {
      var d = el('div', f[0]);
      d.appendChild(el('b', money(f[1])));
      box.appendChild(d);
    });
    var unvalued = Object.keys(e.unvalued).map(function (k) { return e.unvalued[k] + ' ' + k; }).join(', ');
    if (unvalued) box.appendChild(el('div', 'Not valued (no price into ' + e.asset + '): ' + unvalued));
    if (e.unmarked.length > 0) box.appendChild(el('div', 'Positions without a price (margin only): ' + e.unmarked.join(', ')));
  }

  function makeCharts() {
    if (!LC) return null;
    var opts = function (h) { return { height: h, autoSize: true, layout: { background: { color: 'transparent' }, textColor: '#8a96a3' }, grid: { vertLines: { color: '#222a33' }, horzLines: { color: '#222a33' } }, timeScale: { timeVisible: true, secondsVisible: true } }; };
    var eq = LC.createChart($('equity-chart'), opts(220));
    var dd = LC.createChart($('drawdown-chart'), opts(110));
    return {
      equity: eq.addSeries(LC.LineSeries, { color: '#58a6ff', lineWidth: 2 }),
      peak: eq.addSeries(LC.LineSeries, { color: '#8a96a3', lineWidth: 1, lineStyle: 2 }),
      drawdown: dd.addSeries(LC.AreaSeries, { lineColor: '#f85149', topColor: 'rgba(248,81,73,0.4)', bottomColor: 'rgba(248,81,73,0.05)', invertFilledArea: false }),
      charts: [eq, dd],
    };
  }

  function renderCharts(st) {
    if (charts === null) charts = makeCharts();
    if (charts === null) return;
    var seen = {};
    var pts = [];
    st.equity.points.forEach(function (p) { var t = Math.floor(p.t / 1000); if (seen[t]) pts[pts.length - 1] = [t, p]; else { seen[t] = true; pts.push([t, p]); } });
    charts.equity.setData(pts.map(function (x) { return { time: x[0], value: Number(x[1].equity) }; }));
    charts.peak.setData(pts.map(function (x) { return { time: x[0], value: Number(x[1].peak) }; }));
    charts.drawdown.setData(pts.map(function (x) { return { time: x[0], value: -Number(x[1].drawdownPct) }; }));
    charts.charts.forEach(function (c) { c.timeScale().fitContent(); });
    window.dashboardChartsDrawn = pts.length;
  }

  function render(st) {
    state = st;
    var ts = $('trading-state');
    ts.textContent = st.tradingState;
    ts.className = st.tradingState;
    $('trading-reason').textContent = st.tradingState === 'ACTIVE' ? '' : '(' + st.tradingStateReason + ')';
    $('updated').textContent = 'updated ' + time(st.nowMs);
    renderStrategies(st);
    renderTables(st);
    renderSide(st);
    renderCharts(st);
    window.dashboardRenders = (window.dashboardRenders || 0) + 1;
  }

  /** Loads the state once; false when the daemon wants a token first (the sign-in form shows). */
  async function refresh() {
    var res = await fetch('/api/state', { credentials: 'same-origin' }).catch(function () { return null; });
    if (res === null) { $('conn').textContent = 'daemon unreachable'; $('conn').className = 'down'; return true; }
    if (res.status === 401) { $('login').hidden = false; $('conn').textContent = 'sign in'; return false; }
    if (res.ok) render(await res.json());
    return true;
  }

  var source = null;
  function connect() {
    if (source !== null) source.close();
    source = new EventSource('/api/events');
    source.addEventListener('state', function (ev) {
      $('conn').textContent = 'live';
      $('conn').className = 'up';
      render(JSON.parse(ev.data));
    });
    source.onerror = function () { $('conn').textContent = 'reconnecting'; $('conn').className = 'down'; };
  }

  refresh().then(function (authorised) { if (authorised) connect(); });
})();
`;

export function dashboardScript(): string {
  return SCRIPT;
}
