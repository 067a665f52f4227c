/**
 * The orders table's rows as records, and the rows and records its writes produce: the live
 * index (live-orders.ts) takes a written row's record from these instead of reading it back.
 */
import type { Database, Statement } from 'better-sqlite3';
import { toWire, type Decimal } from '../core/decimal.js';
import { storedDecimal } from './stored-decimal.js';
import type { OrderState, Side } from '../core/orders.js';
import type { OrderKind, OrderRecord } from '../model/journal.js';

export interface OrderRow {
  client_order_id: string;
  strategy_id: string;
  kind: string;
  market: string;
  side: string;
  amount: string;
  price: string;
  post_only: number;
  ioc: number;
  rpi: number;
  stop_loss: string | null;
  take_profit: string | null;
  position_side: string | null;
  state: string;
  order_id: number | null;
  oto_id: number | null;
  reason: string | null;
  filled_base: string;
  reported_filled_base: string;
  reported_filled_quote: string;
  created_ms: number;
  updated_ms: number;
  unknown_since_ms: number | null;
  resolve_looks: number;
  provisional: number;
}

/** The states of orders not final: what the live index holds (live-orders.ts). */
export const LIVE_SQL = `state IN ('PENDING', 'OPEN', 'PARTIALLY_FILLED', 'PENDING_CANCEL', 'UNKNOWN')`;

export function toRecord(r: OrderRow): OrderRecord {
  return {
    clientOrderId: r.client_order_id,
    strategyId: r.strategy_id,
    kind: r.kind as OrderKind,
    market: r.market,
    side: r.side as Side,
    amount: storedDecimal(r.amount),
    price: storedDecimal(r.price),
    postOnly: r.post_only === 1,
    ioc: r.ioc === 1,
    rpi: r.rpi === 1,
    stopLoss: r.stop_loss === null ? null : storedDecimal(r.stop_loss),
    takeProfit: r.take_profit === null ? null : storedDecimal(r.take_profit),
    positionSide: r.position_side,
    state: r.state as OrderState,
    orderId: r.order_id,
    otoId: r.oto_id,
    reason: r.reason,
    filledBase: storedDecimal(r.filled_base),
    reportedFilledBase: storedDecimal(r.reported_filled_base),
    reportedFilledQuote: storedDecimal(r.reported_filled_quote),
    createdMs: r.created_ms,
    updatedMs: r.updated_ms,
    unknownSinceMs: r.unknown_since_ms,
    resolveLooks: r.resolve_looks,
  };
}

export function frozenRecord(r: OrderRow): OrderRecord {
  return Object.freeze(toRecord(r));
}

/** The row an INSERT of `insertPending` writes: its parameters and the columns' defaults. */
export function pendingRow(p: {
  clientOrderId: string; strategyId: string; kind: string; market: string; side: string; amount: string; price: string; postOnly: number; ioc: number;
  rpi: number; stopLoss: string | null; takeProfit: string | null; positionSide: string | null; now: number;
}): OrderRow {
  return {
    client_order_id: p.clientOrderId, strategy_id: p.strategyId, kind: p.kind, market: p.market, side: p.side, amount: p.amount, price: p.price,
    post_only: p.postOnly, ioc: p.ioc, rpi: p.rpi, stop_loss: p.stopLoss, take_profit: p.takeProfit, position_side: p.positionSide,
    state: 'PENDING', order_id: null, oto_id: null, reason: null, filled_base: '0', reported_filled_base: '0', reported_filled_quote: '0',
    created_ms: p.now, updated_ms: p.now, unknown_since_ms: null, resolve_looks: 0, provisional: 0,
  };
}

/** Fields that may change alongside (or without) a state change. */
export interface OrderPatch {
  orderId?: number | null;
  otoId?: number | null;
  reason?: string | null;
  filledBase?: Decimal;
  /** What a reply reported filled; the caller passes it only when it grew. */
  reported?: { base: Decimal; quote: Decimal };
  unknownSinceMs?: number | null;
  resolveLooks?: number;
}

/** A patch's columns in SET order (after `updated_ms` and the state). */
const PATCH_COLUMNS: readonly string[] = [
  'order_id', 'oto_id', 'reason', 'filled_base', 'reported_filled_base', 'reported_filled_quote', 'unknown_since_ms', 'resolve_looks',
];

/** The SET clause of each set of columns a patch writes (a bit per column), built once: a move writes one of a few. */
const setsByColumns = new Map<number, string>();

/** A patch's decimals as written (undefined: not in the patch). */
export interface PatchDecimals {
  filledBase: string | undefined;
  reportedBase: string | undefined;
  reportedQuote: string | undefined;
}

/** An UPDATE of a patch: its SET clause and positional values, and its decimals as written. */
export interface PatchWrite extends PatchDecimals {
  /** `updated_ms` first, then the state if any, then the patch's columns; `?` placeholders. */
  sets: string;
  /** The SET clause's values in order (the caller appends the WHERE's). */
  values: unknown[];
}

/** A patch's decimals serialised once: the row and `patchedRecord` take the same strings. */
export function patchDecimals(patch: OrderPatch): PatchDecimals {
  return {
    filledBase: patch.filledBase === undefined ? undefined : toWire(patch.filledBase),
    reportedBase: patch.reported === undefined ? undefined : toWire(patch.reported.base),
    reportedQuote: patch.reported === undefined ? undefined : toWire(patch.reported.quote),
  };
}

/**
 * The UPDATE of a patch at `nowMs`, with the new state if any. Positional values: binding named
 * parameters costs about as much as the row's write. Decimals are serialised here once:
 * `patchedRecord` takes the same strings.
 */
export function patchSql(patch: OrderPatch, state: OrderState | undefined, nowMs: number): PatchWrite {
  const { filledBase, reportedBase, reportedQuote } = patchDecimals(patch);
  const fields = [patch.orderId, patch.otoId, patch.reason, filledBase, reportedBase, reportedQuote, patch.unknownSinceMs, patch.resolveLooks];
  const values: unknown[] = state === undefined ? [nowMs] : [nowMs, state];
  let columns = 0;
  fields.forEach((v, i) => {
    if (v === undefined) return;
    values.push(v);
    columns |= 1 << i;
  });
  const key = state === undefined ? columns : columns | (1 << PATCH_COLUMNS.length);
  let sets = setsByColumns.get(key);
  if (sets === undefined) {
    const written = PATCH_COLUMNS.filter((_, i) => (columns & (1 << i)) !== 0).map((column) => `${column} = ?`);
    sets = ['updated_ms = ?', ...(state === undefined ? [] : ['state = ?']), ...written].join(', ');
    setsByColumns.set(key, sets);
  }
  return { sets, values, filledBase, reportedBase, reportedQuote };
}

const pick = <T>(value: T | undefined, was: T): T => (value === undefined ? was : value);
/** A decimal as it reads back once written: the string `patchSql` wrote, parsed (`storedDecimal`). */
const stored = (written: string | undefined, was: Decimal): Decimal => (written === undefined ? was : storedDecimal(written));

/**
 * The record of `o`'s row after the UPDATE `w` (`patchSql(patch, state, nowMs)`). Its fields are
 * named in `toRecord`'s order: a spread of `o` takes V8's slow path.
 */
export function patchedRecord(o: OrderRecord, patch: OrderPatch, w: PatchDecimals, state: OrderState | undefined, nowMs: number): OrderRecord {
  return Object.freeze({
    clientOrderId: o.clientOrderId,
    strategyId: o.strategyId,
    kind: o.kind,
    market: o.market,
    side: o.side,
    amount: o.amount,
    price: o.price,
    postOnly: o.postOnly,
    ioc: o.ioc,
    rpi: o.rpi,
    stopLoss: o.stopLoss,
    takeProfit: o.takeProfit,
    positionSide: o.positionSide,
    state: pick(state, o.state),
    orderId: pick(patch.orderId, o.orderId),
    otoId: pick(patch.otoId, o.otoId),
    reason: pick(patch.reason, o.reason),
    filledBase: stored(w.filledBase, o.filledBase),
    reportedFilledBase: stored(w.reportedBase, o.reportedFilledBase),
    reportedFilledQuote: stored(w.reportedQuote, o.reportedFilledQuote),
    createdMs: o.createdMs,
    updatedMs: nowMs,
    unknownSinceMs: pick(patch.unknownSinceMs, o.unknownSinceMs),
    resolveLooks: pick(patch.resolveLooks, o.resolveLooks),
  });
}

/** A record's row as written: each decimal printed as stored (a stored `toWire` reads back and prints to the same text). */
function rowOf(o: OrderRecord, provisional: boolean): OrderRow {
  return {
    client_order_id: o.clientOrderId, strategy_id: o.strategyId, kind: o.kind, market: o.market, side: o.side, amount: toWire(o.amount),
    price: toWire(o.price), post_only: o.postOnly ? 1 : 0, ioc: o.ioc ? 1 : 0, rpi: o.rpi ? 1 : 0, stop_loss: wireOrNull(o.stopLoss),
    take_profit: wireOrNull(o.takeProfit), position_side: o.positionSide, state: o.state, order_id: o.orderId, oto_id: o.otoId,
    reason: o.reason, filled_base: toWire(o.filledBase), reported_filled_base: toWire(o.reportedFilledBase),
    reported_filled_quote: toWire(o.reportedFilledQuote), created_ms: o.createdMs, updated_ms: o.updatedMs,
    unknown_since_ms: o.unknownSinceMs, resolve_looks: o.resolveLooks, provisional: provisional ? 1 : 0,
  };
}

const wireOrNull = (d: Decimal | null): string | null => (d === null ? null : toWire(d));

/**
 * The row of a record `patchedRecord` made (its flag `provisional`), for the scratch store's late
 * write: `w`'s decimals as `patchSql` wrote them, the others as `was` (the row still pending, if
 * any) holds them, else printed from the record.
 */
export function patchedRow(was: OrderRow | undefined, o: OrderRecord, w: PatchDecimals, provisional: boolean): OrderRow {
  const base = was ?? rowOf(o, provisional);
  return {
    client_order_id: base.client_order_id, strategy_id: base.strategy_id, kind: base.kind, market: base.market, side: base.side,
    amount: base.amount, price: base.price, post_only: base.post_only, ioc: base.ioc, rpi: base.rpi, stop_loss: base.stop_loss,
    take_profit: base.take_profit, position_side: base.position_side, state: o.state, order_id: o.orderId, oto_id: o.otoId, reason: o.reason,
    filled_base: w.filledBase ?? base.filled_base, reported_filled_base: w.reportedBase ?? base.reported_filled_base,
    reported_filled_quote: w.reportedQuote ?? base.reported_filled_quote, created_ms: base.created_ms, updated_ms: o.updatedMs,
    unknown_since_ms: o.unknownSinceMs, resolve_looks: o.resolveLooks, provisional: provisional ? 1 : 0,
  };
}

/**
 * Writes a whole order row, inserted or over the one of its clientOrderId (its rowid kept): the
 * scratch store's late write of an order (late-rows.ts). The columns an order never changes are
 * taken from the row only when it is new.
 */
export function orderRowWriter(db: Database): (r: OrderRow) => void {
  // Prepared at the first write: a store that writes none (not a scratch store) prepares nothing.
  let stmt: Statement | undefined;
  const prepare = (): Statement => db.prepare(
    `INSERT INTO orders (client_order_id, strategy_id, kind, market, side, amount, price, post_only, ioc, rpi, stop_loss, take_profit,
       position_side, state, order_id, oto_id, reason, filled_base, reported_filled_base, reported_filled_quote, created_ms, updated_ms,
       unknown_since_ms, resolve_looks, provisional)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (client_order_id) DO UPDATE SET state = excluded.state, order_id = excluded.order_id, oto_id = excluded.oto_id,
       reason = excluded.reason, filled_base = excluded.filled_base, reported_filled_base = excluded.reported_filled_base,
       reported_filled_quote = excluded.reported_filled_quote, updated_ms = excluded.updated_ms,
       unknown_since_ms = excluded.unknown_since_ms, resolve_looks = excluded.resolve_looks, provisional = excluded.provisional`,
  );
  return (r) => {
    stmt ??= prepare();
    // Positional, as the other writes of this table.
    stmt.run(r.client_order_id, r.strategy_id, r.kind, r.market, r.side, r.amount, r.price, r.post_only, r.ioc, r.rpi, r.stop_loss, r.take_profit,
      r.position_side, r.state, r.order_id, r.oto_id, r.reason, r.filled_base, r.reported_filled_base, r.reported_filled_quote, r.created_ms,
      r.updated_ms, r.unknown_since_ms, r.resolve_looks, r.provisional);
  };
}

/** A prefix's next sequence number as the `sequences` table holds it. */
export interface SequenceRow {
  prefix: string;
  next: number;
}

/** Writes a prefix's next sequence number (now, or late: late-rows.ts). */
export function writeSequence(db: Database, r: SequenceRow): void {
  db.prepare('INSERT INTO sequences (prefix, next) VALUES (?, ?) ON CONFLICT (prefix) DO UPDATE SET next = excluded.next').run(r.prefix, r.next);
}
