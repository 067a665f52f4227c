/**
 * The HTTP front of the venue: rate limits → faults before applying → catch-up → auth → route →
 * faults after applying → answer. Admin routes are separate and never see faults or limits.
 */
import { STATUS_CODES, createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Clock } from '../core/clock.js';
import type { Logger } from '../observability/logger.js';
import { handleAdmin, type AdminOps } from './admin.js';
import { adminRefusal } from './admin-guard.js';
import { authenticate } from './auth.js';
import { SimHttpError, badRequest, notFound, rateLimited } from './errors.js';
import type { FaultPlan, Faults } from './faults.js';
import { poolOf, type RateLimiter } from './rate-limit.js';
import { balance, creditLine, flexClose, flexHistory } from './routes/account.js';
import { executedHistory, conditionalList } from './routes/history.js';
import { bulk, cancel, collateralLimit } from './routes/orders.js';
import { futures, ping } from './routes/public.js';
import type { PrivateHandler, RouteContext, RouteResult } from './routes/types.js';
import type { Venue } from './venue.js';

const PUBLIC: Record<string, (venue: Venue) => unknown> = {
  '/api/v4/public/ping': () => ping(),
  '/api/v4/public/futures': (venue) => futures(venue),
};

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

/**
 * Header room for the Base64 payload of the largest accepted body (4/3 of it) plus the other
 * headers, so a signed request the body limit admits is never refused for its headers: Node's
 * default of 16 KiB answered a signed bulk above ~12 KB with an empty 431.
 */
export const MAX_HEADER_BYTES = Math.ceil(MAX_BODY / 3) * 4 + 16_384;

export interface ServerDeps {
  venue: Venue;
  clock: Clock;
  limiter: RateLimiter;
  faults: Faults;
  admin: AdminOps | undefined;
  routeContext: RouteContext;
  logger: Logger | undefined;
  /**
   * Makes the venue's changes durable (persisted paper venue, src/simulator/persist/); called
   * after a request was applied and before its answer leaves, so no reply reveals a change a
   * crash could lose. A throw answers 500 instead.
   */
  commit?: () => void;
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

/**
 * A request Node cannot parse (a broken request line, headers beyond the limit) still gets a
 * JSON answer in the spec's error shape instead of Node's empty one.
 */
function answerClientError(err: NodeJS.ErrnoException, socket: Duplex): void {
  if (!socket.writable || err.code === 'ECONNRESET') {
    socket.destroy();
    return;
  }
  const overflow = err.code === 'HPE_HEADER_OVERFLOW';
  const status = overflow ? 431 : 400;
  const body = JSON.stringify(overflow ? { code: 0, message: 'Request header fields too large', errors: {} } : badRequest().body);
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\ncontent-type: application/json\r\n` +
      `content-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  );
}

export function createSimServer(deps: ServerDeps): Server {
  const server = createServer({ maxHeaderSize: MAX_HEADER_BYTES }, (req, res) => {
    handle(deps, req, res).catch((err: unknown) => {
      deps.logger?.error({ err }, 'simulator: unexpected error');
      if (!res.headersSent) send(res, 500, JSON.stringify({ error: ['Internal server error.'] }));
    });
  });
  server.on('clientError', answerClientError);
  return server;
}

/** The request target as a URL, or undefined when it does not parse (e.g. `//[`). */
function parseTarget(target: string | undefined): URL | undefined {
  try {
    return new URL(target ?? '/', 'http://sim.local');
  } catch {
    return undefined;
  }
}

async function handle(deps: ServerDeps, req: IncomingMessage, res: ServerResponse): Promise<void> {
  let raw: string;
  try {
    raw = await readBody(req);
  } catch (err) {
    if (err instanceof SimHttpError) sendError(res, err);
    else res.destroy();
    return;
  }
  const url = parseTarget(req.url);
  if (url === undefined) return sendError(res, badRequest());
  if (url.pathname.startsWith('/_sim/')) return handleAdminRequest(deps, req, res, url, raw);
  return handleApi(deps, req, res, url.pathname, raw);
}

function handleAdminRequest(deps: ServerDeps, req: IncomingMessage, res: ServerResponse, url: URL, raw: string): void {
  if (deps.admin === undefined) return sendError(res, notFound());
  const refused = adminRefusal(req);
  if (refused !== undefined) return send(res, refused.status, JSON.stringify({ error: refused.error }));
  deps.venue.catchUp();
  const r = handleAdmin(deps.admin, req.method ?? 'GET', url.pathname, url.searchParams, raw);
  deps.commit?.();
  send(res, r.status, JSON.stringify(r.body));
}

/** A public endpoint answers GET without auth; a private one answers a signed POST. */
type Endpoint = { kind: 'public'; run: (venue: Venue) => unknown } | { kind: 'private'; handler: PrivateHandler };

/** The endpoint at `path` for `method`; undefined (404) for an unknown path or the wrong method. */
function endpointOf(path: string, method: string): Endpoint | undefined {
  const run = PUBLIC[path];
  if (run !== undefined) return method === 'GET' ? { kind: 'public', run } : undefined;
  const handler = PRIVATE[path];
  return handler !== undefined && method === 'POST' ? { kind: 'private', handler } : undefined;
}

/** Runs a public or (authenticated) private endpoint; an error answer becomes the result. */
function route(deps: ServerDeps, req: IncomingMessage, path: string, endpoint: Endpoint, raw: string): RouteResult {
  const { venue } = deps;
  try {
    if (endpoint.kind === 'public') return { status: 200, body: endpoint.run(venue) };
    const auth = authenticate(venue.accounts, path, req.headers, raw, venue.nowMs());
    return endpoint.handler(deps.routeContext, auth.account, auth.body);
  } catch (err) {
    if (!(err instanceof SimHttpError)) throw err;
    return err.raw === undefined ? { status: err.status, body: err.body } : { status: err.status, body: err };
  }
}

/** The faults that answer before the request is applied (after any latency); true when one did. */
async function answeredBefore(deps: ServerDeps, res: ServerResponse, plan: FaultPlan): Promise<boolean> {
  if (plan.latencyMs > 0) await deps.clock.sleep(plan.latencyMs);
  if (plan.error5xx) send(res, 500, JSON.stringify({ error: ['Internal server error.'] }));
  else if (plan.rate429) sendError(res, rateLimited());
  else return false;
  return true;
}

/** Sends the result, or what the fault plan makes of the answer of an applied request. */
function answer(deps: ServerDeps, req: IncomingMessage, res: ServerResponse, path: string, plan: FaultPlan, result: RouteResult): void {
  if (plan.drop === 'reset') {
    req.socket.destroy();
    return;
  }
  if (plan.drop === 'hang') return; // never answered; close() destroys the socket
  if (result.body instanceof SimHttpError) return sendError(res, result.body);
  const json = JSON.stringify(result.body) as string | undefined;
  if (plan.malformed && json !== undefined) return send(res, 200, deps.faults.brokenBody(path, json));
  send(res, result.status, json ?? 'null');
}

async function handleApi(deps: ServerDeps, req: IncomingMessage, res: ServerResponse, path: string, raw: string): Promise<void> {
  const endpoint = endpointOf(path, req.method ?? 'GET');
  if (endpoint === undefined) return sendError(res, notFound());
  if (!deps.limiter.allow(poolOf(path), deps.venue.nowMs())) return sendError(res, rateLimited());
  const plan = deps.faults.plan(path);
  if (await answeredBefore(deps, res, plan)) return;
  deps.venue.catchUp();
  const result = route(deps, req, path, endpoint, raw);
  deps.commit?.();
  answer(deps, req, res, path, plan, result);
}
