/** Key-value tables: meta values and named scan checkpoints. */
import type { Database } from 'better-sqlite3';
import type { LateRows } from './late-rows.js';

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

/** A checkpoint's row as written. */
export interface CheckpointRow {
  name: string;
  value: string;
  atMs: number;
}

const UPSERT = 'INSERT INTO checkpoints (name, value, updated_ms) VALUES (?, ?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value, updated_ms = excluded.updated_ms';

/** Writes one checkpoint's row. */
export function writeCheckpoint(db: Database, r: CheckpointRow): void {
  db.prepare(UPSERT).run(r.name, r.value, r.atMs);
}

/**
 * Named scan checkpoints (e.g. the executed-history anchor, the flex history high-water mark).
 * A backtest's scratch store writes them late (late-rows.ts): a checkpoint moved with every fill
 * batch is one upsert at the batch's commit, and a read takes a pending value as it stands.
 */
export class CheckpointsRepository {
  constructor(
    private readonly db: Database,
    private readonly late?: LateRows<CheckpointRow>,
  ) {}
  get(name: string): { value: string; updatedMs: number } | undefined {
    const pending = this.late?.get(name);
    if (pending !== undefined) return { value: pending.value, updatedMs: pending.atMs };
    const row = this.db.prepare('SELECT value, updated_ms FROM checkpoints WHERE name = ?').get(name) as
      | { value: string; updated_ms: number }
      | undefined;
    return row === undefined ? undefined : { value: row.value, updatedMs: row.updated_ms };
  }
  set(name: string, value: string, nowMs: number): void {
    if (this.late === undefined) writeCheckpoint(this.db, { name, value, atMs: nowMs });
    else this.late.put(name, { name, value, atMs: nowMs });
  }
}
