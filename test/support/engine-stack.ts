/**
 * The engine against the real simulator over HTTP with the real client: simulator and engine
 * share one ManualClock (deal times and the history anchor must agree); the client keeps the
 * system clock for its timeouts and rate limits.
 */
import { SystemClock, type ManualClock } from '../../src/core/clock.js';
import { Decimal, ZERO } from '../../src/core/decimal.js';
import { createApiClient, type ApiClient } from '../../src/exchange/api-client.js';
import type { ExchangeGateway } from '../../src/exchange/gateway.js';
import { createVenueGateway, type VenueGatewayOptions } from '../../src/exchange/venue-gateway.js';
import type { ResolveOptions } from '../../src/engine/resolver.js';
import type { ReconcilerOptions } from '../../src/engine/reconciler.js';
import type { SimulatorHandle, SimulatorOptions, Truth } from '../../src/simulator/index.js';
import type { Store } from '../../src/store/index.js';
import type { FillRecord } from '../../src/model/fills.js';
import { buildEngine, type EngineParts } from './engine-harness.js';
import { startOnManualClock } from './sim-harness.js';

export interface Stack {
  sim: SimulatorHandle;
  clock: ManualClock;
  close(): Promise<void>;
}

export async function startStack(options: SimulatorOptions = {}): Promise<Stack> {
  const { sim, clock } = await startOnManualClock({ admin: true, ...options }, 7);
  return { sim, clock, close: () => sim.close() };
}

export type LiveEngine = EngineParts & { client: ApiClient; gateway: ExchangeGateway; close(): Promise<void> };

export function engineFor(
  dataDir: string,
  sim: SimulatorHandle,
  clock: ManualClock | SystemClock,
  opts: {
    resolve?: Partial<ResolveOptions>;
    reconcile?: ReconcilerOptions;
    venue?: VenueGatewayOptions;
    responseMs?: number;
    keys?: { apiKey: string; apiSecret: string };
  } = {},
): LiveEngine {
  // The client is built before the store it persists its nonce in; the holder bridges the two.
  const holder: { store?: Store } = {};
  const client = createApiClient({
    baseUrl: sim.baseUrl,
    ...(opts.keys ?? sim.defaultAccount),
    clock: new SystemClock(),
    timeouts: { responseMs: opts.responseMs ?? 2000 },
    retry: { attempts: 3, baseDelayMs: 5, maxDelayMs: 50 },
    noncePersistence: { load: () => holder.store?.noncePersistence().load(), save: (n) => holder.store?.noncePersistence().save(n) },
  });
  const gateway = createVenueGateway(client, opts.venue);
  const parts = buildEngine(dataDir, gateway, clock, opts);
  holder.store = parts.store;
  return {
    ...parts,
    client,
    gateway,
    async close() {
      parts.store.close();
      await client.close();
    },
  };
}

/** Per-market sums of stored fills in the truth's shape (count, Σ base, Σ quote, Σ fees). */
export function storeSums(fills: readonly FillRecord[]): Record<string, { count: number; base: string; quote: string; fees: string }> {
  const m = new Map<string, { count: number; base: Decimal; quote: Decimal; fees: Decimal }>();
  for (const f of fills) {
    const s = m.get(f.market) ?? { count: 0, base: ZERO, quote: ZERO, fees: ZERO };
    m.set(f.market, { count: s.count + 1, base: s.base.plus(f.amount), quote: s.quote.plus(f.quote), fees: s.fees.plus(f.fee) });
  }
  return Object.fromEntries([...m].map(([k, s]) => [k, { count: s.count, base: s.base.toFixed(), quote: s.quote.toFixed(), fees: s.fees.toFixed() }]));
}

/** Net base per market from the truth's deal list (buy +, sell −). */
export function truthNetBase(truth: Truth): Record<string, string> {
  const m = new Map<string, Decimal>();
  for (const d of truth.deals.list) {
    const amt = new Decimal(d['amount'] as string);
    const market = d['market'] as string;
    m.set(market, (m.get(market) ?? ZERO).plus(d['side'] === 'buy' ? amt : amt.neg()));
  }
  return Object.fromEntries([...m].map(([k, v]) => [k, v.toFixed()]));
}

/** Every deal of the truth as comparable tuples. */
export function truthDeals(truth: Truth): string[] {
  return truth.deals.list
    .map((d) => `${String(d['id'])}|${String(d['orderId'])}|${String(d['market'])}|${String(d['side'])}|${String(d['amount'])}|${String(d['price'])}|${String(d['deal'])}|${String(d['fee'])}`)
    .sort();
}

export function storeDeals(fills: readonly FillRecord[]): string[] {
  return fills.map((f) => `${f.dealId}|${f.orderId}|${f.market}|${f.side}|${f.amount.toFixed()}|${f.price.toFixed()}|${f.quote.toFixed()}|${f.fee.toFixed()}`).sort();
}

/** Our clientOrderIds among the truth's orders, with how often each appears. */
export function truthOrderCounts(truth: Truth): Map<string, number> {
  const m = new Map<string, number>();
  for (const o of truth.orders) if (o.clientOrderId !== '') m.set(o.clientOrderId, (m.get(o.clientOrderId) ?? 0) + 1);
  return m;
}
