/**
 * The HTTP front of the venue: rate limits → faults before applying → catch-up → auth → route →
 * faults after applying → answer. Admin routes are separate and never see faults or limits.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Clock } from '../core/clock.js';
import type { Logger } from '../observability/logger.js';
import { handleAdmin, isLoopback, type AdminOps } from './admin.js';
import { authenticate } from './auth.js';
import { SimHttpError, notFound, rateLimited } from './errors.js';
import type { Faults } from './faults.js';
import { poolOf, type RateLimiter } from './rate-limit.js';
import { balance, creditLine, flexClose, flexHistory } from './routes/account.js';
import { executedHistory, conditionalList } from './routes/history.js';
import { bulk, cancel, collateralLimit } from './routes/orders.js';
import { futures, ping } from './routes/public.js';
import type { PrivateHandler, RouteContext, RouteResult } from './routes/types.js';
import type { Venue } from './venue.js';

const PRIVATE: Record<string, PrivateHandler> = {
  '/api/v4/order/bulk': bulk,
  '/api/v4/order/collateral/limit': collateralLimit,
  '/api/v4/order/cancel': cancel,
  '/api/v4/orders/conditional': conditionalList,
  '/api/v4/conditional-orders': conditionalList,
  '/api/v4/trade-account/executed-history': executedHistory,
  '/api/v4/main-account/balance': balance,
  '/api/v4/main-account/smart-flex/investments/history': flexHistory,
  '/api/v4/main-account/smart-flex/investments/close': flexClose,
  '/api/v4/credit-line/loans/info': creditLine,
};

const MAX_BODY = 1_000_000;

export interface ServerDeps {
  venue: Venue;
  clock: Clock;
  limiter: RateLimiter;
  faults: Faults;
  admin: AdminOps | undefined;
  routeContext: RouteContext;
  logger: Logger | undefined;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY) reject(new SimHttpError(413, { code: 0, message: 'Payload too large', errors: {} }));
      else chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function send(res: ServerResponse, status: number, body: string, contentType = 'application/json'): void {
  res.writeHead(status, { 'content-type': contentType, 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

function sendError(res: ServerResponse, err: SimHttpError): void {
  if (err.raw !== undefined) send(res, err.status, err.raw.text, err.raw.contentType);
  else send(res, err.status, JSON.stringify(err.body));
}

export function createSimServer(deps: ServerDeps): Server {
  const server = createServer((req, res) => {
    handle(deps, req, res).catch((err: unknown) => {
      deps.logger?.error({ err }, 'simulator: unexpected error');
      if (!res.headersSent) send(res, 500, JSON.stringify({ error: ['Internal server error.'] }));
    });
  });
  return server;
}

async function handle(deps: ServerDeps, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const { venue, clock } = deps;
  let raw: string;
  try {
    raw = await readBody(req);
  } catch (err) {
    if (err instanceof SimHttpError) sendError(res, err);
    else res.destroy();
    return;
  }
  const url = new URL(req.url ?? '/', 'http://sim.local');
  const path = url.pathname;
  const method = req.method ?? 'GET';

  if (path.startsWith('/_sim/')) {
    if (deps.admin === undefined) return sendError(res, notFound());
    if (!isLoopback(req.socket.remoteAddress)) return send(res, 403, JSON.stringify({ error: 'admin routes are loopback only' }));
    venue.catchUp();
    const r = handleAdmin(deps.admin, method, path, url.searchParams, raw);
    return send(res, r.status, JSON.stringify(r.body));
  }

  const isPublic = path === '/api/v4/public/ping' || path === '/api/v4/public/futures';
  const handler = PRIVATE[path];
  if ((!isPublic && handler === undefined) || (isPublic && method !== 'GET') || (!isPublic && method !== 'POST')) {
    return sendError(res, notFound());
  }
  if (!deps.limiter.allow(poolOf(path), venue.nowMs())) return sendError(res, rateLimited());

  const plan = deps.faults.plan(path);
  if (plan.latencyMs > 0) await clock.sleep(plan.latencyMs);
  if (plan.error5xx) return send(res, 500, JSON.stringify({ error: ['Internal server error.'] }));
  if (plan.rate429) return sendError(res, rateLimited());

  venue.catchUp();
  let result: RouteResult;
  try {
    if (isPublic) {
      result = { status: 200, body: path === '/api/v4/public/ping' ? ping() : futures(venue) };
    } else {
      const auth = authenticate(venue.accounts, path, req.headers, raw, venue.nowMs());
      result = (handler as PrivateHandler)(deps.routeContext, auth.account, auth.body);
    }
  } catch (err) {
    if (!(err instanceof SimHttpError)) throw err;
    result = err.raw === undefined ? { status: err.status, body: err.body } : { status: err.status, body: err };
  }

  if (plan.drop === 'reset') {
    req.socket.destroy();
    return;
  }
  if (plan.drop === 'hang') return; // never answered; close() destroys the socket
  const json = result.body instanceof SimHttpError ? undefined : JSON.stringify(result.body);
  if (plan.malformed && json !== undefined) return send(res, 200, deps.faults.brokenBody(path, json));
  if (result.body instanceof SimHttpError) return sendError(res, result.body);
  send(res, result.status, json ?? 'null');
}
