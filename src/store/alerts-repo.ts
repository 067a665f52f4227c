/** Alerts an operator must see, in order; the notifier reads them after their commit. */
import type { Database } from 'better-sqlite3';
import type { AlertRecord } from './types.js';

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
