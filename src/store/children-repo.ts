/** The protective legs (stop-loss / take-profit) of collateral orders and what the venue showed of them. */
import type { Database } from 'better-sqlite3';
import { toWire, type Decimal } from '../core/decimal.js';
import { storedDecimal } from './stored-decimal.js';
import type { TxView } from './tx-state.js';
import type { ChildKind, ChildRecord, ChildState } from '../model/conditional.js';

interface ChildRow {
  id: number;
  parent_client_order_id: string;
  strategy_id: string;
  oto_id: number | null;
  kind: string;
  price: string;
  order_id: number | null;
  oco_id: number | null;
  state: string;
  updated_ms: number;
}

function toChild(r: ChildRow): ChildRecord {
  return {
    id: r.id,
    parentClientOrderId: r.parent_client_order_id,
    strategyId: r.strategy_id,
    otoId: r.oto_id,
    kind: r.kind as ChildKind,
    price: storedDecimal(r.price),
    orderId: r.order_id,
    ocoId: r.oco_id,
    state: r.state as ChildState,
    updatedMs: r.updated_ms,
  };
}

/** The legs not yet settled, by id: the WHERE of the `children_live` index (migrations.ts), which answers it. */
export const LIVE_LEGS_SQL = `SELECT * FROM children WHERE state IN ('armed','active','missing') ORDER BY id`;

/** Stop-loss / take-profit legs of collateral orders. */
export class ChildrenRepository {
  private writes = 0;
  /** The live legs as read at write count `version` (frozen records). */
  private liveKept: { version: number; rows: readonly ChildRecord[] } | undefined;
  /** Writes per strategy (bounded by the number of strategies): `versionOf`. */
  private readonly writesBy = new Map<string, number>();

  /** `ordersWritten`: writes the orders rows still pending (a leg's foreign key needs its parent's row). */
  constructor(
    private readonly db: Database,
    private readonly tx: TxView,
    private readonly ordersWritten: () => void = () => undefined,
  ) {}

  /** Counts writes through this handle (as OrdersRepository.version). */
  get version(): number {
    return this.writes;
  }

  /** Counts writes to `strategyId`'s legs (a leg never changes strategy). */
  versionOf(strategyId: string): number {
    return this.writesBy.get(strategyId) ?? 0;
  }

  private wrote(strategyIds: readonly string[]): void {
    this.writes++;
    for (const id of new Set(strategyIds)) this.writesBy.set(id, (this.writesBy.get(id) ?? 0) + 1);
  }

  add(parentClientOrderId: string, strategyId: string, kind: ChildKind, price: Decimal, nowMs: number): void {
    this.ordersWritten();
    this.db
      .prepare(
        `INSERT OR IGNORE INTO children (parent_client_order_id, strategy_id, kind, price, state, updated_ms)
         VALUES (?, ?, ?, ?, 'armed', ?)`,
      )
      .run(parentClientOrderId, strategyId, kind, toWire(price), nowMs);
    this.wrote([strategyId]);
  }
  update(id: number, patch: { otoId?: number; orderId?: number; ocoId?: number; state?: ChildState }, nowMs: number): void {
    const sets = ['updated_ms = @now'];
    const p: Record<string, unknown> = { id, now: nowMs };
    for (const [k, col] of [
      ['otoId', 'oto_id'],
      ['orderId', 'order_id'],
      ['ocoId', 'oco_id'],
      ['state', 'state'],
    ] as const) {
      if (patch[k] !== undefined) {
        sets.push(`${col} = @${k}`);
        p[k] = patch[k];
      }
    }
    // RETURNING names the strategy whose legs changed (none when no row matched).
    const rows = this.db.prepare(`UPDATE children SET ${sets.join(', ')} WHERE id = @id RETURNING strategy_id`).all(p) as { strategy_id: string }[];
    this.wrote(rows.map((r) => r.strategy_id));
  }
  /** Sets the OTO id on every child of a parent. */
  setOtoId(parentClientOrderId: string, otoId: number, nowMs: number): void {
    const rows = this.db
      .prepare('UPDATE children SET oto_id = ?, updated_ms = ? WHERE parent_client_order_id = ? RETURNING strategy_id')
      .all(otoId, nowMs, parentClientOrderId) as { strategy_id: string }[];
    this.wrote(rows.map((r) => r.strategy_id));
  }
  byParent(parentClientOrderId: string): ChildRecord[] {
    return (this.db.prepare('SELECT * FROM children WHERE parent_client_order_id = ? ORDER BY id').all(parentClientOrderId) as ChildRow[]).map(toChild);
  }
  /** One leg by its id (the primary key: one row read, however many legs the store holds). */
  byId(id: number): ChildRecord | undefined {
    const row = this.db.prepare('SELECT * FROM children WHERE id = ?').get(id) as ChildRow | undefined;
    return row === undefined ? undefined : toChild(row);
  }
  byOrderId(orderId: number): ChildRecord | undefined {
    const row = this.db.prepare('SELECT * FROM children WHERE order_id = ?').get(orderId) as ChildRow | undefined;
    return row === undefined ? undefined : toChild(row);
  }
  /**
   * Children not yet settled (armed, active or missing). Kept while nothing was written through
   * this handle (children are written only here); never kept from inside a transaction, whose
   * reads may still be rolled back (a rolled-back write has moved the counter anyway). A list
   * kept before a transaction is still the table's inside it until the transaction writes a
   * child (the fill applier's look for legs, in every fill batch's transaction): it is handed out
   * there too, so only a read after a write scans the table.
   */
  live(): ChildRecord[] {
    const kept = this.liveKept?.version === this.writes ? this.liveKept : undefined;
    if (kept === undefined && this.tx.rollbackable) return this.readLive();
    this.liveKept = kept ?? { version: this.writes, rows: this.readLive().map((c) => Object.freeze(c)) };
    return [...this.liveKept.rows];
  }

  private readLive(): ChildRecord[] {
    return (this.db.prepare(LIVE_LEGS_SQL).all() as ChildRow[]).map(toChild);
  }
  all(): ChildRecord[] {
    return (this.db.prepare('SELECT * FROM children ORDER BY id').all() as ChildRow[]).map(toChild);
  }
}
