/**
 * The dashboard's script (served as `/assets/dashboard.js`, an ES module). It loads `/api/state`,
 * then follows `/api/events` (server-sent events; the browser reconnects by itself). Control
 * buttons POST JSON with the `X-Bot-Client: dashboard` header; the session cookie authenticates
 * them (docs/dashboard.md). Bot-wide actions ask for a second click.
 */
import type { CandleProbe } from './candle-view.js';
import { candleProbe, renderCandles } from './dashboard-candles.js';
import { renderCharts } from './dashboard-charts.js';
import { renderHealth } from './dashboard-health.js';
import type { DashboardState } from './dashboard-state.js';
import { renderTables } from './dashboard-tables.js';
import { byId } from './dom.js';
import { utcTime } from './format.js';

/** What the browser tests read: renders so far, equity points drawn, each candle chart through the library. */
interface PageProbe {
  dashboardRenders?: number;
  dashboardChartsDrawn?: number;
  dashboardCandles?: (market: string) => CandleProbe | null;
}
const probe = window as unknown as PageProbe;
probe.dashboardCandles = candleProbe;

/** How long a bot-wide button waits for its confirming second click. */
const CONFIRM_MS = 5000;

function notice(text: string, isError: boolean): void {
  const n = byId('notice');
  n.textContent = text;
  n.className = text ? `show${isError ? ' error' : ''}` : '';
}

function setConn(text: string, cls: string): void {
  const c = byId('conn');
  c.textContent = text;
  c.className = cls;
}

function render(st: DashboardState): void {
  const ts = byId('trading-state');
  ts.textContent = st.tradingState;
  ts.className = st.tradingState;
  byId('trading-reason').textContent = st.tradingState === 'ACTIVE' ? '' : `(${st.tradingStateReason})`;
  byId('updated').textContent = `updated ${utcTime(st.nowMs)} UTC`;
  renderTables(st);
  renderHealth(st);
  probe.dashboardChartsDrawn = renderCharts(st.equity);
  renderCandles(st);
  probe.dashboardRenders = (probe.dashboardRenders ?? 0) + 1;
}

/** Loads the state once; false when the daemon wants a token first (the sign-in form shows). */
async function refresh(): Promise<boolean> {
  const res = await fetch('/api/state', { credentials: 'same-origin' }).catch(() => null);
  if (res === null) {
    setConn('daemon unreachable', 'down');
    return true;
  }
  if (res.status === 401) {
    byId('login').hidden = false;
    byId('conn').textContent = 'sign in';
    return false;
  }
  if (res.ok) render((await res.json()) as DashboardState);
  return true;
}

let source: EventSource | null = null;
function connect(): void {
  source?.close();
  source = new EventSource('/api/events');
  source.addEventListener('state', (ev) => {
    setConn('live', 'up');
    render(JSON.parse((ev as MessageEvent<string>).data) as DashboardState);
  });
  source.onerror = () => setConn('reconnecting', 'down');
}

async function control(action: string, strategy: string | null): Promise<void> {
  let res: Response;
  try {
    res = await fetch(`/api/control/${action}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-bot-client': 'dashboard' },
      credentials: 'same-origin',
      body: JSON.stringify(strategy ? { strategy } : {}),
    });
  } catch {
    notice(`${action}: daemon unreachable`, true);
    return;
  }
  const body = (await res.json().catch(() => ({ message: `HTTP ${res.status}` }))) as { message?: string; result?: string };
  if (res.status === 401) byId('login').hidden = false;
  notice(`${action}${strategy ? ` ${strategy}` : ''}: ${body.message ?? body.result}`, !res.ok || body.result !== 'ok');
  await refresh();
}

function disarm(button: HTMLButtonElement): void {
  button.classList.remove('armed');
  button.textContent = button.dataset['label'] ?? button.textContent;
}

/** A bot-wide action fires on the second click within CONFIRM_MS. */
function armed(button: HTMLButtonElement, fire: () => void): void {
  if (button.classList.contains('armed')) {
    disarm(button);
    fire();
    return;
  }
  const label = button.textContent ?? '';
  button.dataset['label'] = label;
  button.textContent = `Confirm ${label.toLowerCase()}?`;
  button.classList.add('armed');
  // The browser's own timer: page code has no injected clock.
  window.setTimeout(() => {
    if (button.classList.contains('armed')) disarm(button);
  }, CONFIRM_MS);
}

document.addEventListener('click', (ev) => {
  const b = ev.target instanceof Element ? ev.target.closest<HTMLButtonElement>('button[data-action]') : null;
  if (b === null) return;
  const action = b.dataset['action'] ?? '';
  const strategy = b.dataset['strategy'] ?? null;
  if (strategy === null) armed(b, () => void control(action, null));
  else void control(action, strategy);
});

byId<HTMLFormElement>('login').addEventListener('submit', (ev) => {
  ev.preventDefault();
  void signIn();
});

async function signIn(): Promise<void> {
  const input = byId<HTMLInputElement>('token');
  const token = input.value.trim();
  input.value = '';
  const res = await fetch('/api/session', {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, 'x-bot-client': 'dashboard' },
    credentials: 'same-origin',
    body: '{}',
  }).catch(() => null);
  if (res === null || !res.ok) {
    notice('sign-in refused: wrong token', true);
    return;
  }
  byId('login').hidden = true;
  notice('signed in', false);
  connect();
  await refresh();
}

void refresh().then((authorised) => {
  if (authorised) connect();
});
