/** A strategy's persisted key-value state (JSON values), one namespace per strategy. */
import type { Database } from 'better-sqlite3';

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
