/** Flex ledger (unique transaction id), flex close intents, and credit-line snapshots. */
import type { Database, Statement } from 'better-sqlite3';
import { dec, toWire } from '../core/decimal.js';
import type { CreditSnapshot } from '../model/credit.js';
import type { TxView } from './tx-state.js';
import type { FlexIntentRecord, FlexIntentState, FlexRecordRow } from '../model/flex.js';

export class FlexRepository {
  private readonly insertStmt: Statement;
  private writes = 0;
  constructor(
    private readonly db: Database,
    private readonly tx: TxView,
  ) {
    this.insertStmt = db.prepare(
      `INSERT OR IGNORE INTO flex_ledger (transaction_id, created_ms, plan_id, investment_id, currency, amount, action_type)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
    );
  }

  /** Returns false when the transaction id was already in the ledger. */
  insert(r: FlexRecordRow): boolean {
    const wrote =
      this.insertStmt.run(r.transactionId, r.createdAtMs, r.planId, r.investmentId, r.currency, toWire(r.amount), r.actionType).changes === 1;
    if (wrote) this.writes++;
    return wrote;
  }

  /**
   * Counts ledger inserts through this handle (a rolled-back one still counts: a cache keyed by it
   * only recomputes). The ledger is written nowhere else.
   */
  get version(): number {
    return this.writes;
  }

  all(): FlexRecordRow[] {
    const rows = this.db.prepare('SELECT * FROM flex_ledger ORDER BY created_ms, transaction_id').all() as {
      transaction_id: string;
      created_ms: number;
      plan_id: string;
      investment_id: string;
      currency: string;
      amount: string;
      action_type: string;
    }[];
    return rows.map((r) => ({
      transactionId: r.transaction_id,
      createdAtMs: r.created_ms,
      planId: r.plan_id,
      investmentId: r.investment_id,
      currency: r.currency,
      amount: dec(r.amount),
      actionType: r.action_type,
    }));
  }

  count(): number {
    return (this.db.prepare('SELECT COUNT(*) AS n FROM flex_ledger').get() as { n: number }).n;
  }

  insertIntent(id: string, strategyId: string, plan: string, nowMs: number): void {
    this.intentWrites++;
    this.db
      .prepare(`INSERT INTO flex_intents (id, strategy_id, plan, state, created_ms, updated_ms) VALUES (?, ?, ?, 'PENDING', ?, ?)`)
      .run(id, strategyId, plan, nowMs, nowMs);
  }

  setIntent(id: string, state: FlexIntentState, patch: { transactionId?: string; reason?: string }, nowMs: number): void {
    this.intentWrites++;
    this.db
      .prepare(
        'UPDATE flex_intents SET state = ?, transaction_id = COALESCE(?, transaction_id), reason = COALESCE(?, reason), updated_ms = ? WHERE id = ?',
      )
      .run(state, patch.transactionId ?? null, patch.reason ?? null, nowMs, id);
  }

  /**
   * The intents in `states` (all without), oldest first. Every reconciliation pass asks for the
   * unsettled ones and they rarely change, so a read is kept while no intent was written through
   * this handle (the table's only writer; a write counts before it runs, so a failed or rolled-back
   * one only reads again). Inside a transaction nothing is kept: what it reads may be rolled back;
   * nor on a read-only handle (another process's view of the daemon's store).
   * Each caller gets its own copies.
   */
  intents(states?: readonly FlexIntentState[]): FlexIntentRecord[] {
    const key = states?.join(',') ?? '*';
    if (this.tx.rollbackable || this.db.readonly) return this.readIntents(states);
    if (this.keptVersion !== this.intentWrites) {
      this.kept.clear();
      this.keptVersion = this.intentWrites;
    }
    let rows = this.kept.get(key);
    if (rows === undefined) {
      rows = this.readIntents(states);
      this.kept.set(key, rows);
    }
    return rows.map((r) => ({ ...r }));
  }

  private intentWrites = 0;
  private keptVersion = -1;
  private readonly kept = new Map<string, FlexIntentRecord[]>();

  private readIntents(states?: readonly FlexIntentState[]): FlexIntentRecord[] {
    const where = states === undefined ? '' : ` WHERE state IN (${states.map(() => '?').join(',')})`;
    const rows = this.db.prepare(`SELECT * FROM flex_intents${where} ORDER BY created_ms, id`).all(...(states ?? [])) as {
      id: string;
      strategy_id: string;
      plan: string;
      state: string;
      transaction_id: string | null;
      reason: string | null;
      created_ms: number;
      updated_ms: number;
    }[];
    return rows.map((r) => ({
      id: r.id,
      strategyId: r.strategy_id,
      plan: r.plan,
      state: r.state as FlexIntentState,
      transactionId: r.transaction_id,
      reason: r.reason,
      createdMs: r.created_ms,
      updatedMs: r.updated_ms,
    }));
  }
}

/** Credit-line snapshots kept (by id: the newest). */
export const KEPT_SNAPSHOTS = 1000;

export class CreditRepository {
  constructor(private readonly db: Database) {}

  record(s: CreditSnapshot): void {
    const w = (d: CreditSnapshot['amount']): string | null => (d === null ? null : toWire(d));
    const { lastInsertRowid } = this.db
      .prepare(
        `INSERT INTO credit_snapshots (at_ms, active, asset, amount, total_funding, current_ltv, initial_ltv, margin_call_ltv, liquidation_ltv)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(s.atMs, s.active ? 1 : 0, s.asset, w(s.amount), w(s.totalFunding), w(s.currentLtv), w(s.initialLtv), w(s.marginCallLtv), w(s.liquidationLtv));
    // Only the recent history matters operationally; keep the table bounded to the newest
    // KEPT_SNAPSHOTS. The new row has the largest id (AUTOINCREMENT), so nothing is older than
    // the bound before the table holds that many ids.
    const newest = Number(lastInsertRowid);
    if (newest > KEPT_SNAPSHOTS) this.db.prepare('DELETE FROM credit_snapshots WHERE id <= ?').run(newest - KEPT_SNAPSHOTS);
  }

  latest(): CreditSnapshot | undefined {
    const r = this.db.prepare('SELECT * FROM credit_snapshots ORDER BY id DESC LIMIT 1').get() as
      | Record<string, string | number | null>
      | undefined;
    if (r === undefined) return undefined;
    const d = (v: string | number | null | undefined) => (typeof v === 'string' ? dec(v) : null);
    return {
      atMs: r['at_ms'] as number,
      active: r['active'] === 1,
      asset: (r['asset'] as string | null) ?? null,
      amount: d(r['amount']),
      totalFunding: d(r['total_funding']),
      currentLtv: d(r['current_ltv']),
      initialLtv: d(r['initial_ltv']),
      marginCallLtv: d(r['margin_call_ltv']),
      liquidationLtv: d(r['liquidation_ltv']),
    };
  }
}
