/**
 * Admin routes for chaos and end-to-end tests (served with the others under `/_sim/`, loopback
 * only, when `admin: true`):
 *   POST /_sim/prices  {prices: {market: price}}           set several prices in one step (a spot
 *                                                           market and its perpetual move together)
 *   POST /_sim/settle  {apiKey?, market?, flatten?}        cancel open orders and OTO/OCO records,
 *                                                           optionally close positions → SettleResult
 *   POST /_sim/oco/cancel {apiKey?, ocoId}                 cancel the legs of one active OCO
 *   GET  /_sim/brackets?apiKey=K                           every OTO/OCO ever, with its legs → {brackets}
 * Errors: 400 `{error: message}`; an unknown route: 404.
 */
import type { Bracket } from './brackets.js';
import type { RouteResult } from './routes/types.js';
import type { SettleOptions, SettleResult } from './settle.js';

/** The in-process operations behind these routes (implemented by the handle). */
export interface ScenarioAdminOps {
  setPrices(prices: Record<string, string>): void;
  settle(apiKey: string | undefined, opts: SettleOptions): SettleResult;
  cancelOco(apiKey: string | undefined, ocoId: number): void;
  brackets(apiKey: string | undefined): Bracket[];
}

function bad(message: string): RouteResult {
  return { status: 400, body: { error: message } };
}

function optString(body: Record<string, unknown>, key: string): string | undefined {
  const v = body[key];
  if (v !== undefined && typeof v !== 'string') throw new TypeError(`${key} must be a string`);
  return v;
}

function pricesRoute(ops: ScenarioAdminOps, body: Record<string, unknown>): RouteResult {
  const prices = body['prices'];
  if (typeof prices !== 'object' || prices === null || Array.isArray(prices)) return bad('prices must be an object {market: price}');
  const entries = Object.entries(prices as Record<string, unknown>);
  if (entries.some(([, p]) => typeof p !== 'string')) return bad('every price must be a decimal string');
  ops.setPrices(Object.fromEntries(entries) as Record<string, string>);
  return { status: 200, body: { ok: true } };
}

function settleRoute(ops: ScenarioAdminOps, body: Record<string, unknown>): RouteResult {
  const market = optString(body, 'market');
  const flatten = body['flatten'];
  if (flatten !== undefined && typeof flatten !== 'boolean') return bad('flatten must be a boolean');
  const opts: SettleOptions = { ...(market === undefined ? {} : { market }), ...(flatten === undefined ? {} : { flatten }) };
  return { status: 200, body: ops.settle(optString(body, 'apiKey'), opts) };
}

function cancelOcoRoute(ops: ScenarioAdminOps, body: Record<string, unknown>): RouteResult {
  const ocoId = body['ocoId'];
  if (typeof ocoId !== 'number' || !Number.isSafeInteger(ocoId)) return bad('ocoId must be an integer');
  ops.cancelOco(optString(body, 'apiKey'), ocoId);
  return { status: 200, body: { ok: true } };
}

/** Handles `route` (`METHOD /path`); errors thrown by the ops are left to the caller. */
export function handleScenarioAdmin(ops: ScenarioAdminOps, route: string, query: URLSearchParams, body: Record<string, unknown>): RouteResult {
  switch (route) {
    case 'POST /_sim/prices':
      return pricesRoute(ops, body);
    case 'POST /_sim/settle':
      return settleRoute(ops, body);
    case 'POST /_sim/oco/cancel':
      return cancelOcoRoute(ops, body);
    case 'GET /_sim/brackets':
      return { status: 200, body: { brackets: ops.brackets(query.get('apiKey') ?? undefined) } };
    default:
      return { status: 404, body: { error: 'no such admin route' } };
  }
}
