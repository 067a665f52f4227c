/** Fills: one row per distinct venue deal id (the de-duplication key, enforced by the schema). */
import type { Database, Statement } from 'better-sqlite3';
import { toWire, type Decimal } from '../core/decimal.js';
import { storedDecimal } from './stored-decimal.js';
import type { Side } from '../core/orders.js';
import type { FillRecord } from '../model/fills.js';
import type { TxView } from './tx-state.js';

export interface FillRow {
  deal_id: number;
  order_id: number;
  client_order_id: string;
  market: string;
  side: string;
  role: string;
  time_ms: number;
  amount: string;
  price: string;
  quote: string;
  fee: string;
  fee_asset: string;
  strategy_id: string | null;
  owner_client_order_id: string | null;
}

/** The columns of a row a backtest's result lists. */
export type ResultFillRow = Pick<FillRow, 'time_ms' | 'strategy_id' | 'market' | 'side' | 'price' | 'amount' | 'fee' | 'order_id'>;

export function toRecord(r: FillRow): FillRecord {
  return {
    dealId: r.deal_id,
    orderId: r.order_id,
    clientOrderId: r.client_order_id,
    market: r.market,
    side: r.side as Side,
    role: r.role as 'maker' | 'taker',
    timeMs: r.time_ms,
    amount: storedDecimal(r.amount),
    price: storedDecimal(r.price),
    quote: storedDecimal(r.quote),
    fee: storedDecimal(r.fee),
    feeAsset: r.fee_asset,
    strategyId: r.strategy_id,
    ownerClientOrderId: r.owner_client_order_id,
  };
}

/** `d` as a read of its stored `text` gives it (see `keepWritten`). */
function asStored(d: Decimal, text: string): Decimal {
  return d.isFinite() && !d.isZero() ? d : storedDecimal(text);
}

/** SQLite's default limit of bound parameters per statement is well above this. */
const ID_CHUNK = 500;

/** Deal ids known stored, at most: past it the set starts over (a scan's deals are the newest). */
export const KNOWN_DEALS_MAX = 20_000;

/** Records of the writer's own inserts kept for `byDealIds`, at most: past it they start over. */
export const WRITTEN_MAX = 4_096;

export class FillsRepository {
  private readonly insertStmt: Statement;
  private writes = 0;
  /** Deal ids of the inserts that wrote a row, in the order they ran (rolled-back ones included). */
  private readonly insertedIds: number[] = [];
  private attributions = 0;
  /** Inserts per strategy (null: external fills); bounded by the number of strategies. */
  private readonly writesBy = new Map<string | null, number>();
  /**
   * Deal ids known to have a row: inserted through this handle or found by `existing`. Fills are
   * never deleted, so only a rollback can take a row away: then the set is dropped
   * (`rolledBack`). A scan's overlap asks again for the deals the last scans stored.
   */
  private readonly known = new Set<number>();
  /**
   * Venue order ids that stored fills without an owner carry: read once from SQL at the first
   * attribution, then kept with this handle's inserts and attributions (the only writes of the
   * column); dropped with a rollback. An attribution of an order id not in it changes nothing,
   * so it runs no UPDATE (a placement's usual case: no deal was stored before its reply).
   */
  private unowned: Set<number> | undefined;
  /**
   * The largest stored deal id, once read, kept with this handle's inserts (the table's only
   * writer; dropped with a rollback): a deal id above it is not stored, without a look-up (a
   * scan's new deals, the usual fill batch).
   */
  private newestDeal: number | undefined;
  private readonly newestStmt: Statement;
  /**
   * The writer's inserts as their rows read back (the record of the stored text), by deal id:
   * `byDealIds` of new deals, the usual read after a fill batch, takes them without a query. A
   * rollback or an attribution (which rewrites owners) drops them; bounded by `WRITTEN_MAX`.
   */
  private readonly written = new Map<number, FillRecord>();

  /** `writer`: this handle is the table's only writer (the instance lock); false for a read-only view. */
  constructor(
    private readonly db: Database,
    private readonly tx: TxView,
    private readonly writer = false,
  ) {
    this.newestStmt = db.prepare('SELECT MAX(deal_id) AS n FROM fills');
    // Positional parameters: binding fourteen named ones costs more than the insert's own work.
    this.insertStmt = db.prepare(
      `INSERT OR IGNORE INTO fills (deal_id, order_id, client_order_id, market, side, role, time_ms, amount, price, quote,
        fee, fee_asset, strategy_id, owner_client_order_id)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
  }

  /** Inserts a fill; returns false when its deal id was already stored (nothing changes). */
  insert(f: FillRecord): boolean {
    const row: FillRow = {
      deal_id: f.dealId, order_id: f.orderId, client_order_id: f.clientOrderId, market: f.market, side: f.side, role: f.role, time_ms: f.timeMs,
      amount: toWire(f.amount), price: toWire(f.price), quote: toWire(f.quote), fee: toWire(f.fee), fee_asset: f.feeAsset,
      strategy_id: f.strategyId, owner_client_order_id: f.ownerClientOrderId,
    };
    const res = this.insertStmt.run(
      row.deal_id, row.order_id, row.client_order_id, row.market, row.side, row.role, row.time_ms,
      row.amount, row.price, row.quote, row.fee, row.fee_asset, row.strategy_id, row.owner_client_order_id,
    );
    if (res.changes !== 1) return false;
    if (this.writer) this.keepWritten(row, f);
    this.know(f.dealId);
    if (this.newestDeal !== undefined && f.dealId > this.newestDeal) this.newestDeal = f.dealId;
    if (f.ownerClientOrderId === null) this.unowned?.add(f.orderId);
    this.writes++;
    this.writesBy.set(f.strategyId, (this.writesBy.get(f.strategyId) ?? 0) + 1);
    this.insertedIds.push(f.dealId);
    return true;
  }

  /**
   * The inserts since `cursor` (a length of this log; 0 is its start) and the log's length now.
   * A hint only: a rolled-back insert stays in the log, so readers fetch the rows (byDealIds) and
   * keep what is there. Lets read models fold new fills in instead of refolding every fill.
   */
  insertedSince(cursor: number): { dealIds: number[]; cursor: number } {
    return { dealIds: this.insertedIds.slice(cursor), cursor: this.insertedIds.length };
  }

  /** The length of the insert log now: a cursor for `insertedSince` that skips what is stored so far. */
  get insertCursor(): number {
    return this.insertedIds.length;
  }

  /** Counts attributions that changed rows (an owner set on stored fills): folds keyed by owner start over. */
  get attributionCount(): number {
    return this.attributions;
  }

  /**
   * True when what this connection reads may still be rolled back (inside a `store.tx`; a
   * backtest's candle batch alone does not count: tx-state.ts). Kept reads are not kept then.
   */
  get inTransaction(): boolean {
    return this.tx.rollbackable;
  }

  /**
   * The stored fills among `dealIds`, in application order (time, then deal id). The writer's
   * own recent inserts come from memory when all of them are there; callers do not edit them.
   */
  byDealIds(dealIds: readonly number[]): FillRecord[] {
    const kept = this.keptWritten(dealIds);
    if (kept !== undefined) return kept;
    const out: FillRecord[] = [];
    for (let i = 0; i < dealIds.length; i += ID_CHUNK) {
      const chunk = dealIds.slice(i, i + ID_CHUNK);
      const rows = this.db.prepare(`SELECT * FROM fills WHERE deal_id IN (${chunk.map(() => '?').join(',')})`).all(...chunk) as FillRow[];
      out.push(...rows.map(toRecord));
    }
    return out.sort((a, b) => a.timeMs - b.timeMs || a.dealId - b.dealId);
  }

  /**
   * Counts writes through this handle that changed a row (inserts and attributions; a rolled-back
   * one still counts, so it only costs a cache a recompute). Read models cache derived data by it;
   * only the daemon writes fills (instance lock), so no other process can change them unseen.
   */
  get version(): number {
    return this.writes;
  }

  /**
   * Counts the writes that could change `strategyId`'s fills: its inserts and every attribution
   * (which may hand it fills), as `version` does for all fills. A strategy's reads are kept by it
   * while other strategies' fills come in.
   */
  versionOf(strategyId: string | null): string {
    return `${this.writesBy.get(strategyId) ?? 0}/${this.attributions}`;
  }

  /** The subset of `dealIds` already stored; only the ids not known stored are looked up. */
  existing(dealIds: readonly number[]): Set<number> {
    const out = new Set<number>();
    const unknown: number[] = [];
    const newest = this.newest();
    for (const id of dealIds) {
      if (this.known.has(id)) out.add(id);
      else if (id <= newest) unknown.push(id);
    }
    for (let i = 0; i < unknown.length; i += ID_CHUNK) {
      const chunk = unknown.slice(i, i + ID_CHUNK);
      const rows = this.db
        .prepare(`SELECT deal_id FROM fills WHERE deal_id IN (${chunk.map(() => '?').join(',')})`)
        .all(...chunk) as { deal_id: number }[];
      for (const r of rows) {
        out.add(r.deal_id);
        this.know(r.deal_id);
      }
    }
    return out;
  }

  /**
   * A transaction that wrote here may have been rolled back (the store's `tx` failed): a row
   * inserted or read in it may be gone, so no deal id is taken as stored without a read.
   */
  rolledBack(): void {
    this.known.clear();
    this.unowned = undefined;
    this.newestDeal = undefined;
    this.written.clear();
  }

  /**
   * The record a read of the row just inserted gives, with the fill's own decimals: a finite,
   * non-zero Decimal's wire text parses back to the same value with the same digits, so only a
   * zero (a negative one reads back as 0) or a value that is not finite is parsed from its text.
   */
  private keepWritten(row: FillRow, f: FillRecord): void {
    if (this.written.size >= WRITTEN_MAX) this.written.clear();
    const record: FillRecord = {
      dealId: row.deal_id, orderId: row.order_id, clientOrderId: row.client_order_id, market: row.market, side: row.side as Side,
      role: row.role as 'maker' | 'taker', timeMs: row.time_ms, amount: asStored(f.amount, row.amount), price: asStored(f.price, row.price),
      quote: asStored(f.quote, row.quote), fee: asStored(f.fee, row.fee), feeAsset: row.fee_asset, strategyId: row.strategy_id,
      ownerClientOrderId: row.owner_client_order_id,
    };
    // Frozen: every reader of these deals gets this one object, and none may change it for the others.
    this.written.set(row.deal_id, Object.freeze(record));
  }

  /** The kept records of `dealIds` in application order, or undefined when one is not kept. */
  private keptWritten(dealIds: readonly number[]): FillRecord[] | undefined {
    if (this.written.size === 0) return undefined;
    const out: FillRecord[] = [];
    for (const id of new Set(dealIds)) {
      const r = this.written.get(id);
      if (r === undefined) return undefined;
      out.push(r);
    }
    return out.sort((a, b) => a.timeMs - b.timeMs || a.dealId - b.dealId);
  }

  /** The largest stored deal id (kept by the writer; a read-only view reads it each time). */
  private newest(): number {
    if (this.newestDeal !== undefined) return this.newestDeal;
    const n = (this.newestStmt.get() as { n: number | null }).n ?? Number.NEGATIVE_INFINITY;
    if (this.writer) this.newestDeal = n;
    return n;
  }

  private know(dealId: number): void {
    if (this.known.size >= KNOWN_DEALS_MAX) this.known.clear();
    this.known.add(dealId);
  }

  count(): number {
    return (this.db.prepare('SELECT COUNT(*) AS n FROM fills').get() as { n: number }).n;
  }

  /** Every fill in application order (time, then deal id). */
  all(): FillRecord[] {
    return (this.db.prepare('SELECT * FROM fills ORDER BY time_ms, deal_id').all() as FillRow[]).map(toRecord);
  }

  /**
   * `all()` one fill at a time, for a reader that must not hold them all (a long backtest's
   * result). The connection runs no other statement until the iteration ends.
   */
  *inOrder(): Generator<FillRecord> {
    for (const row of this.db.prepare('SELECT * FROM fills ORDER BY time_ms, deal_id').iterate() as IterableIterator<FillRow>) yield toRecord(row);
  }

  /**
   * `inOrder()` as the stored rows of the columns a backtest's result lists, their text not
   * parsed (the result reads every fill once and parses what it needs). The connection runs no
   * other statement until the iteration ends.
   */
  resultRowsInOrder(): IterableIterator<ResultFillRow> {
    return this.db
      .prepare('SELECT time_ms, strategy_id, market, side, price, amount, fee, order_id FROM fills ORDER BY time_ms, deal_id')
      .iterate() as IterableIterator<ResultFillRow>;
  }

  byStrategy(strategyId: string): FillRecord[] {
    return (
      this.db.prepare('SELECT * FROM fills WHERE strategy_id = ? ORDER BY time_ms, deal_id').all(strategyId) as FillRow[]
    ).map(toRecord);
  }

  /** The `limit` newest fills of a strategy, newest first. */
  recentByStrategy(strategyId: string, limit: number): FillRecord[] {
    return (
      this.db
        .prepare('SELECT * FROM fills WHERE strategy_id = ? ORDER BY time_ms DESC, deal_id DESC LIMIT ?')
        .all(strategyId, limit) as FillRow[]
    ).map(toRecord);
  }

  /**
   * The `limit` newest fills of `market` at or after `fromMs`, oldest first (the dashboard's
   * candle chart). No index covers the market: callers cache by `version`.
   */
  recentInMarket(market: string, fromMs: number, limit: number): FillRecord[] {
    const rows = this.db
      .prepare('SELECT * FROM fills WHERE market = ? AND time_ms >= ? ORDER BY time_ms DESC, deal_id DESC LIMIT ?')
      .all(market, fromMs, limit) as FillRow[];
    return rows.reverse().map(toRecord);
  }

  byOwner(clientOrderId: string): FillRecord[] {
    return (
      this.db.prepare('SELECT * FROM fills WHERE owner_client_order_id = ? ORDER BY time_ms, deal_id').all(clientOrderId) as FillRow[]
    ).map(toRecord);
  }

  byOrderId(orderId: number): FillRecord[] {
    return (this.db.prepare('SELECT * FROM fills WHERE order_id = ? ORDER BY time_ms, deal_id').all(orderId) as FillRow[]).map(
      toRecord,
    );
  }

  /** Attributes fills of `orderId` (recorded as external before the order was known) to an owner. */
  attribute(orderId: number, strategyId: string, ownerClientOrderId: string): number {
    this.unowned ??= new Set(
      (this.db.prepare('SELECT DISTINCT order_id FROM fills WHERE owner_client_order_id IS NULL').all() as { order_id: number }[]).map((r) => r.order_id),
    );
    if (!this.unowned.has(orderId)) return 0;
    const changes = this.db
      .prepare('UPDATE fills SET strategy_id = ?, owner_client_order_id = ? WHERE order_id = ? AND owner_client_order_id IS NULL')
      .run(strategyId, ownerClientOrderId, orderId).changes;
    this.unowned.delete(orderId);
    if (changes > 0) {
      this.written.clear();
      this.writes++;
      this.attributions++;
    }
    return changes;
  }
}
