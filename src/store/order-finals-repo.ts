/**
 * Orders' final states awaiting their strategy's `onOrder` (docs/strategies.md § Order events).
 * A row is written in the transaction that moves the order to FILLED, CANCELLED or REJECTED (a
 * terminal state is reached once, so one row per order) and marked delivered once the hook ran:
 * a restart delivers what was recorded and not yet delivered, and nothing twice.
 *
 * A backtest's scratch store (`kept`) holds the undelivered ones in memory instead: nothing of
 * the run outlives its process, so no restart reads the table, and the engine reads only what is
 * not yet delivered. A `store.tx` that fails undoes what it recorded or marked (`mark`/`undoTo`),
 * as the rollback undoes the rows (test/unit/store/order-finals-kept.test.ts).
 */
import type { Database, Statement } from 'better-sqlite3';
import type { OrderState } from '../core/orders.js';
import type { TxView } from './tx-state.js';

export interface OrderFinalRecord {
  clientOrderId: string;
  strategyId: string;
  state: OrderState;
  /** The engine's reason for the move (`placed`, `cancel confirmed`, `fills`, a refusal's code, ...). */
  reason: string;
  /** What the venue said: a refusal's `code: message`, or the status of its order reply; null when fills or the resolver decided. */
  venue: string | null;
  atMs: number;
}

interface Row {
  client_order_id: string;
  strategy_id: string;
  state: string;
  reason: string;
  venue: string | null;
  at_ms: number;
}

/** One change to the kept finals, undone when the `store.tx` it was made in fails. */
type Change = { added: string } | { delivered: OrderFinalRecord };

/** The table's order: `ORDER BY at_ms, client_order_id` (ids are ASCII: code units order as SQLite's bytes). */
const byTimeThenId = (a: OrderFinalRecord, b: OrderFinalRecord): number =>
  a.atMs - b.atMs || (a.clientOrderId < b.clientOrderId ? -1 : a.clientOrderId > b.clientOrderId ? 1 : 0);

export class OrderFinalsRepository {
  private readonly insertStmt: Statement;
  private readonly pendingStmt: Statement;
  private readonly deliveredStmt: Statement;
  /** Kept mode: the undelivered finals by clientOrderId. */
  private readonly undeliveredKept = new Map<string, OrderFinalRecord>();
  /** Kept mode: the changes made inside `store.tx` calls still under way, oldest first (none outside one). */
  private readonly changes: Change[] = [];

  /** `kept`: a scratch store's (above); otherwise the table. */
  constructor(
    db: Database,
    private readonly tx: TxView,
    private readonly kept = false,
  ) {
    this.insertStmt = db.prepare(
      `INSERT INTO order_finals (client_order_id, strategy_id, state, reason, venue, at_ms)
       VALUES (@clientOrderId, @strategyId, @state, @reason, @venue, @atMs) ON CONFLICT (client_order_id) DO NOTHING`,
    );
    this.pendingStmt = db.prepare('SELECT * FROM order_finals WHERE delivered_ms IS NULL ORDER BY at_ms, client_order_id');
    this.deliveredStmt = db.prepare('UPDATE order_finals SET delivered_ms = ? WHERE client_order_id = ? AND delivered_ms IS NULL');
  }

  /** Records a final state; a second record for the same order is ignored (terminal is reached once). */
  record(r: OrderFinalRecord): void {
    if (!this.kept) {
      this.insertStmt.run(r);
      return;
    }
    // The journal records an order's final once (a terminal state has no way out, order-state.ts):
    // only an undelivered one can be recorded again, and is ignored as the table's conflict rule
    // does. No set of every order ever recorded: memory stays flat over the run.
    if (this.undeliveredKept.has(r.clientOrderId)) return;
    this.undeliveredKept.set(r.clientOrderId, { ...r });
    if (this.tx.rollbackable) this.changes.push({ added: r.clientOrderId });
  }

  /** Final states not yet delivered, oldest first. */
  undelivered(): OrderFinalRecord[] {
    if (this.kept) return [...this.undeliveredKept.values()].map((r) => ({ ...r })).sort(byTimeThenId);
    return (this.pendingStmt.all() as Row[]).map((r) => ({
      clientOrderId: r.client_order_id,
      strategyId: r.strategy_id,
      state: r.state as OrderState,
      reason: r.reason,
      venue: r.venue,
      atMs: r.at_ms,
    }));
  }

  /** Marks one delivered; returns false when it already was. */
  markDelivered(clientOrderId: string, nowMs: number): boolean {
    if (!this.kept) return this.deliveredStmt.run(nowMs, clientOrderId).changes === 1;
    const r = this.undeliveredKept.get(clientOrderId);
    if (r === undefined) return false;
    this.undeliveredKept.delete(clientOrderId);
    if (this.tx.rollbackable) this.changes.push({ delivered: r });
    return true;
  }

  /** Where the changes stand as a `store.tx` begins (kept mode; the table needs none). */
  mark(): number {
    return this.changes.length;
  }

  /** That `store.tx` rolled back: its changes are undone, newest first. */
  undoTo(mark: number): void {
    while (this.changes.length > mark) {
      const c = this.changes.pop() as Change;
      if ('added' in c) {
        this.undeliveredKept.delete(c.added);
      } else {
        this.undeliveredKept.set(c.delivered.clientOrderId, c.delivered);
      }
    }
  }

  /** The outermost `store.tx` ended: what it changed stays (committed, or undone already). */
  settled(): void {
    this.changes.length = 0;
  }
}
