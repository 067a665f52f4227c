/**
 * The dashboard's state (`GET /api/state`, and each server-sent event): one JSON document built
 * from the engine's read models and the store. Money is a decimal string, times are ms.
 */
import { toWire, type Decimal } from '../core/decimal.js';
import { flexEarningsTotal } from '../engine/flex-job.js';
import { LIVE_STATES } from '../engine/order-state.js';
import { readAccount, readWarmUp } from '../engine/status-records.js';
import type { ReadModels } from '../engine/read-models.js';
import type { Store } from '../store/index.js';
import type { OrderRecord } from '../model/journal.js';
import type { PauseRegistry } from './pauses.js';
import { DEFAULT_TIMEFRAME } from './candles.js';
import { pnlByStrategy, type MarketPrice } from './pnl.js';
import { TIMEFRAMES } from '../store/types.js';

type Json = string | number | boolean | null | Json[] | { [k: string]: Json };
type JsonObject = { [k: string]: Json };

/** Most fills, alerts and actions shown. */
const RECENT = 50;
/** Equity points sent to the page (evenly thinned; the last one always kept). */
const EQUITY_POINTS = 1_000;
/** Equity history shown: the last 7 days. */
const EQUITY_WINDOW_MS = 7 * 24 * 3_600_000;

/** Credit-job thresholds as fractions of the margin-call LTV (src/engine/credit-job.ts defaults). */
const REDUCE_ONLY_FRACTION = '0.8';
const RESUME_FRACTION = '0.7';

export interface PoolView {
  limit: number;
  used: number;
  queued: number;
  paused: boolean;
  refused: number;
}

export interface StateSources {
  mode: 'paper' | 'live';
  equityAsset: string;
  /** The configured markets' increments: the page shows prices and amounts at their places. */
  markets: Readonly<Record<string, { tick: Decimal; step: Decimal }>>;
  /** The markets the strategies trade: the page draws a candle chart for each (`/api/candles`). */
  chartMarkets: readonly string[];
  store: Store;
  read: ReadModels;
  pauses: PauseRegistry;
  now(): number;
  tradingState(): { state: string; reason: string };
  /** Job name → last run (the scheduler). */
  jobs(): Record<string, { lastRunMs: number | null; lastOutcome: string | null; skipped: number }>;
  reconcile(): { ok: boolean; lastSuccessMs: number | null; lastError: string | null };
  strategies(): { id: string; module: string; quarantined: boolean }[];
  prices(): Promise<Readonly<Record<string, MarketPrice>>>;
  rateLimits(): Record<string, PoolView>;
  requestQueue(): JsonObject;
}

const s = (d: Decimal | null | undefined): string | null => (d === null || d === undefined ? null : toWire(d));
const rec = (m: Record<string, Decimal>): Record<string, string> => Object.fromEntries(Object.entries(m).map(([k, v]) => [k, toWire(v)]));

function orderView(o: OrderRecord): JsonObject {
  return {
    clientOrderId: o.clientOrderId,
    strategyId: o.strategyId,
    kind: o.kind,
    market: o.market,
    side: o.side,
    amount: toWire(o.amount),
    price: toWire(o.price),
    filled: toWire(o.filledBase),
    state: o.state,
    orderId: o.orderId,
    updatedMs: o.updatedMs,
  };
}

/** Open positions, each with the protective legs (OTO stop-loss / take-profit, OCO) still live for it. */
function positions(src: StateSources, prices: Readonly<Record<string, MarketPrice>>): Json[] {
  const legs = src.store.children.live();
  const parents = new Map(legs.map((c) => [c.parentClientOrderId, src.store.orders.get(c.parentClientOrderId)]));
  return src.read
    .allPositions()
    .filter((p) => !p.base.isZero())
    .map((p) => ({
      strategyId: p.strategyId,
      market: p.market,
      base: toWire(p.base),
      avgEntry: s(p.avgEntry),
      last: s(prices[p.market]?.last),
      legs: legs
        .filter((c) => c.strategyId === p.strategyId && parents.get(c.parentClientOrderId)?.market === p.market)
        .map((c) => ({ kind: c.kind, price: toWire(c.price), state: c.state, parent: c.parentClientOrderId, ocoId: c.ocoId, orderId: c.orderId })),
    }));
}

/** Protective legs whose position is flat or not filled yet (armed under an OTO), for the orders table. */
function armedLegs(src: StateSources): Json[] {
  return src.store.children
    .live()
    .map((c) => ({ strategyId: c.strategyId, parent: c.parentClientOrderId, kind: c.kind, price: toWire(c.price), state: c.state }));
}

function equity(src: StateSources): JsonObject {
  const all = src.store.console.equitySince(src.now() - EQUITY_WINDOW_MS);
  const step = Math.max(1, Math.ceil(all.length / EQUITY_POINTS));
  const points = all.filter((_p, i) => i % step === 0 || i === all.length - 1);
  const last = all[all.length - 1];
  const drawdownPct = (e: Decimal, peak: Decimal): string => (peak.gt(0) ? toWire(peak.minus(e).div(peak).mul(100).toDecimalPlaces(4)) : '0');
  return {
    asset: src.equityAsset,
    current: s(last?.equity),
    peak: s(last?.peak),
    drawdownPct: last === undefined ? null : drawdownPct(last.equity, last.peak),
    points: points.map((p) => ({ t: p.atMs, equity: toWire(p.equity), peak: toWire(p.peak), drawdownPct: drawdownPct(p.equity, p.peak) })),
    ...equityParts(src),
  };
}

/** The last equity check's parts (docs/equity.md), what had no price, and positions without a mark; null before the first check. */
function equityParts(src: StateSources): JsonObject {
  const b = readAccount(src.store.meta)?.breakdown ?? null;
  if (b === null) return { parts: null, unvalued: null, unmarked: null };
  return { parts: rec(b.parts), unvalued: rec(b.unvalued), unmarked: b.unmarked };
}

function credit(src: StateSources): Json {
  const c = src.store.credit.latest();
  if (c === undefined) return null;
  const mc = c.marginCallLtv;
  return {
    atMs: c.atMs,
    active: c.active,
    asset: c.asset,
    amount: s(c.amount),
    currentLtv: s(c.currentLtv),
    reduceOnlyAtLtv: mc === null ? null : toWire(mc.mul(REDUCE_ONLY_FRACTION)),
    resumeBelowLtv: mc === null ? null : toWire(mc.mul(RESUME_FRACTION)),
    marginCallLtv: s(mc),
    liquidationLtv: s(c.liquidationLtv),
  };
}

function strategies(src: StateSources, prices: Readonly<Record<string, MarketPrice>>): Json[] {
  const pnl = new Map(pnlByStrategy(src.read.allPositions(), prices, src.equityAsset).map((p) => [p.strategyId, p]));
  const jobs = src.jobs();
  const warming = readWarmUp(src.store.meta);
  return src.strategies().map((st) => {
    const p = pnl.get(st.id);
    const paused = src.pauses.record(st.id);
    return {
      id: st.id,
      module: st.module,
      quarantined: st.quarantined,
      paused: paused !== undefined,
      pausedBy: paused?.who ?? null,
      ticks: { ...src.pauses.tickCounts(st.id) },
      lastTickMs: jobs[`strategy:${st.id}`]?.lastRunMs ?? null,
      openOrders: src.read.openOrders(st.id).length,
      realisedGross: p === undefined ? '0' : toWire(p.realisedGross),
      fees: p === undefined ? '0' : s(p.fees),
      realisedNet: p === undefined ? '0' : s(p.realisedNet),
      unrealised: p === undefined ? '0' : s(p.unrealised),
      fills: p?.fills ?? 0,
      // Declared candle windows still short of their count (docs/strategies.md § Warm-up); empty once full.
      warmUp: warming.filter((w) => w.strategyId === st.id).map(({ market, timeframe, want, have }) => ({ market, timeframe, want, have })),
    };
  });
}

function recentFills(src: StateSources): Json[] {
  return src.store.console.recentFills(RECENT).map((f) => ({
    dealId: f.dealId,
    timeMs: f.timeMs,
    strategyId: f.strategyId,
    market: f.market,
    side: f.side,
    role: f.role,
    amount: toWire(f.amount),
    price: toWire(f.price),
    fee: toWire(f.fee),
    feeAsset: f.feeAsset,
  }));
}

/** Builds the whole state; the only venue data it needs (prices) comes from the engine's cache. */
export async function buildConsoleState(src: StateSources): Promise<JsonObject> {
  const prices = await src.prices().catch(() => ({}));
  const ts = src.tradingState();
  return {
    nowMs: src.now(),
    mode: src.mode,
    tradingState: ts.state,
    tradingStateReason: ts.reason,
    markets: Object.fromEntries(Object.entries(src.markets).map(([name, m]) => [name, { tick: toWire(m.tick), step: toWire(m.step) }])),
    reconcile: src.reconcile(),
    jobs: src.jobs(),
    strategies: strategies(src, prices),
    equity: equity(src),
    positions: positions(src, prices),
    legs: armedLegs(src),
    openOrders: src.store.orders.listByState(LIVE_STATES).map(orderView),
    fills: recentFills(src),
    flex: { earnings: rec(flexEarningsTotal(src.store.flex.all())), disabled: src.store.meta.get('flex.disabled') ?? null },
    credit: credit(src),
    rateLimits: src.rateLimits() as unknown as JsonObject,
    requestQueue: src.requestQueue(),
    alerts: src.store.console.recentAlerts(RECENT).map((a) => ({ id: a.id, atMs: a.atMs, kind: a.kind, subject: a.subject, detail: a.detail })),
    actions: src.store.console.recentActions(RECENT).map((a) => ({ ...a })),
    charts: { markets: [...src.chartMarkets], timeframes: [...TIMEFRAMES], defaultTimeframe: DEFAULT_TIMEFRAME },
  };
}
