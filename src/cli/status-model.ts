/**
 * The content of `npm run status`, read from the store through a read-only connection: one plain
 * object (money as decimal strings) that `--json` prints as it is and the text layout renders.
 * Nothing secret is in the store; the object holds no configuration value besides the data dir,
 * mode and env file path.
 */
import { toWire, type Decimal } from '../core/decimal.js';
import type { Clock } from '../core/clock.js';
import { flexEarnings, flexEarningsTotal } from '../engine/flex-job.js';
import { LIVE_STATES } from '../engine/order-state.js';
import { marketSums } from '../engine/positions.js';
import { ReadModels } from '../engine/read-models.js';
import { RECONCILED_AT } from '../engine/reconciler.js';
import { readAccount, readQuarantined, readWarmUp, type AccountSnapshot } from '../engine/status-records.js';
import { readTradingState } from '../engine/trading-state.js';
import { openStoreReadOnly } from '../store/index.js';
import type { CreditSnapshot } from '../model/credit.js';
import type { FillRecord } from '../model/fills.js';
import type { OrderRecord } from '../model/journal.js';
import { pnlTotals, positionPnl, type PositionPnl } from '../engine/position-pnl.js';

export type Json = string | number | boolean | null | Json[] | { [k: string]: Json };
type Obj = { [k: string]: Json };

/** How many recent fills and alerts status lists. */
export const RECENT_FILLS = 20;
export const RECENT_ALERTS = 10;

type ReadStore = ReturnType<typeof openStoreReadOnly>;

const s = (d: Decimal | null): string | null => (d === null ? null : toWire(d));
const rec = (m: Record<string, Decimal>): Record<string, string> => Object.fromEntries(Object.entries(m).map(([k, v]) => [k, toWire(v)]));

function openOrder(o: OrderRecord, nowMs: number): Obj {
  return {
    clientOrderId: o.clientOrderId,
    strategyId: o.strategyId,
    market: o.market,
    side: o.side,
    price: toWire(o.price),
    amount: toWire(o.amount),
    filled: toWire(o.filledBase),
    state: o.state,
    createdMs: o.createdMs,
    ageMs: nowMs - o.createdMs,
  };
}

function ordersSection(orders: readonly OrderRecord[], nowMs: number): Obj {
  const byState: Record<string, number> = {};
  for (const o of orders) byState[o.state] = (byState[o.state] ?? 0) + 1;
  const unresolved = orders
    .filter((o) => o.state === 'UNKNOWN' || o.state === 'PENDING_CANCEL' || o.state === 'PENDING')
    .map((o) => ({ clientOrderId: o.clientOrderId, strategyId: o.strategyId, market: o.market, state: o.state, since: o.unknownSinceMs }));
  const open = orders.filter((o) => LIVE_STATES.includes(o.state)).sort((a, b) => a.createdMs - b.createdMs);
  return { byState, open: open.map((o) => openOrder(o, nowMs)), unresolved };
}

function fillRow(f: FillRecord): Obj {
  return {
    dealId: f.dealId,
    timeMs: f.timeMs,
    strategyId: f.strategyId,
    clientOrderId: f.ownerClientOrderId ?? (f.clientOrderId === '' ? null : f.clientOrderId),
    market: f.market,
    side: f.side,
    role: f.role,
    price: toWire(f.price),
    amount: toWire(f.amount),
    quote: toWire(f.quote),
    fee: toWire(f.fee),
    feeAsset: f.feeAsset,
  };
}

function fillsSection(fills: readonly FillRecord[]): Obj {
  const newest = [...fills].sort((a, b) => b.timeMs - a.timeMs || b.dealId - a.dealId).slice(0, RECENT_FILLS);
  return {
    count: fills.length,
    markets: marketSums(fills).map((m) => ({
      market: m.market,
      fills: m.fills,
      buyBase: toWire(m.buyBase),
      sellBase: toWire(m.sellBase),
      buyQuote: toWire(m.buyQuote),
      sellQuote: toWire(m.sellQuote),
      fees: rec(m.fees),
    })),
    recent: newest.map(fillRow),
  };
}

function accountSection(a: AccountSnapshot | null): Json {
  if (a === null) return null;
  const drawdownPct = a.peakQuote.isZero() ? null : a.peakQuote.minus(a.equityQuote).div(a.peakQuote).mul(100).toDecimalPlaces(4);
  return {
    atMs: a.atMs,
    source: 'the daemon\'s last equity check (balances and prices from the venue)',
    equityAsset: a.equityAsset,
    balances: rec(a.balances),
    prices: rec(a.prices),
    equity: toWire(a.equityQuote),
    peakEquity: toWire(a.peakQuote),
    drawdownPct: s(drawdownPct),
    ...breakdownSection(a.breakdown),
  };
}

/** The parts of the equity rule (docs/equity.md), what had no price, and positions without a mark; null parts from an older daemon. */
function breakdownSection(b: AccountSnapshot['breakdown']): Obj {
  if (b === null) return { equityParts: null, unvalued: null, unmarkedPositions: null };
  return { equityParts: rec(b.parts), unvalued: rec(b.unvalued), unmarkedPositions: b.unmarked };
}

function positionRow(r: PositionPnl): Obj {
  const p = r.position;
  return {
    strategyId: p.strategyId,
    market: p.market,
    quoteAsset: r.quote,
    base: toWire(p.base),
    avgEntry: s(p.avgEntry),
    markPrice: s(r.mark),
    unrealisedPnl: s(r.unrealised),
    realisedPnlBeforeFees: toWire(p.realisedPnl),
    feesInQuote: toWire(r.feesInQuote),
    realisedPnlAfterFees: toWire(r.realisedNet),
    fees: rec(p.fees),
    feesNotValued: rec(r.feesNotValued),
    fills: p.fillCount,
  };
}

function pnlSection(rows: readonly PositionPnl[], account: AccountSnapshot | null): Obj {
  const totals = Object.entries(pnlTotals(rows)).map(([quote, t]) => ({
    quoteAsset: quote,
    realisedPnlBeforeFees: toWire(t.realisedGross),
    fees: toWire(t.fees),
    realisedPnlAfterFees: toWire(t.realisedNet),
    unrealisedPnl: s(t.unrealised),
  }));
  return {
    markSource: account === null ? 'none: the daemon has not recorded prices yet' : 'last prices of the daemon\'s last equity check (account.atMs)',
    markedAtMs: account?.atMs ?? null,
    totals,
  };
}

function creditSection(credit: CreditSnapshot | undefined): Json {
  if (credit === undefined) return null;
  return {
    atMs: credit.atMs,
    active: credit.active,
    asset: credit.asset,
    amount: s(credit.amount),
    currentLtv: s(credit.currentLtv),
    marginCallLtv: s(credit.marginCallLtv),
    liquidationLtv: s(credit.liquidationLtv),
  };
}

function alertsSection(store: ReadStore): Obj {
  const all = store.alerts.list();
  const recent = all.slice(-RECENT_ALERTS).reverse();
  return { count: all.length, recent: recent.map((a) => ({ atMs: a.atMs, kind: a.kind, subject: a.subject, detail: a.detail })) };
}

/**
 * The last balance audit (docs/balance-audit.md) as the daemon stored it; null before the first
 * or in a store whose schema predates the audit (status never migrates).
 */
function auditSection(store: ReadStore): Json {
  let last: ReturnType<ReadStore['audit']['latest']>;
  try {
    last = store.audit.latest();
  } catch {
    return null;
  }
  if (last === undefined) return null;
  const detail = last.detail as { assets?: Json[]; externalFills?: number };
  return { atMs: last.atMs, outcome: last.outcome, fromMs: last.fromMs, assets: detail.assets ?? [], externalFills: detail.externalFills ?? 0 };
}

function stateSection(store: ReadStore): Obj {
  const ts = readTradingState(store.meta);
  return { state: ts?.state ?? 'ACTIVE', reason: ts?.reason ?? 'never changed', sinceMs: ts?.atMs ?? null };
}

/** Builds the status object from the store in `dataDir` (also used by tests). */
export function buildStatus(dataDir: string, clock: Clock): Obj {
  const store = openStoreReadOnly(dataDir, clock);
  try {
    const nowMs = clock.now();
    const account = readAccount(store.meta);
    const equityAsset = account?.equityAsset ?? 'USDT';
    const pnl = new ReadModels(store).allPositions().map((p) => positionPnl(p, account?.prices ?? {}, equityAsset));
    const flexRows = store.flex.all();
    const reconciled = store.checkpoints.get(RECONCILED_AT);
    return {
      atMs: nowMs,
      tradingState: stateSection(store),
      quarantined: readQuarantined(store.meta).map((q) => ({ strategyId: q.strategyId, reason: q.reason, atMs: q.atMs })),
      // Declared candle windows still short of their count at the daemon's last start or candle close.
      warmUp: readWarmUp(store.meta).map((w) => ({ strategyId: w.strategyId, market: w.market, timeframe: w.timeframe, want: w.want, have: w.have })),
      // Paused from the console or `ctl pause`: persisted, so a restart keeps them paused.
      paused: store.console.paused().map((p) => ({ strategyId: p.strategyId, atMs: p.atMs, by: p.who })),
      orders: ordersSection(store.orders.all(), nowMs),
      fills: fillsSection(store.fills.all()),
      account: accountSection(account),
      positions: pnl.map(positionRow),
      pnl: pnlSection(pnl, account),
      flex: {
        records: flexRows.length,
        earnings: rec(flexEarningsTotal(flexRows)),
        earningsByDay: Object.fromEntries(Object.entries(flexEarnings(flexRows)).map(([c, days]) => [c, rec(days)])),
        disabled: store.meta.get('flex.disabled') ?? null,
      },
      credit: creditSection(store.credit.latest()),
      audit: auditSection(store),
      alerts: alertsSection(store),
      reconciledAt: reconciled === undefined ? null : new Date(Number.parseInt(reconciled.value, 10)).toISOString(),
    };
  } finally {
    store.close();
  }
}
