/**
 * Admin routes under `/_sim/` (served only when `admin: true`; who may call them: admin-guard.ts):
 *   GET  /_sim/truth?apiKey=K      ground truth of an account (default: the default account)
 *   GET  /_sim/markets             current price per market and the simulator time
 *   POST /_sim/price   {market, price}          set a price; resting orders and OCO legs react
 *   POST /_sim/step    {n}                      run n price steps (advances time n * stepMs)
 *   POST /_sim/advance {ms}                     advance simulated time
 *   GET  /_sim/faults                           current fault settings
 *   POST /_sim/faults  {faults}                 replace the fault settings
 *   POST /_sim/accounts {apiKey?, apiSecret?, balances?, flex?, loan?, hedgeMode?}  → {apiKey, apiSecret}
 *   and the routes of admin-scenarios.ts (prices, settle, oco/cancel, brackets)
 * Errors: 400 `{error: message}`; a refused caller gets 403 or 415 `{error: reason}` (admin-guard.ts).
 */
import { isRecord } from '../core/records.js';
import { handleScenarioAdmin, type ScenarioAdminOps } from './admin-scenarios.js';
import type { AccountOptions, FaultOptions } from './options.js';
import type { RouteResult } from './routes/types.js';
import type { Truth } from './truth.js';

/** The in-process operations the admin routes expose (implemented by the handle). */
export interface AdminOps {
  truth(apiKey?: string): Truth;
  prices(): { time: number; prices: Record<string, string> };
  setPrice(market: string, price: string): void;
  step(n: number): void;
  advance(ms: number): void;
  faults(): FaultOptions;
  setFaults(faults: FaultOptions): void;
  createAccount(opts?: Partial<AccountOptions>): { apiKey: string; apiSecret: string };
  /** The routes of admin-scenarios.ts. */
  scenarios?: ScenarioAdminOps;
}

function obj(body: unknown): Record<string, unknown> {
  return isRecord(body) ? body : {};
}

function bad(message: string): RouteResult {
  return { status: 400, body: { error: message } };
}

function ok(body: unknown): RouteResult {
  return { status: 200, body };
}

type AdminRoute = (ops: AdminOps, body: Record<string, unknown>, query: URLSearchParams) => RouteResult;

function setPrice(ops: AdminOps, body: Record<string, unknown>): RouteResult {
  const { market, price } = body;
  if (typeof market !== 'string' || typeof price !== 'string') return bad('market and price (decimal string) are required');
  ops.setPrice(market, price);
  return ok(ops.prices());
}

function step(ops: AdminOps, body: Record<string, unknown>): RouteResult {
  const n = body['n'] ?? 1;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 0) return bad('n must be a non-negative integer');
  ops.step(n);
  return ok(ops.prices());
}

function advance(ops: AdminOps, body: Record<string, unknown>): RouteResult {
  const ms = body['ms'];
  if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0) return bad('ms must be a non-negative number');
  ops.advance(ms);
  return ok(ops.prices());
}

/** `METHOD path` → handler. */
const ROUTES: Readonly<Record<string, AdminRoute>> = {
  'GET /_sim/truth': (ops, _body, query) => ok(ops.truth(query.get('apiKey') ?? undefined)),
  'GET /_sim/markets': (ops) => ok(ops.prices()),
  'POST /_sim/price': setPrice,
  'POST /_sim/step': step,
  'POST /_sim/advance': advance,
  'GET /_sim/faults': (ops) => ok(ops.faults()),
  'POST /_sim/faults': (ops, body) => {
    ops.setFaults(obj(body['faults']) as FaultOptions);
    return ok(ops.faults());
  },
  'POST /_sim/accounts': (ops, body) => ok(ops.createAccount(body as Partial<AccountOptions>)),
};

/** A POST body as an object; a JSON value that is not an object counts as empty. */
function parseBody(method: string, rawBody: string): Record<string, unknown> | undefined {
  if (method !== 'POST' || rawBody === '') return {};
  try {
    return obj(JSON.parse(rawBody));
  } catch {
    return undefined;
  }
}

export function handleAdmin(ops: AdminOps, method: string, path: string, query: URLSearchParams, rawBody: string): RouteResult {
  const body = parseBody(method, rawBody);
  if (body === undefined) return bad('body must be JSON');
  const key = `${method} ${path}`;
  const scenarios = ops.scenarios;
  const scenarioRoute: AdminRoute | undefined = scenarios === undefined ? undefined : (_ops, b, q) => handleScenarioAdmin(scenarios, key, q, b);
  const route = ROUTES[key] ?? scenarioRoute;
  if (route === undefined) return { status: 404, body: { error: 'no such admin route' } };
  try {
    return route(ops, body, query);
  } catch (err) {
    return bad(err instanceof Error ? err.message : String(err));
  }
}
