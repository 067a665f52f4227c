/**
 * Orders' final states awaiting their strategy's `onOrder` (docs/strategies.md § Order events).
 * A row is written in the transaction that moves the order to FILLED, CANCELLED or REJECTED (a
 * terminal state is reached once, so one row per order) and marked delivered once the hook ran:
 * a restart delivers what was recorded and not yet delivered, and nothing twice.
 */
import type { Database, Statement } from 'better-sqlite3';
import type { OrderState } from '../core/orders.js';

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

export class OrderFinalsRepository {
  private readonly insertStmt: Statement;
  private readonly pendingStmt: Statement;
  private readonly deliveredStmt: Statement;

  constructor(db: Database) {
    this.insertStmt = db.prepare(
      `INSERT INTO order_finals (client_order_id, strategy_id, state, reason, venue, at_ms)
       VALUES (@clientOrderId, @strategyId, @state, @reason, @venue, @atMs) ON CONFLICT (client_order_id) DO NOTHING`,
    );
    this.pendingStmt = db.prepare('SELECT * FROM order_finals WHERE delivered_ms IS NULL ORDER BY at_ms, client_order_id');
    this.deliveredStmt = db.prepare('UPDATE order_finals SET delivered_ms = ? WHERE client_order_id = ? AND delivered_ms IS NULL');
  }

  /** Records a final state; a second record for the same order is ignored (terminal is reached once). */
  record(r: OrderFinalRecord): void {
    this.insertStmt.run(r);
  }

  /** Final states not yet delivered, oldest first. */
  undelivered(): OrderFinalRecord[] {
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
    return this.deliveredStmt.run(nowMs, clientOrderId).changes === 1;
  }
}
