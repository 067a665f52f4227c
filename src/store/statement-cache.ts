/**
 * Reuses prepared statements. The repositories call `db.prepare(sql)` on every query; compiling
 * the SQL each time was ~5% of a backtest's CPU and garbage for the collector (docs/backtesting.md
 * § Speed), the same per query in the daemon. A statement is stateless between runs in
 * better-sqlite3 (parameters are bound per call), so handing the same one out again is the same
 * query; one still being iterated (`busy`) is never handed out, a fresh one is prepared instead.
 *
 * Bounded: SQL built per call (an `IN (?, ?, ...)` list sized by its input) cannot grow the cache
 * without limit; when full it starts over.
 */
import type Database from 'better-sqlite3';

export const MAX_CACHED_STATEMENTS = 256;

/** Makes `db.prepare` return a cached statement for SQL it has compiled before. */
export function cachePreparedStatements(db: Database.Database): void {
  const cache = new Map<string, Database.Statement>();
  const prepare = db.prepare.bind(db);
  const cached = (sql: string): Database.Statement => {
    const hit = cache.get(sql);
    if (hit !== undefined && !hit.busy) return hit;
    const stmt = prepare(sql);
    if (hit === undefined) {
      if (cache.size >= MAX_CACHED_STATEMENTS) cache.clear();
      cache.set(sql, stmt);
    }
    return stmt;
  };
  db.prepare = cached as typeof db.prepare;
}
