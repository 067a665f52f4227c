/**
 * The console's HTTP routes on the daemon's server (next to `/healthz` and `/metrics`):
 *
 * | Route | What | Auth |
 * |---|---|---|
 * | `GET /` | the dashboard page | none (static; no data in it) |
 * | `GET /assets/chart.js`, `/assets/<module>.js`, `/assets/dashboard.css` | chart library, page modules (src/web/browser/), style | none |
 * | `GET /api/state` | the state document | loopback binding: none (like `/healthz`); else token or session |
 * | `GET /api/events` | server-sent events of the state | same |
 * | `GET /api/candles?market=M&timeframe=15m&count=200` | a traded market's candles, own fills and live legs (src/console/candles.ts) | same |
 * | `POST /api/session` | exchanges the token for the dashboard's session cookie | token |
 * | `POST /api/control/<action>` | a control action, body `{"strategy": "<id>"}` where needed | token, or session + `X-Bot-Client` |
 *
 * Bound to loopback, every request must name a loopback `Host` (DNS rebinding,
 * src/observability/health.ts). State changes are CSRF-safe without relying on the cookie alone:
 * a JSON content type (a cross-site form cannot send one, and a cross-site script needs a CORS
 * preflight this server never grants), an `Origin` equal to the server's own, `Sec-Fetch-Site`
 * same-origin when the browser sends it, and for the cookie a custom header as well.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '../observability/logger.js';
import { browserModule } from '../web/browser-code.js';
import { chartLibrarySource } from '../web/chart-library.js';
import { dashboardPage } from '../web/dashboard/page.js';
import { dashboardStyle } from '../web/dashboard/style.js';
import { bearerToken, cookieValue, SESSION_COOKIE, sessionCookie, sessionValue, tokensEqual } from './auth.js';
import type { CandleAnswer } from './candles.js';
import type { ControlService } from './control.js';
import type { EventFeed } from './events.js';

const LOOPBACK_HOST = /^(?:127\.0\.0\.1|localhost|\[::1\])(?::\d{1,5})?$/i;
const CLIENT_LABEL = /^[a-z][a-z0-9-]{0,15}$/;
const MAX_BODY = 4_096;

export interface ConsoleHttpOptions {
  /** The effective control token (configured, or this run's). */
  token: string;
  tokenKind: 'configured' | 'run';
  /** The server is bound to loopback only. */
  loopbackOnly: boolean;
  /** The page hands out the session cookie by itself (paper mode on loopback). */
  autoSession: boolean;
  mode: 'paper' | 'live';
  control: ControlService;
  feed: EventFeed;
  state(): Promise<string>;
  /** The candle chart's data for a query (`/api/candles`). */
  candles(params: URLSearchParams): Promise<CandleAnswer>;
  logger: Logger;
}

type Credential = 'token' | 'run-token' | 'session';

const SECURITY_HEADERS = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'cache-control': 'no-store',
};

/**
 * Scripts only from the daemon, requests only to it. Inline styles stay allowed: the charting
 * library sets style attributes on the elements it creates (with `style-src 'self'` alone Chromium
 * blocks them and logs console errors); styles cannot run code.
 */
const PAGE_CSP = "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...SECURITY_HEADERS, ...headers }).end(JSON.stringify(body));
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let size = 0;
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY) {
        reject(new RangeError('body too large'));
        req.destroy();
      } else chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** The strategy id of a control body (`{}` or `{"strategy": "grid1"}`); a string on a bad body. */
export function parseControlBody(text: string): { strategy: string | null } | string {
  if (text.trim() === '') return { strategy: null };
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return 'the body is not JSON';
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return 'the body must be a JSON object';
  const st = (v as Record<string, unknown>)['strategy'];
  if (st === undefined || st === null) return { strategy: null };
  if (typeof st !== 'string' || !/^[A-Za-z0-9][A-Za-z0-9_.]{0,15}$/.test(st)) return 'strategy must be a strategy id such as "grid1"';
  return { strategy: st };
}

export class ConsoleHttp {
  constructor(private readonly options: ConsoleHttpOptions) {}

  /** The request's host may be served at all (loopback binding: loopback names only). */
  hostAllowed(req: IncomingMessage): boolean {
    return !this.options.loopbackOnly || LOOPBACK_HOST.test(req.headers.host ?? '');
  }

  /** A valid bearer token or session cookie, or null. */
  credential(req: IncomingMessage): Credential | null {
    const bearer = bearerToken(req.headers.authorization);
    if (bearer !== null) return tokensEqual(bearer, this.options.token) ? (this.options.tokenKind === 'configured' ? 'token' : 'run-token') : null;
    const cookie = cookieValue(req.headers.cookie, SESSION_COOKIE);
    return cookie !== null && tokensEqual(cookie, sessionValue(this.options.token)) ? 'session' : null;
  }

  /** Reads of state (`/api/*`, `/healthz`, `/metrics`): open on loopback, else authenticated. */
  mayRead(req: IncomingMessage): boolean {
    return this.hostAllowed(req) && (this.options.loopbackOnly || this.credential(req) !== null);
  }

  /** Handles the console's routes; false for any other path (the health server answers it). */
  handle(req: IncomingMessage, res: ServerResponse): boolean {
    const url = (req.url ?? '/').split('?')[0] as string;
    const route = this.route(req.method ?? 'GET', url);
    if (route === null) return false;
    if (!this.hostAllowed(req)) {
      res.writeHead(403).end();
      return true;
    }
    route(req, res);
    return true;
  }

  private route(method: string, url: string): ((req: IncomingMessage, res: ServerResponse) => void) | null {
    if (method === 'GET') return this.getRoute(url);
    if (method !== 'POST') return url === '/' || url.startsWith('/api/') || url.startsWith('/assets/') ? (_q, r) => r.writeHead(405, { allow: 'GET, POST' }).end() : null;
    if (url === '/api/session') return (req, res) => void this.session(req, res);
    const m = /^\/api\/control\/([a-z-]{1,32})$/.exec(url);
    return m === null ? null : (req, res) => void this.control(req, res, m[1] as string);
  }

  private getRoute(url: string): ((req: IncomingMessage, res: ServerResponse) => void) | null {
    switch (url) {
      case '/':
        return (_req, res) => this.page(res);
      case '/assets/chart.js':
        return (_req, res) => this.asset(res, 'text/javascript; charset=utf-8', chartLibrarySource());
      case '/assets/dashboard.css':
        return (_req, res) => this.asset(res, 'text/css; charset=utf-8', dashboardStyle());
      case '/api/state':
        return (req, res) => void this.stateRoute(req, res);
      case '/api/candles':
        return (req, res) => void this.candlesRoute(req, res);
      case '/api/events':
        return (req, res) => (this.mayRead(req) ? this.options.feed.attach(req, res) : json(res, 401, { error: 'unauthorized', message: 'a token or the dashboard session is required' }));
      default:
        return this.moduleRoute(url);
    }
  }

  /** `/assets/<name>.js`: the dashboard's built browser modules (src/web/browser/). */
  private moduleRoute(url: string): ((req: IncomingMessage, res: ServerResponse) => void) | null {
    const m = /^\/assets\/([a-z][a-z-]*)\.js$/.exec(url);
    const code = m === null ? null : browserModule(m[1] as string);
    return code === null ? null : (_req, res) => this.asset(res, 'text/javascript; charset=utf-8', code);
  }

  private page(res: ServerResponse): void {
    const headers: Record<string, string> = { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': PAGE_CSP, ...SECURITY_HEADERS };
    if (this.options.autoSession) headers['set-cookie'] = sessionCookie(this.options.token);
    res.writeHead(200, headers).end(dashboardPage({ mode: this.options.mode }));
  }

  private asset(res: ServerResponse, type: string, body: string): void {
    res.writeHead(200, { 'content-type': type, 'x-content-type-options': 'nosniff', 'cache-control': 'no-cache' }).end(body);
  }

  private async stateRoute(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (!this.mayRead(req)) return json(res, 401, { error: 'unauthorized', message: 'a token or the dashboard session is required' });
    try {
      const body = await this.options.state();
      res.writeHead(200, { 'content-type': 'application/json', ...SECURITY_HEADERS }).end(body);
    } catch (err) {
      this.options.logger.warn({ err }, 'dashboard state failed');
      json(res, 500, { error: 'state_failed', message: 'the state could not be built; see the daemon log' });
    }
  }

  private async candlesRoute(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (!this.mayRead(req)) return json(res, 401, { error: 'unauthorized', message: 'a token or the dashboard session is required' });
    const query = new URL(req.url ?? '/', 'http://console.invalid').searchParams;
    try {
      const out = await this.options.candles(query);
      json(res, out.status, out.body);
    } catch (err) {
      this.options.logger.warn({ err }, 'dashboard candles failed');
      json(res, 500, { error: 'candles_failed', message: 'the candles could not be read; see the daemon log' });
    }
  }

  /** Why a state-changing request is refused before authentication (CSRF defence), or null. */
  csrfProblem(req: IncomingMessage): { status: number; message: string } | null {
    const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
    if (type !== 'application/json') return { status: 415, message: 'Content-Type must be application/json' };
    const origin = req.headers.origin;
    const host = req.headers.host ?? '';
    if (origin !== undefined && origin !== `http://${host}` && origin !== `https://${host}`) return { status: 403, message: 'cross-origin request refused' };
    const site = req.headers['sec-fetch-site'];
    if (site !== undefined && site !== 'same-origin' && site !== 'none') return { status: 403, message: 'cross-site request refused' };
    return null;
  }

  /** The authenticated requester of a state change, or the refusal. */
  private requester(req: IncomingMessage): { who: string; remote: string | null } | { status: number; message: string } {
    const problem = this.csrfProblem(req);
    if (problem !== null) return problem;
    const cred = this.credential(req);
    const label = req.headers['x-bot-client'];
    const client = typeof label === 'string' && CLIENT_LABEL.test(label) ? label : null;
    if (cred === null) {
      const given = req.headers.authorization !== undefined || req.headers.cookie?.includes(SESSION_COOKIE) === true;
      return { status: 401, message: given ? 'wrong token' : 'missing token: send Authorization: Bearer <token> (BOT_CONTROL_TOKEN, or the data dir\'s control-token file)' };
    }
    // The cookie alone is never enough: a custom header a cross-site page cannot add without a preflight.
    if (cred === 'session' && client === null) return { status: 403, message: 'the session cookie needs the X-Bot-Client header' };
    return { who: `${client ?? 'api'}/${cred}`, remote: req.socket.remoteAddress ?? null };
  }

  private async session(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const who = this.requester(req);
    if ('status' in who) return json(res, who.status, { error: 'refused', message: who.message });
    this.options.logger.info({ who: who.who, remote: who.remote }, 'dashboard session opened');
    json(res, 200, { ok: true }, { 'set-cookie': sessionCookie(this.options.token) });
  }

  private async control(req: IncomingMessage, res: ServerResponse, action: string): Promise<void> {
    const who = this.requester(req);
    if ('status' in who) {
      this.options.logger.warn({ action, remote: req.socket.remoteAddress, status: who.status, reason: who.message }, 'control request refused');
      return json(res, who.status, { result: 'refused', message: who.message });
    }
    let body: ReturnType<typeof parseControlBody>;
    try {
      body = parseControlBody(await readBody(req));
    } catch {
      return json(res, 413, { result: 'refused', message: `body larger than ${MAX_BODY} bytes` });
    }
    if (typeof body === 'string') return json(res, 400, { result: 'refused', message: body });
    const out = await this.options.control.run(action, body.strategy, who);
    json(res, out.status, { result: out.result, message: out.message, ...(out.data === undefined ? {} : { data: out.data }) });
  }
}
