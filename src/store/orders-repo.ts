/**
 * Order intents and their state history. The repository only persists; which transitions are
 * legal is decided by src/engine/order-state.ts before anything is written here.
 */
import type { Database, Statement } from 'better-sqlite3';
import { toWire } from '../core/decimal.js';
import type { LateRows } from './late-rows.js';
import { RecordCache } from './record-cache.js';
import type { TxView } from './tx-state.js';
import { allLive, LiveOrders } from './live-orders.js';
import type { OrderState } from '../core/orders.js';
import type { NewOrder, OrderEventRecord, OrderKind, OrderRecord } from '../model/journal.js';
import { frozenRecord, LIVE_SQL, patchDecimals, patchedRecord, patchedRow, patchSql, pendingRow, toRecord, writeSequence, type OrderPatch, type OrderRow, type SequenceRow } from './order-rows.js';

export type { OrderPatch } from './order-rows.js';

/** Whether a patch moves the filled or the reported amount (then the provisional flag is decided again). */
const movesAmounts = (patch: OrderPatch): boolean => patch.filledBase !== undefined || patch.reported !== undefined;
/** Decimal strings do not compare in SQL: whether a reply reported more filled than the deals applied is decided here. */
const isProvisional = (o: OrderRecord): boolean => o.reportedFilledBase.gt(o.filledBase);

export class OrdersRepository {
  private readonly insertStmt: Statement;
  private readonly eventStmt: Statement;
  private readonly getStmt: Statement;
  private readonly byOrderIdStmt: Statement;
  private readonly seqGet: Statement;
  /** A move's UPDATE by its SET clause (one of a few: order-rows.ts `patchSql`), prepared once. */
  private readonly updates = new Map<string, Statement>();

  private writes = 0;
  /** Records of rows not written since they were read (orders are written only here, never deleted). */
  private readonly records: RecordCache<OrderRecord>;
  /** Writes per strategy (bounded by the number of strategies): `versionOf`. */
  private readonly writesBy = new Map<string, number>();
  /** Non-final and provisional orders in memory, kept in step with every write here (live-orders.ts). */
  private readonly live: LiveOrders;
  /** Each prefix's next sequence number as last written here (the writer only; dropped on a rollback). */
  private readonly sequences = new Map<string, number>();
  /**
   * The newest rowid, once read, kept in step with the inserts here (the table's only writer);
   * undefined: read it. A rolled-back insert frees its rowid for the next one, so a rollback
   * forgets it (`rolledBack`).
   */
  private newestRow: number | undefined;
  /**
   * Kept with `newestRow` (the writer only): per strategy and kind, each market's newest row
   * journaled through this handle after row `tracedFrom`. Orders never leave nor change market or
   * kind, so these answer `marketsOfKindSince` from that row on; bounded by the markets traded.
   */
  private readonly marketRows = new Map<string, Map<string, number>>();
  private tracedFrom: number | undefined;

  /**
   * `writer`: this handle is the table's only writer (the instance lock); false for a read-only view.
   * `keepsHistory`: false for a backtest's scratch store, which writes no `order_events` rows: the
   * engine never reads them (only `history`, for an operator or a test), and nothing of the run
   * outlives its process.
   * `lateSequences`: the scratch store's (late-rows.ts): a prefix's next number is written at the
   * batch's commit, not with every placement (a read takes the pending row).
   * `lateRows`: the scratch store's as well: an order's row is written whole at the batch's commit
   * (or before a SQL read of the table), so its insert and the moves of one batch are one
   * statement; the live index and the record cache answer the engine's reads meanwhile.
   */
  constructor(
    private readonly db: Database,
    private readonly tx: TxView,
    private readonly writer = true,
    private readonly keepsHistory = true,
    private readonly lateSequences?: LateRows<SequenceRow>,
    private readonly lateRows?: LateRows<OrderRow>,
  ) {
    this.insertStmt = db.prepare(
      `INSERT INTO orders (client_order_id, strategy_id, kind, market, side, amount, price, post_only, ioc, rpi,
        stop_loss, take_profit, position_side, state, created_ms, updated_ms)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'PENDING', ?, ?)`,
    );
    this.eventStmt = db.prepare(
      'INSERT INTO order_events (client_order_id, from_state, to_state, reason, at_ms) VALUES (?, ?, ?, ?, ?)',
    );
    this.records = new RecordCache(tx);
    this.getStmt = db.prepare('SELECT * FROM orders WHERE client_order_id = ?');
    this.byOrderIdStmt = db.prepare('SELECT * FROM orders WHERE order_id = ?');
    this.seqGet = db.prepare('SELECT next FROM sequences WHERE prefix = ?');
    const liveStmt = db.prepare(`SELECT * FROM orders WHERE ${LIVE_SQL}`);
    const provisionalStmt = db.prepare('SELECT * FROM orders WHERE provisional = 1');
    this.live = new LiveOrders(() => this.flushed(() => ({
      live: (liveStmt.all() as OrderRow[]).map(frozenRecord),
      provisional: (provisionalStmt.all() as OrderRow[]).map(frozenRecord),
    })), writer);
  }

  /**
   * Writes the rows still pending (`lateRows`): every SQL read of the table comes after it, here
   * and in the repositories that join or refer to orders (sqlite-store.ts).
   */
  writeLate(): void {
    this.lateRows?.flush();
  }

  /** `read()` once the pending rows are written (for a SQL read: `flushed(() => stmt.all())`). */
  private flushed<T>(read: () => T): T {
    this.lateRows?.flush();
    return read();
  }

  /**
   * A transaction that wrote here may have been rolled back (the store's `tx` failed): the live
   * index is read again from SQL at its next use.
   */
  rolledBack(): void {
    this.live.dropAll();
    this.newestRow = undefined;
    this.tracedFrom = undefined;
    this.marketRows.clear();
    this.sequences.clear();
  }

  /**
   * Whether a `store.tx` (a transaction that can still roll back) is under way: the journal's
   * writes then join it. Not the scratch store's batch alone (tx-state.ts).
   */
  get inTransaction(): boolean {
    return this.tx.rollbackable;
  }

  /**
   * Reserves `count` consecutive sequence numbers for `prefix`. A new prefix starts at `seedMs`
   * (the clock at first use) so that ids stay unique even if the data dir is wiped and the same
   * account is traded again. Call inside the transaction that journals the orders.
   */
  reserveSequence(prefix: string, count: number, seedMs: number): number {
    // The writer knows what it last wrote (a rollback forgets it): no read per placement.
    const first = this.sequences.get(prefix) ?? this.lateSequences?.get(prefix)?.next ?? (this.seqGet.get(prefix) as SequenceRow | undefined)?.next ?? seedMs;
    const row = { prefix, next: first + count };
    if (this.lateSequences === undefined) writeSequence(this.db, row);
    else this.lateSequences.put(prefix, row);
    if (this.writer) this.sequences.set(prefix, first + count);
    return first;
  }

  /** Journals a new order as PENDING with its first history row. */
  insertPending(order: NewOrder, nowMs: number): void {
    const p = {
      clientOrderId: order.clientOrderId,
      strategyId: order.strategyId,
      kind: order.kind,
      market: order.market,
      side: order.side,
      amount: toWire(order.amount),
      price: toWire(order.price),
      postOnly: order.postOnly ? 1 : 0, ioc: order.ioc ? 1 : 0, rpi: order.rpi ? 1 : 0,
      stopLoss: order.stopLoss === undefined ? null : toWire(order.stopLoss),
      takeProfit: order.takeProfit === undefined ? null : toWire(order.takeProfit),
      positionSide: order.positionSide ?? null,
      now: nowMs,
    };
    const row = pendingRow(p);
    if (this.lateRows === undefined) {
      // Positional: binding named parameters costs more than the insert's own work.
      const run = this.insertStmt.run(p.clientOrderId, p.strategyId, p.kind, p.market, p.side, p.amount, p.price, p.postOnly, p.ioc, p.rpi,
        p.stopLoss, p.takeProfit, p.positionSide, nowMs, nowMs);
      this.traceRow(order, Number(run.lastInsertRowid));
    } else {
      // Written late, in the order of the inserts, by the table's only writer: its rowid will be
      // the newest one's next (rows are never deleted; a rolled-back insert is forgotten with `newestRow`).
      this.lateRows.put(order.clientOrderId, row);
      if (this.newestRow !== undefined) this.traceRow(order, this.newestRow + 1);
    }
    // Tracked at once: a failing statement after this one leaves the row in (outside a transaction).
    this.wrote(order.clientOrderId, order.strategyId);
    this.live.track(frozenRecord(row), false);
    if (this.keepsHistory) this.eventStmt.run(order.clientOrderId, null, 'PENDING', 'journaled', nowMs);
  }

  private traceRow(order: NewOrder, rowid: number): void {
    if (this.newestRow === undefined) return;
    this.newestRow = Math.max(this.newestRow, rowid);
    this.traceMarket(order.strategyId, order.kind, order.market, rowid);
  }

  private wrote(clientOrderId: string, strategyId: string | undefined): void {
    this.records.forget(clientOrderId);
    this.writes++;
    if (strategyId !== undefined) this.writesBy.set(strategyId, (this.writesBy.get(strategyId) ?? 0) + 1);
  }

  /**
   * Counts writes to orders through this handle (a rolled-back one still counts: a cache keyed by
   * it only recomputes). Read models keep per-tick reads by it (read-models.ts).
   */
  get version(): number {
    return this.writes;
  }

  /**
   * Counts writes to `strategyId`'s orders (as `version` does for all orders; an order never
   * changes strategy): a strategy's reads are kept while other strategies' orders move.
   */
  versionOf(strategyId: string): number {
    return this.writesBy.get(strategyId) ?? 0;
  }

  /** A row read as a record: the kept one while the row was not written (record-cache.ts). */
  private record = (r: OrderRow): OrderRecord => this.records.of(r.client_order_id, () => toRecord(r));

  get(clientOrderId: string): OrderRecord | undefined {
    const hit = this.live.get(clientOrderId) ?? this.live.peekEnded(clientOrderId) ?? this.records.get(clientOrderId);
    if (hit !== undefined) return hit;
    const row = (this.lateRows?.get(clientOrderId) ?? this.getStmt.get(clientOrderId)) as OrderRow | undefined;
    return row === undefined ? undefined : this.record(row);
  }

  getByOrderId(orderId: number): OrderRecord | undefined {
    // A live order's record is the row as written (order_id is UNIQUE): no query for the usual fill of a resting order.
    const hit = this.live.peekByOrderId(orderId);
    if (hit !== undefined) return hit;
    const row = this.flushed(() => this.byOrderIdStmt.get(orderId)) as OrderRow | undefined;
    return row === undefined ? undefined : this.record(row);
  }

  /** Orders in any of `states`, oldest first. */
  listByState(states: readonly OrderState[]): OrderRecord[] {
    if (states.length === 0) return [];
    if (allLive(states)) return this.live.list(states);
    this.writeLate();
    const rows = this.db
      .prepare(`SELECT * FROM orders WHERE state IN (${states.map(() => '?').join(',')}) ORDER BY created_ms, client_order_id`)
      .all(...states) as OrderRow[];
    return rows.map(this.record);
  }

  listByStrategy(strategyId: string, states?: readonly OrderState[]): OrderRecord[] {
    if (states !== undefined && allLive(states)) return this.live.list(states, strategyId);
    const filter = states === undefined ? '' : ` AND state IN (${states.map(() => '?').join(',')})`;
    this.writeLate();
    const rows = this.db
      .prepare(`SELECT * FROM orders WHERE strategy_id = ?${filter} ORDER BY created_ms, client_order_id`)
      .all(strategyId, ...(states ?? [])) as OrderRow[];
    return rows.map(this.record);
  }

  /** Markets in which a strategy ever placed an order of `kind` (through the strategy index). */
  marketsOfKind(strategyId: string, kind: OrderKind): string[] {
    this.writeLate();
    const rows = this.db.prepare('SELECT DISTINCT market FROM orders WHERE strategy_id = ? AND kind = ? ORDER BY market').all(strategyId, kind) as { market: string }[];
    return rows.map((r) => r.market);
  }

  /**
   * Markets of the strategy's `kind` orders journaled after row `afterRow` (0: every order), and
   * the newest row now. Orders are never deleted and keep their market and kind, so a caller keeps
   * the set and asks only for rows added since: the rowid range, not the strategy's whole history.
   */
  marketsOfKindSince(strategyId: string, kind: OrderKind, afterRow: number): { markets: string[]; lastRow: number } {
    const lastRow = this.lastRow();
    // Nothing journaled since: the range is empty (asked on every tick of a collateral strategy).
    if (lastRow === afterRow) return { markets: [], lastRow };
    // The writer saw every row after `tracedFrom` inserted: their markets are in memory.
    if (this.tracedFrom !== undefined && afterRow >= this.tracedFrom) return { markets: this.tracedMarkets(strategyId, kind, afterRow), lastRow };
    this.writeLate();
    const rows = this.db
      .prepare('SELECT DISTINCT market FROM orders NOT INDEXED WHERE rowid > ? AND rowid <= ? AND strategy_id = ? AND kind = ? ORDER BY market')
      .all(afterRow, lastRow, strategyId, kind) as { market: string }[];
    return { markets: rows.map((r) => r.market), lastRow };
  }

  private lastRow(): number {
    if (this.newestRow !== undefined) return this.newestRow;
    this.writeLate();
    const r = (this.db.prepare('SELECT MAX(rowid) AS r FROM orders').get() as { r: number | null }).r ?? 0;
    if (this.writer) {
      this.newestRow = r;
      this.tracedFrom = r;
    }
    return r;
  }

  private traceMarket(strategyId: string, kind: OrderKind, market: string, rowid: number): void {
    const key = `${strategyId}\u0000${kind}`;
    let rows = this.marketRows.get(key);
    if (rows === undefined) this.marketRows.set(key, (rows = new Map()));
    rows.set(market, Math.max(rows.get(market) ?? 0, rowid));
  }

  /** Markets (sorted as SQL's ORDER BY on ASCII names) of the kept rows after `afterRow`. */
  private tracedMarkets(strategyId: string, kind: OrderKind, afterRow: number): string[] {
    const rows = this.marketRows.get(`${strategyId}\u0000${kind}`);
    if (rows === undefined) return [];
    const out: string[] = [];
    for (const [market, row] of rows) if (row > afterRow) out.push(market);
    return out.sort();
  }

  all(): OrderRecord[] {
    this.writeLate();
    return (this.db.prepare('SELECT * FROM orders ORDER BY created_ms, client_order_id').all() as OrderRow[]).map(this.record);
  }

  /** Orders whose reported fill exceeds the deals applied so far (provisional fills). */
  listProvisional(): OrderRecord[] {
    return this.live.provisional();
  }

  /** Orders the venue acknowledged (with a venue order id), counted per strategy. */
  sentCounts(): Map<string, number> {
    this.writeLate();
    const rows = this.db.prepare('SELECT strategy_id, COUNT(*) AS n FROM orders WHERE order_id IS NOT NULL GROUP BY strategy_id').all() as { strategy_id: string; n: number }[];
    return new Map(rows.map((r) => [r.strategy_id, r.n]));
  }

  /** Count of orders per state. */
  countByState(): Record<string, number> {
    this.writeLate();
    const rows = this.db.prepare('SELECT state, COUNT(*) AS n FROM orders GROUP BY state').all() as { state: string; n: number }[];
    return Object.fromEntries(rows.map((r) => [r.state, r.n]));
  }

  /** Writes a state change and its history row (the caller checked legality). */
  setState(clientOrderId: string, from: OrderState, to: OrderState, reason: string | null, nowMs: number, patch: OrderPatch = {}): void {
    this.applyPatch(clientOrderId, { ...patch, reason }, nowMs, to);
    if (this.keepsHistory) this.eventStmt.run(clientOrderId, from, to, reason, nowMs);
  }

  /** Changes non-state fields. */
  patch(clientOrderId: string, patch: OrderPatch, nowMs: number): void {
    this.applyPatch(clientOrderId, patch, nowMs, undefined);
  }

  private applyPatch(clientOrderId: string, patch: OrderPatch, nowMs: number, state: OrderState | undefined): void {
    const kept = this.live.peek(clientOrderId);
    if (kept !== undefined && this.lateRows !== undefined) return this.patchLate(clientOrderId, patch, nowMs, state, kept, this.lateRows);
    const w = patchSql(patch, state, nowMs);
    if (kept !== undefined) {
      // The row as it was is in memory: the row as written is that and the patch, no need to read
      // it back; and the provisional flag, when it changes, is written by the same UPDATE.
      const record = patchedRecord(kept.record, patch, w, state, nowMs);
      const provisional = movesAmounts(patch) ? isProvisional(record) : kept.provisional;
      if (provisional === kept.provisional) this.update(w.sets).run(...w.values, clientOrderId);
      else this.update(`${w.sets}, provisional = ?`).run(...w.values, provisional ? 1 : 0, clientOrderId);
      this.wrote(clientOrderId, kept.record.strategyId);
      this.live.track(record, provisional);
      return;
    }
    // RETURNING: the row as written (none when no row matched), for the live index.
    this.writeLate();
    const row = this.db.prepare(`UPDATE orders SET ${w.sets} WHERE client_order_id = ? RETURNING *`).get(...w.values, clientOrderId) as OrderRow | undefined;
    this.wrote(clientOrderId, row?.strategy_id);
    if (row === undefined) return;
    const record = frozenRecord(row);
    this.live.track(record, row.provisional === 1);
    if (movesAmounts(patch)) this.refreshProvisional(record, row.provisional);
  }

  /** `applyPatch` of a kept record on the scratch store: the row as written becomes the pending one (no SQL). */
  private patchLate(
    clientOrderId: string, patch: OrderPatch, nowMs: number, state: OrderState | undefined,
    kept: { record: OrderRecord; provisional: boolean }, late: LateRows<OrderRow>,
  ): void {
    const d = patchDecimals(patch);
    const record = patchedRecord(kept.record, patch, d, state, nowMs);
    const provisional = movesAmounts(patch) ? isProvisional(record) : kept.provisional;
    late.put(clientOrderId, patchedRow(late.get(clientOrderId), record, d, provisional));
    this.wrote(clientOrderId, kept.record.strategyId);
    this.live.track(record, provisional);
  }

  private update(sets: string): Statement {
    let stmt = this.updates.get(sets);
    if (stmt === undefined) this.updates.set(sets, (stmt = this.db.prepare(`UPDATE orders SET ${sets} WHERE client_order_id = ?`)));
    return stmt;
  }

  /** Decimal strings do not compare in SQL: the flag is decided here after either amount moved (written when it changes). */
  private refreshProvisional(o: OrderRecord, was: number): void {
    const provisional = isProvisional(o) ? 1 : 0;
    if (provisional === was) return;
    this.db.prepare('UPDATE orders SET provisional = ? WHERE client_order_id = ?').run(provisional, o.clientOrderId);
    this.wrote(o.clientOrderId, o.strategyId);
    this.live.track(o, provisional === 1);
  }

  /** The order's state changes, oldest first. Throws on a store that keeps none (`keepsHistory`). */
  history(clientOrderId: string): OrderEventRecord[] {
    if (!this.keepsHistory) throw new Error('orders: a scratch store keeps no order history');
    const rows = this.db
      .prepare('SELECT client_order_id, from_state, to_state, reason, at_ms FROM order_events WHERE client_order_id = ? ORDER BY id')
      .all(clientOrderId) as { client_order_id: string; from_state: string | null; to_state: string; reason: string | null; at_ms: number }[];
    return rows.map((r) => ({
      clientOrderId: r.client_order_id,
      from: r.from_state as OrderState | null,
      to: r.to_state as OrderState,
      reason: r.reason,
      atMs: r.at_ms,
    }));
  }
}
