/**
 * The control API over real HTTP (the daemon's health server with the console's routes), a real
 * SQLite store and the real trading-state controller: authentication (missing / wrong token,
 * session cookie rules), the CSRF defences (content type, Origin, Sec-Fetch-Site), each action's
 * effect and its stored record, reads on loopback and beyond it, and the event stream.
 */
import { Writable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SystemClock } from '../../../src/core/clock.js';
import { dec } from '../../../src/core/decimal.js';
import { createConsole, PauseRegistry, type Console, type ConsoleRunner } from '../../../src/console/index.js';
import { writeAccount } from '../../../src/engine/status-records.js';
import { MAX_SSE_CLIENTS } from '../../../src/console/events.js';
import { TradingStateController } from '../../../src/engine/trading-state.js';
import { createLogger, silentLogger, type Logger } from '../../../src/observability/logger.js';
import { startHealthServer, type HealthServer } from '../../../src/observability/health.js';
import { openStore, type Store } from '../../../src/store/index.js';
import { tempDir } from '../../support/temp-dir.js';
import { eventually } from '../../support/eventually.js';

const TOKEN = 'test-token-0123456789abcdefghijkl';

class FakeRunner implements ConsoleRunner {
  quarantined = false;
  constructor(readonly id: string) {}
  release(): { code: string } | null {
    if (!this.quarantined) return null;
    this.quarantined = false;
    return { code: 'threw' };
  }
}

interface Harness {
  store: Store;
  ts: TradingStateController;
  console: Console;
  server: HealthServer;
  base: string;
  runners: Map<string, FakeRunner>;
  cancelled: string[];
  peakResets: number;
  logs: string[];
}

let h: Harness;
const clock = new SystemClock();

function addOpenOrder(store: Store, id: string, strategyId: string): void {
  store.orders.insertPending(
    { clientOrderId: id, strategyId, kind: 'limit', market: 'BTC_USDT', side: 'buy', amount: dec('0.001'), price: dec('50000'), postOnly: true, ioc: false, rpi: false },
    clock.now(),
  );
  store.orders.setState(id, 'PENDING', 'OPEN', 'placed', clock.now(), { orderId: Math.floor(Math.random() * 1e9) });
}

function capture(): { logger: Logger; lines: string[] } {
  const lines: string[] = [];
  const dest = new Writable({ write: (c: Buffer, _e, cb) => (lines.push(c.toString()), cb()) });
  return { logger: createLogger({ level: 'info', destination: dest as never }), lines };
}

async function start(opts: { loopbackOnly?: boolean; configuredToken?: string | null; mode?: 'paper' | 'live' } = {}): Promise<Harness> {
  const dataDir = tempDir('v4bot-console-');
  const store = openStore({ dataDir, clock, logger: silentLogger() });
  const { logger, lines } = capture();
  const ts = new TradingStateController(store, clock, silentLogger());
  const runners = new Map([['grid1', new FakeRunner('grid1')], ['trend1', new FakeRunner('trend1')]]);
  const harness = { store, ts, runners, cancelled: [] as string[], peakResets: 0, logs: lines } as unknown as Harness;
  const loopbackOnly = opts.loopbackOnly ?? true;
  harness.console = createConsole({
    mode: opts.mode ?? 'paper',
    dataDir,
    loopbackOnly,
    configuredToken: opts.configuredToken === undefined ? TOKEN : opts.configuredToken,
    equityAsset: 'USDT',
    markets: { BTC_USDT: { tick: dec('0.01'), step: dec('0.000001') } },
    clock,
    logger,
    store,
    pauses: new PauseRegistry(store.console),
    runners,
    strategies: [{ id: 'grid1', module: 'spot-grid' }, { id: 'trend1', module: 'collateral-signal' }],
    tradingState: ts,
    halt: (reason) => ts.set('HALTED', reason),
    resetPeak: () => void harness.peakResets++,
    onFill: () => undefined,
    cancelAll: async (id) => {
      harness.cancelled.push(id);
      const out = store.orders.listByStrategy(id, ['OPEN']).map((o) => {
        store.orders.setState(o.clientOrderId, 'OPEN', 'CANCELLED', 'cancel confirmed', clock.now());
        return { status: 'cancelled' };
      });
      return out;
    },
    setQuarantined: () => undefined,
    source: {
      jobs: () => ({ 'strategy:grid1': { lastRunMs: 1, lastOutcome: 'ran', skipped: 0 } }),
      reconcile: () => ({ ok: true, lastSuccessMs: 1, lastError: null }),
      prices: async () => ({ BTC_USDT: { base: 'BTC', last: dec('60000') } }),
      rateLimits: () => ({ orders: { limit: 8000, used: 3, queued: 0, paused: false, refused: 0 } }),
      requestQueue: () => ({ store: 'local', storeUp: true }),
    },
  });
  const c = harness.console;
  harness.server = await startHealthServer({
    port: 0,
    host: '127.0.0.1',
    health: () => ({ status: 'ok', mode: 'paper', tradingState: ts.get(), reconcile: { ok: true, lastSuccessMs: 1, lastError: null }, jobs: {}, unknownOrders: 0, quarantined: [], clockSkewMs: null, nowMs: 1, reasons: [] }),
    metrics: async () => 'm 1\n',
    metricsContentType: 'text/plain',
    admit: (req) => c.http.mayRead(req),
    routes: (req, res) => c.http.handle(req, res),
  });
  harness.base = `http://127.0.0.1:${harness.server.port}`;
  return harness;
}

beforeEach(async () => {
  h = await start();
});

afterEach(async () => {
  h.console.close();
  await h.server.close();
  h.store.close();
});

const JSON_HEADERS = { 'content-type': 'application/json' };

function post(action: string, body: unknown, headers: Record<string, string> = { ...JSON_HEADERS, authorization: `Bearer ${TOKEN}`, 'x-bot-client': 'cli' }): Promise<Response> {
  return fetch(`${h.base}/api/control/${action}`, { method: 'POST', headers, body: JSON.stringify(body) });
}

async function answer(r: Response): Promise<{ status: number; result: string; message: string }> {
  const body = (await r.json()) as { result: string; message: string };
  return { status: r.status, ...body };
}

describe('control API: authentication and CSRF', () => {
  it('answers 401 without a token and with a wrong one, and changes nothing', async () => {
    const missing = await answer(await post('halt', {}, JSON_HEADERS));
    expect(missing.status).toBe(401);
    expect(missing.message).toContain('missing token');
    const wrong = await answer(await post('halt', {}, { ...JSON_HEADERS, authorization: `Bearer ${TOKEN}x` }));
    expect(wrong.status).toBe(401);
    expect(wrong.message).toBe('wrong token');
    const short = await answer(await post('halt', {}, { ...JSON_HEADERS, authorization: 'Bearer x' }));
    expect(short.status).toBe(401);
    expect(h.ts.get()).toBe('ACTIVE');
    expect(h.store.console.recentActions(10)).toEqual([]);
    // The refusal is logged without the token.
    expect(h.logs.join('')).toContain('control request refused');
    expect(h.logs.join('')).not.toContain(TOKEN);
  });

  it('refuses a cross-origin POST (Origin or Sec-Fetch-Site) even with the right token', async () => {
    const auth = { ...JSON_HEADERS, authorization: `Bearer ${TOKEN}` };
    const origin = await answer(await post('halt', {}, { ...auth, origin: 'http://evil.example' }));
    expect(origin).toMatchObject({ status: 403, message: 'cross-origin request refused' });
    const site = await answer(await post('halt', {}, { ...auth, 'sec-fetch-site': 'cross-site' }));
    expect(site.status).toBe(403);
    const same = await answer(await post('pause', { strategy: 'grid1' }, { ...auth, origin: h.base, 'sec-fetch-site': 'same-origin' }));
    expect(same.status).toBe(200);
    expect(h.ts.get()).toBe('ACTIVE');
  });

  it('refuses a wrong content type (a cross-site form can only send form or text types)', async () => {
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
      const r = await answer(await post('halt', {}, { 'content-type': type, authorization: `Bearer ${TOKEN}` }));
      expect(r.status).toBe(415);
    }
    expect(h.ts.get()).toBe('ACTIVE');
  });

  it('takes the session cookie only with the X-Bot-Client header, and only a valid one', async () => {
    const session = await fetch(`${h.base}/api/session`, { method: 'POST', headers: { ...JSON_HEADERS, authorization: `Bearer ${TOKEN}` }, body: '{}' });
    expect(session.status).toBe(200);
    const cookie = (session.headers.get('set-cookie') ?? '').split(';')[0] as string;
    expect(cookie).toMatch(/^v4bot_session=/);
    expect(cookie).not.toContain(TOKEN);
    expect(session.headers.get('set-cookie')).toMatch(/HttpOnly; SameSite=Strict/);
    const bare = await answer(await post('pause', { strategy: 'grid1' }, { ...JSON_HEADERS, cookie }));
    expect(bare.status).toBe(403);
    const forged = await answer(await post('pause', { strategy: 'grid1' }, { ...JSON_HEADERS, cookie: 'v4bot_session=forged', 'x-bot-client': 'dashboard' }));
    expect(forged.status).toBe(401);
    const good = await answer(await post('pause', { strategy: 'grid1' }, { ...JSON_HEADERS, cookie, 'x-bot-client': 'dashboard' }));
    expect(good.status).toBe(200);
    expect(h.store.console.recentActions(1)[0]?.who).toBe('dashboard/session');
  });

  it('refuses a non-loopback Host on a loopback binding (DNS rebinding)', async () => {
    const { request } = await import('node:http');
    const status = await new Promise<number>((resolve) => {
      const req = request({ host: '127.0.0.1', port: h.server.port, path: '/api/state', headers: { host: 'evil.example' } }, (res) => resolve(res.statusCode ?? 0));
      req.end();
    });
    expect(status).toBe(403);
  });
});

describe('control API: actions', () => {
  it('pause and resume: persisted, effective on the tick gate, stored with who and where', async () => {
    expect((await answer(await post('pause', { strategy: 'grid1' }))).status).toBe(200);
    const pauses = new PauseRegistry(h.store.console);
    expect(pauses.isPaused('grid1')).toBe(true);
    expect(pauses.admitTick('grid1')).toBe(false);
    const again = await answer(await post('pause', { strategy: 'grid1' }));
    expect(again.message).toContain('already paused');
    expect((await answer(await post('resume', { strategy: 'grid1' }))).status).toBe(200);
    expect(new PauseRegistry(h.store.console).isPaused('grid1')).toBe(false);
    const [last] = h.store.console.recentActions(1);
    expect(last).toMatchObject({ action: 'resume', target: 'grid1', who: 'cli/token', remote: '127.0.0.1', result: 'ok' });
    expect(h.logs.some((l) => l.includes('"msg":"control action"') && l.includes('"action":"resume"'))).toBe(true);
  });

  it('halt and resume-trading move the persisted trading state; resume resets the drawdown peak', async () => {
    expect((await answer(await post('halt', {}))).status).toBe(200);
    expect(new TradingStateController(h.store, clock, silentLogger()).get()).toBe('HALTED');
    expect(h.ts.reason()).toContain('operator: halt (cli/token)');
    expect((await answer(await post('resume-trading', {}))).status).toBe(200);
    expect(h.ts.get()).toBe('ACTIVE');
    expect(h.peakResets).toBe(1);
    expect(h.store.console.recentActions(5).map((a) => a.action)).toEqual(['resume-trading', 'halt']);
  });

  it('cancel-all cancels every strategy with open orders, through the per-strategy path', async () => {
    addOpenOrder(h.store, 'grid1-a', 'grid1');
    addOpenOrder(h.store, 'grid1-b', 'grid1');
    addOpenOrder(h.store, 'old-a', 'old');
    const r = await answer(await post('cancel-all', {}));
    expect(r).toMatchObject({ status: 200, result: 'ok', message: '3 cancelled' });
    expect(h.cancelled.sort()).toEqual(['grid1', 'old']);
    expect(h.store.orders.listByState(['OPEN'])).toEqual([]);
    expect(h.store.console.recentActions(1)[0]).toMatchObject({ action: 'cancel-all', result: 'ok' });
  });

  it('unquarantine lifts a quarantine, and refuses (409) when there is none', async () => {
    (h.runners.get('trend1') as FakeRunner).quarantined = true;
    const r = await answer(await post('unquarantine', { strategy: 'trend1' }));
    expect(r.status).toBe(200);
    expect(h.runners.get('trend1')?.quarantined).toBe(false);
    const again = await answer(await post('unquarantine', { strategy: 'trend1' }));
    expect(again).toMatchObject({ status: 409, result: 'refused' });
    expect(h.store.console.recentActions(1)[0]).toMatchObject({ action: 'unquarantine', result: 'refused' });
  });

  it('names unknown strategies and actions, and bad bodies', async () => {
    const unknown = await answer(await post('pause', { strategy: 'nope' }));
    expect(unknown.status).toBe(404);
    expect(unknown.message).toContain('unknown strategy nope (configured: grid1, trend1)');
    expect((await answer(await post('pause', {}))).status).toBe(400);
    expect((await answer(await post('explode', {}))).status).toBe(404);
    expect((await answer(await post('pause', { strategy: '<script>' }))).status).toBe(400);
    const notJson = await fetch(`${h.base}/api/control/halt`, { method: 'POST', headers: { ...JSON_HEADERS, authorization: `Bearer ${TOKEN}` }, body: '{' });
    expect(notJson.status).toBe(400);
    expect(h.ts.get()).toBe('ACTIVE');
  });
});

describe('reads and the event stream', () => {
  it('serves the state on loopback without a token', async () => {
    addOpenOrder(h.store, 'grid1-a', 'grid1');
    const r = await fetch(`${h.base}/api/state`);
    expect(r.status).toBe(200);
    const st = (await r.json()) as { tradingState: string; openOrders: { clientOrderId: string }[]; strategies: { id: string }[] };
    expect(st.tradingState).toBe('ACTIVE');
    expect(st.openOrders.map((o) => o.clientOrderId)).toEqual(['grid1-a']);
    expect(st.strategies.map((s) => s.id)).toEqual(['grid1', 'trend1']);
  });

  it('names the parts of the last equity check (docs/equity.md) in the state document', async () => {
    const before = (await (await fetch(`${h.base}/api/state`)).json()) as { equity: { parts: unknown } };
    expect(before.equity.parts).toBeNull();
    writeAccount(h.store.meta, {
      atMs: 1, equityAsset: 'USDT', balances: { USDT: dec('100') }, prices: {}, equityQuote: dec('160.5'), peakQuote: dec('160.5'),
      breakdown: { parts: { balances: dec('100'), held: dec('50.5'), positions: dec('-2'), flex: dec('12') }, unvalued: { XYZ: dec('3') }, unmarked: [] },
    });
    const st = (await (await fetch(`${h.base}/api/state`)).json()) as { equity: Record<string, unknown> };
    expect(st.equity).toMatchObject({ parts: { balances: '100', held: '50.5', positions: '-2', flex: '12' }, unvalued: { XYZ: '3' }, unmarked: [] });
  });

  it("carries the markets' tick and step, so the page shows amounts at their places", async () => {
    const st = (await (await fetch(`${h.base}/api/state`)).json()) as { markets: unknown };
    expect(st.markets).toEqual({ BTC_USDT: { tick: '0.01', step: '0.000001' } });
  });

  it('serves the built page modules, each module they import, and nothing else under /assets', async () => {
    const seen = new Set<string>();
    const queue = ['dashboard'];
    while (queue.length > 0) {
      const name = queue.pop() as string;
      if (seen.has(name)) continue;
      seen.add(name);
      const r = await fetch(`${h.base}/assets/${name}.js`);
      expect(r.status, name).toBe(200);
      expect(r.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
      for (const m of (await r.text()).matchAll(/from '\.\/([a-z-]+)\.js'/g)) queue.push(m[1] as string);
    }
    expect([...seen]).toEqual(expect.arrayContaining(['dashboard', 'format', 'dom', 'dashboard-tables', 'dashboard-charts']));
    for (const bad of ['/assets/nothing.js', '/assets/..%2Fhtml.js', '/assets/Dashboard.js']) {
      const r = await fetch(`${h.base}${bad}`);
      expect(r.status, bad).toBe(404);
      await r.body?.cancel();
    }
  });

  it('hands the page a session cookie by itself only in paper mode on loopback', async () => {
    const page = await fetch(`${h.base}/`);
    expect(page.headers.get('set-cookie')).toMatch(/^v4bot_session=/);
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    h.console.close();
    await h.server.close();
    h.store.close();
    h = await start({ mode: 'live' });
    expect((await fetch(`${h.base}/`)).headers.get('set-cookie')).toBeNull();
  });

  it('beyond loopback, every read needs the token (state, events, healthz, metrics)', async () => {
    h.console.close();
    await h.server.close();
    h.store.close();
    h = await start({ loopbackOnly: false });
    for (const path of ['/api/state', '/api/events', '/healthz', '/metrics']) {
      const r = await fetch(`${h.base}${path}`);
      expect(r.status, path).toBe(path === '/healthz' || path === '/metrics' ? 403 : 401);
      await r.body?.cancel();
    }
    const ok = await fetch(`${h.base}/api/state`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(ok.status).toBe(200);
    expect((await fetch(`${h.base}/healthz`, { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(200);
    // The page itself and its assets hold no data.
    expect((await fetch(`${h.base}/`)).status).toBe(200);
  });

  it('without a configured token, writes a per-run token file 0600 that authenticates', async () => {
    h.console.close();
    await h.server.close();
    h.store.close();
    h = await start({ configuredToken: null });
    const file = h.console.tokenFile as string;
    const { readFileSync, statSync, existsSync } = await import('node:fs');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const runToken = readFileSync(file, 'utf8').trim();
    expect(runToken.length).toBeGreaterThanOrEqual(32);
    const r = await answer(await post('halt', {}, { ...JSON_HEADERS, authorization: `Bearer ${runToken}` }));
    expect(r.status).toBe(200);
    expect(h.store.console.recentActions(1)[0]?.who).toBe('api/run-token');
    expect((await answer(await post('halt', {}))).status).toBe(401);
    h.console.close();
    expect(existsSync(file)).toBe(false);
  });

  it('streams the state, pushes after an action, and bounds the number of clients', async () => {
    const abort = new AbortController();
    const res = await fetch(`${h.base}/api/events`, { signal: abort.signal });
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    let text = '';
    const readUntil = async (n: number): Promise<void> => {
      while ((text.match(/event: state/g) ?? []).length < n) {
        const { value, done } = await reader.read();
        if (done) throw new Error('stream ended');
        text += Buffer.from(value).toString('utf8');
      }
    };
    await readUntil(1);
    expect(text).toContain('"tradingState":"ACTIVE"');
    await post('halt', {});
    await readUntil(2);
    expect(text.split('event: state').pop()).toContain('"tradingState":"HALTED"');

    const more: AbortController[] = [];
    for (let i = 1; i < MAX_SSE_CLIENTS; i++) {
      const a = new AbortController();
      more.push(a);
      await fetch(`${h.base}/api/events`, { signal: a.signal });
    }
    await eventually(() => h.console.feed.clientCount === MAX_SSE_CLIENTS, 'all clients attached');
    const refused = await fetch(`${h.base}/api/events`);
    expect(refused.status).toBe(503);
    abort.abort();
    for (const a of more) a.abort();
    await eventually(() => h.console.feed.clientCount === 0, 'disconnected clients removed');
    const again = new AbortController();
    expect((await fetch(`${h.base}/api/events`, { signal: again.signal })).status).toBe(200);
    again.abort();
  });
});
