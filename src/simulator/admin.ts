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
 * Errors: 400 `{error: message}`; a refused caller gets 403 or 415 `{error: reason}` (admin-guard.ts).
 */
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
}

function obj(body: unknown): Record<string, unknown> {
  return typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
}

function bad(message: string): RouteResult {
  return { status: 400, body: { error: message } };
}

export function handleAdmin(ops: AdminOps, method: string, path: string, query: URLSearchParams, rawBody: string): RouteResult {
  let body: Record<string, unknown> = {};
  if (method === 'POST' && rawBody !== '') {
    try {
      body = obj(JSON.parse(rawBody));
    } catch {
      return bad('body must be JSON');
    }
  }
  try {
    const route = `${method} ${path}`;
    switch (route) {
      case 'GET /_sim/truth':
        return { status: 200, body: ops.truth(query.get('apiKey') ?? undefined) };
      case 'GET /_sim/markets':
        return { status: 200, body: ops.prices() };
      case 'POST /_sim/price': {
        const { market, price } = body;
        if (typeof market !== 'string' || typeof price !== 'string') return bad('market and price (decimal string) are required');
        ops.setPrice(market, price);
        return { status: 200, body: ops.prices() };
      }
      case 'POST /_sim/step': {
        const n = body['n'] ?? 1;
        if (typeof n !== 'number' || !Number.isInteger(n) || n < 0) return bad('n must be a non-negative integer');
        ops.step(n);
        return { status: 200, body: ops.prices() };
      }
      case 'POST /_sim/advance': {
        const ms = body['ms'];
        if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0) return bad('ms must be a non-negative number');
        ops.advance(ms);
        return { status: 200, body: ops.prices() };
      }
      case 'GET /_sim/faults':
        return { status: 200, body: ops.faults() };
      case 'POST /_sim/faults':
        ops.setFaults(obj(body['faults']) as FaultOptions);
        return { status: 200, body: ops.faults() };
      case 'POST /_sim/accounts':
        return { status: 200, body: ops.createAccount(body as Partial<AccountOptions>) };
      default:
        return { status: 404, body: { error: 'no such admin route' } };
    }
  } catch (err) {
    return bad(err instanceof Error ? err.message : String(err));
  }
}
