/** Key-value tables: meta values and named scan checkpoints. */
import type { Database } from 'better-sqlite3';

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
