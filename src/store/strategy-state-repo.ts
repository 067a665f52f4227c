/**
 * A strategy's persisted key-value state (JSON values), one namespace per strategy.
 *
 * Hooks read their keys on every tick and write them back, mostly unchanged. The values are kept
 * as JSON text by key, as the connection sees them (the store is the table's only writer: the
 * instance lock), so a read needs no query and a write of the value already stored is skipped.
 * `dropAll` is called when a transaction fails (the store's `tx`): a write it made may have been
 * rolled back, so every key is read from SQL again. A backtest's scratch store writes the rows
 * late (late-rows.ts): a key's newest value at the batch's commit, or before a read of the table.
 */
import type { Database } from 'better-sqlite3';
import type { LateRows } from './late-rows.js';

/** A strategy's persisted key-value state; values are JSON. */
export interface StrategyStateStore {
  get<T = unknown>(key: string): T | undefined;
  set(key: string, value: unknown): void;
  /** As `set`, given the value's JSON text. */
  setJson(key: string, json: string): void;
  delete(key: string): void;
  /** Whether the key is known to be stored as exactly this JSON text (`null`: absent); false when not known. */
  holds(key: string, json: string | null): boolean;
  /** Every key and value of this strategy. */
  entries(): Record<string, unknown>;
}

/** Keys kept per strategy; past it the strategy's kept keys start over (a strategy may use many). */
export const MAX_KEPT_KEYS = 1024;

/** The JSON text of a key as stored, `null` when the key is absent. */
type Kept = Map<string, string | null>;

/** A value JSON writes without braces or brackets: immutable, so one value serves every read. */
type Scalar = string | number | boolean | null;

/** Scalars kept by their JSON text; past it the kept ones start over. */
export const MAX_KEPT_SCALARS = 1024;

/** A key's row as written (`json` null: deleted), for the scratch store's late writes (late-rows.ts). */
export interface StateRow {
  strategyId: string;
  key: string;
  json: string | null;
  atMs: number;
}

const UPSERT = `INSERT INTO strategy_state (strategy_id, key, value_json, updated_ms) VALUES (?, ?, ?, ?)
         ON CONFLICT (strategy_id, key) DO UPDATE SET value_json = excluded.value_json, updated_ms = excluded.updated_ms`;
const DELETE = 'DELETE FROM strategy_state WHERE strategy_id = ? AND key = ?';

/** Writes one key's row (an upsert, or a delete when `json` is null). */
export function writeStateRow(db: Database, r: StateRow): void {
  if (r.json === null) db.prepare(DELETE).run(r.strategyId, r.key);
  else db.prepare(UPSERT).run(r.strategyId, r.key, r.json, r.atMs);
}

export class StrategyStates {
  private readonly kept = new Map<string, Kept>();
  /**
   * Parsed scalars by their text. Hooks read a key on every tick (a grid's centre, a fill count)
   * and each read parsed the same text again; a scalar value cannot be changed by its reader, so
   * the one parsed value is what a fresh parse would give. Objects and arrays are parsed at every
   * read: the caller may change what it gets.
   */
  private readonly scalars = new Map<string, Scalar>();

  /** `keep` false: not the table's writer (a read-only view), every read goes to SQL. */
  constructor(
    private readonly db: Database,
    private readonly now: () => number,
    private readonly keep = true,
    /** The scratch store's late rows (late-rows.ts); undefined: each row written as it happens. */
    private readonly late?: LateRows<StateRow>,
  ) {}

  /** The table for a query: the late rows written first. */
  private get sql(): Database {
    this.late?.flush();
    return this.db;
  }

  private write(row: StateRow): void {
    if (this.late === undefined) writeStateRow(this.db, row);
    else this.late.put(`${row.strategyId}\u0000${row.key}`, row);
  }

  /** A write may have been rolled back: forget every kept value. */
  dropAll(): void {
    this.kept.clear();
  }

  private keptOf(strategyId: string): Kept {
    let k = this.kept.get(strategyId);
    if (k === undefined) this.kept.set(strategyId, (k = new Map()));
    return k;
  }

  private remember(strategyId: string, key: string, json: string | null): void {
    if (!this.keep) return;
    const k = this.keptOf(strategyId);
    if (k.size >= MAX_KEPT_KEYS && !k.has(key)) k.clear();
    k.set(key, json);
  }

  private stored(strategyId: string, key: string): string | null {
    const hit = this.kept.get(strategyId)?.get(key);
    if (hit !== undefined) return hit;
    const row = this.sql.prepare('SELECT value_json FROM strategy_state WHERE strategy_id = ? AND key = ?').get(strategyId, key) as
      | { value_json: string }
      | undefined;
    const json = row === undefined ? null : row.value_json;
    this.remember(strategyId, key, json);
    return json;
  }

  private setJson(strategyId: string, key: string, json: string): void {
    if (this.kept.get(strategyId)?.get(key) === json) return;
    this.write({ strategyId, key, json, atMs: this.now() });
    this.remember(strategyId, key, json);
  }

  /** The value of `json`: parsed afresh unless it is a scalar parsed before. */
  private parsed(json: string): unknown {
    const c = json.charCodeAt(0);
    // An object's or array's text (the store's own texts have no leading space): never kept, no lookup.
    if (c === 0x7b || c === 0x5b) return JSON.parse(json);
    const hit = this.scalars.get(json);
    if (hit !== undefined) return hit;
    const value = JSON.parse(json) as unknown;
    // Kept only when the parse gave a scalar (any other text, say with leading space, is parsed at every read).
    if (value === null || typeof value !== 'object') {
      if (this.scalars.size >= MAX_KEPT_SCALARS) this.scalars.clear();
      this.scalars.set(json, value as Scalar);
    }
    return value;
  }

  /** The state of one strategy. Objects and arrays are parsed on every read: a caller may change what it gets. */
  of(strategyId: string): StrategyStateStore {
    return {
      get: <T>(key: string): T | undefined => {
        const json = this.stored(strategyId, key);
        return json === null ? undefined : (this.parsed(json) as T);
      },
      set: (key: string, value: unknown): void => {
        const json = JSON.stringify(value) as string | undefined;
        if (json === undefined) throw new TypeError(`strategy state ${key}: value is not JSON-serialisable`);
        this.setJson(strategyId, key, json);
      },
      setJson: (key: string, json: string): void => this.setJson(strategyId, key, json),
      holds: (key: string, json: string | null): boolean => this.keep && this.kept.get(strategyId)?.get(key) === json,
      delete: (key: string): void => {
        if (this.kept.get(strategyId)?.get(key) === null) return;
        this.write({ strategyId, key, json: null, atMs: this.now() });
        this.remember(strategyId, key, null);
      },
      entries: (): Record<string, unknown> => {
        const rows = this.sql.prepare('SELECT key, value_json FROM strategy_state WHERE strategy_id = ? ORDER BY key').all(strategyId) as {
          key: string;
          value_json: string;
        }[];
        return Object.fromEntries(rows.map((r) => [r.key, JSON.parse(r.value_json) as unknown]));
      },
    };
  }
}
