/** Small repositories: checkpoints, meta values, alerts, OTO/OCO children, strategy key-value state. */
import type { Database } from 'better-sqlite3';
import { dec, toWire, type Decimal } from '../core/decimal.js';
import type { AlertRecord } from './types.js';
import type { ChildKind, ChildRecord, ChildState } from '../model/conditional.js';

export class MetaRepository {
  constructor(private readonly db: Database) {}
  get(key: string): string | undefined {
    return (this.db.prepare('SELECT value FROM meta WHERE key = ?').get(key) as { value: string } | undefined)?.value;
  }
  set(key: string, value: string): void {
    this.db.prepare('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value').run(key, value);
  }
  delete(key: string): void {
    this.db.prepare('DELETE FROM meta WHERE key = ?').run(key);
  }
}

/** Named scan checkpoints (e.g. the executed-history anchor, the flex history high-water mark). */
export class CheckpointsRepository {
  constructor(private readonly db: Database) {}
  get(name: string): { value: string; updatedMs: number } | undefined {
    const row = this.db.prepare('SELECT value, updated_ms FROM checkpoints WHERE name = ?').get(name) as
      | { value: string; updated_ms: number }
      | undefined;
    return row === undefined ? undefined : { value: row.value, updatedMs: row.updated_ms };
  }
  set(name: string, value: string, nowMs: number): void {
    this.db
      .prepare(
        'INSERT INTO checkpoints (name, value, updated_ms) VALUES (?, ?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value, updated_ms = excluded.updated_ms',
      )
      .run(name, value, nowMs);
  }
}

export class AlertsRepository {
  constructor(private readonly db: Database) {}
  add(kind: string, subject: string, detail: string, nowMs: number): void {
    this.db.prepare('INSERT INTO alerts (at_ms, kind, subject, detail) VALUES (?, ?, ?, ?)').run(nowMs, kind, subject, detail);
  }
  list(kind?: string): AlertRecord[] {
    const rows = (
      kind === undefined
        ? this.db.prepare('SELECT * FROM alerts ORDER BY id').all()
        : this.db.prepare('SELECT * FROM alerts WHERE kind = ? ORDER BY id').all(kind)
    ) as { id: number; at_ms: number; kind: string; subject: string; detail: string }[];
    return rows.map((r) => ({ id: r.id, atMs: r.at_ms, kind: r.kind, subject: r.subject, detail: r.detail }));
  }
  /** Highest alert id so far (0 when none): where a reader of new alerts starts. */
  maxId(): number {
    return (this.db.prepare('SELECT COALESCE(MAX(id), 0) AS id FROM alerts').get() as { id: number }).id;
  }
  /** Alerts with an id above `id`, oldest first, at most `limit` (the notifier's poll). */
  after(id: number, limit = 100): AlertRecord[] {
    const rows = this.db.prepare('SELECT * FROM alerts WHERE id > ? ORDER BY id LIMIT ?').all(id, limit) as { id: number; at_ms: number; kind: string; subject: string; detail: string }[];
    return rows.map((r) => ({ id: r.id, atMs: r.at_ms, kind: r.kind, subject: r.subject, detail: r.detail }));
  }
}

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
    price: dec(r.price),
    orderId: r.order_id,
    ocoId: r.oco_id,
    state: r.state as ChildState,
    updatedMs: r.updated_ms,
  };
}

/** Stop-loss / take-profit legs of collateral orders. */
export class ChildrenRepository {
  constructor(private readonly db: Database) {}
  add(parentClientOrderId: string, strategyId: string, kind: ChildKind, price: Decimal, nowMs: number): void {
    this.db
      .prepare(
        `INSERT OR IGNORE INTO children (parent_client_order_id, strategy_id, kind, price, state, updated_ms)
         VALUES (?, ?, ?, ?, 'armed', ?)`,
      )
      .run(parentClientOrderId, strategyId, kind, toWire(price), nowMs);
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
    this.db.prepare(`UPDATE children SET ${sets.join(', ')} WHERE id = @id`).run(p);
  }
  /** Sets the OTO id on every child of a parent. */
  setOtoId(parentClientOrderId: string, otoId: number, nowMs: number): void {
    this.db.prepare('UPDATE children SET oto_id = ?, updated_ms = ? WHERE parent_client_order_id = ?').run(otoId, nowMs, parentClientOrderId);
  }
  byParent(parentClientOrderId: string): ChildRecord[] {
    return (this.db.prepare('SELECT * FROM children WHERE parent_client_order_id = ? ORDER BY id').all(parentClientOrderId) as ChildRow[]).map(toChild);
  }
  byOrderId(orderId: number): ChildRecord | undefined {
    const row = this.db.prepare('SELECT * FROM children WHERE order_id = ?').get(orderId) as ChildRow | undefined;
    return row === undefined ? undefined : toChild(row);
  }
  /** Children not yet settled (armed, active or missing). */
  live(): ChildRecord[] {
    return (
      this.db.prepare(`SELECT * FROM children WHERE state IN ('armed','active','missing') ORDER BY id`).all() as ChildRow[]
    ).map(toChild);
  }
  all(): ChildRecord[] {
    return (this.db.prepare('SELECT * FROM children ORDER BY id').all() as ChildRow[]).map(toChild);
  }
}

/** A strategy's persisted key-value state; values are JSON. */
export interface StrategyStateStore {
  get<T = unknown>(key: string): T | undefined;
  set(key: string, value: unknown): void;
  delete(key: string): void;
  /** Every key and value of this strategy. */
  entries(): Record<string, unknown>;
}

export function strategyStateStore(db: Database, strategyId: string, now: () => number): StrategyStateStore {
  return {
    get<T>(key: string): T | undefined {
      const row = db.prepare('SELECT value_json FROM strategy_state WHERE strategy_id = ? AND key = ?').get(strategyId, key) as
        | { value_json: string }
        | undefined;
      return row === undefined ? undefined : (JSON.parse(row.value_json) as T);
    },
    set(key: string, value: unknown): void {
      const json = JSON.stringify(value);
      if (json === undefined) throw new TypeError(`strategy state ${key}: value is not JSON-serialisable`);
      db.prepare(
        `INSERT INTO strategy_state (strategy_id, key, value_json, updated_ms) VALUES (?, ?, ?, ?)
         ON CONFLICT (strategy_id, key) DO UPDATE SET value_json = excluded.value_json, updated_ms = excluded.updated_ms`,
      ).run(strategyId, key, json, now());
    },
    delete(key: string): void {
      db.prepare('DELETE FROM strategy_state WHERE strategy_id = ? AND key = ?').run(strategyId, key);
    },
    entries(): Record<string, unknown> {
      const rows = db.prepare('SELECT key, value_json FROM strategy_state WHERE strategy_id = ? ORDER BY key').all(strategyId) as {
        key: string;
        value_json: string;
      }[];
      return Object.fromEntries(rows.map((r) => [r.key, JSON.parse(r.value_json) as unknown]));
    },
  };
}
