/**
 * Staging for one executed-history scan. A scan must see every page before anything is applied
 * (the checkpoint moves only with the whole scan), and the first scan of an old account can
 * return hundreds of thousands of deals: holding them as JS objects costs about 1 KB each, enough
 * to trip pm2's memory restart during start-up, again on every restart. Pages go into a TEMP
 * table of this connection instead (never in the database file, gone when the connection
 * closes), de-duplicated by deal id, and are read back oldest first in bounded chunks.
 *
 * The store does not know the venue's deal type: a staged deal is its id, its time and an opaque
 * payload the engine encodes and decodes.
 */
import type { Database, Statement } from 'better-sqlite3';

export interface StagedDeal {
  dealId: number;
  timeMs: number;
  payload: string;
}

interface StagedRow {
  deal_id: number;
  time_ms: number;
  payload: string;
}

export class ScanStage {
  private stmts:
    | { insert: Statement; first: Statement; after: Statement; count: Statement; addAll: (deals: readonly StagedDeal[]) => number }
    | undefined;

  constructor(private readonly db: Database) {}

  /** Created on first use, so a read-only handle never touches it. */
  private prepared(): NonNullable<ScanStage['stmts']> {
    if (this.stmts === undefined) {
      this.db.exec(`CREATE TEMP TABLE IF NOT EXISTS scan_stage (deal_id INTEGER PRIMARY KEY, time_ms INTEGER NOT NULL, payload TEXT NOT NULL);
        CREATE INDEX IF NOT EXISTS temp.scan_stage_time ON scan_stage (time_ms, deal_id);`);
      const insert = this.db.prepare('INSERT OR IGNORE INTO temp.scan_stage (deal_id, time_ms, payload) VALUES (?, ?, ?)');
      this.stmts = {
        insert,
        first: this.db.prepare('SELECT * FROM temp.scan_stage ORDER BY time_ms, deal_id LIMIT ?'),
        after: this.db.prepare('SELECT * FROM temp.scan_stage WHERE (time_ms, deal_id) > (?, ?) ORDER BY time_ms, deal_id LIMIT ?'),
        count: this.db.prepare('SELECT COUNT(*) AS n FROM temp.scan_stage'),
        // Built once: better-sqlite3 builds four wrapper functions per `db.transaction` call.
        addAll: this.db.transaction((deals: readonly StagedDeal[]) => {
          let added = 0;
          for (const d of deals) added += insert.run(d.dealId, d.timeMs, d.payload).changes;
          return added;
        }),
      };
    }
    return this.stmts;
  }

  /** Empties the stage (start and end of every scan). */
  clear(): void {
    this.prepared();
    this.db.exec('DELETE FROM temp.scan_stage');
  }

  /** Stages a page; returns how many of its deals were not staged yet. */
  add(deals: readonly StagedDeal[]): number {
    return this.prepared().addAll(deals);
  }

  count(): number {
    return (this.prepared().count.get() as { n: number }).n;
  }

  /** The staged deals oldest first (time, then deal id), `size` at a time. */
  *chunks(size: number): Generator<StagedDeal[]> {
    const { first, after } = this.prepared();
    let rows = first.all(size) as StagedRow[];
    while (rows.length > 0) {
      yield rows.map((r) => ({ dealId: r.deal_id, timeMs: r.time_ms, payload: r.payload }));
      if (rows.length < size) return;
      const last = rows[rows.length - 1] as StagedRow;
      rows = after.all(last.time_ms, last.deal_id, size) as StagedRow[];
    }
  }
}
