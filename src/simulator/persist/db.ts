/**
 * The paper venue's state file: one SQLite database (WAL, synchronous FULL like the bot's store,
 * so a commit is on disk before it returns; exclusive locking, so a second process cannot open
 * the same account; mode 0600). One row per record, each record JSON with Decimals as strings.
 * Every write is one transaction (docs/paper-account.md).
 */
import Database from 'better-sqlite3';
import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import path from 'node:path';
import { PaperStateError } from './fields.js';

/** Version of the layout below; a file of another version is refused, never guessed at. */
export const STATE_FORMAT = '1';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS clock (id INTEGER PRIMARY KEY CHECK (id = 1), json TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS markets (name TEXT PRIMARY KEY, options TEXT NOT NULL, state TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS accounts (api_key TEXT PRIMARY KEY, pos INTEGER NOT NULL, json TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS orders (api_key TEXT NOT NULL, id INTEGER NOT NULL, json TEXT NOT NULL, PRIMARY KEY (api_key, id));
CREATE TABLE IF NOT EXISTS conditionals (api_key TEXT NOT NULL, id INTEGER NOT NULL, json TEXT NOT NULL, PRIMARY KEY (api_key, id));
CREATE TABLE IF NOT EXISTS deals (api_key TEXT NOT NULL, idx INTEGER NOT NULL, id INTEGER NOT NULL, json TEXT NOT NULL, PRIMARY KEY (api_key, idx));
CREATE TABLE IF NOT EXISTS flex_ledger (api_key TEXT NOT NULL, idx INTEGER NOT NULL, json TEXT NOT NULL, PRIMARY KEY (api_key, idx));
`;

/** A record of one account: its key and the stored JSON. */
export interface AccountRow {
  apiKey: string;
  json: string;
}

/** Everything in the file, each table in the order the venue created its rows. */
export interface StoredState {
  clock: string;
  markets: { name: string; options: string; state: string }[];
  accounts: AccountRow[];
  orders: AccountRow[];
  conditionals: AccountRow[];
  deals: AccountRow[];
  flexLedger: AccountRow[];
}

/** The rows one commit writes (upserts; deals and ledger rows are appended by index). */
export interface Batch {
  clock?: string;
  markets: { name: string; options: string; state: string }[];
  accounts: { apiKey: string; pos: number; json: string }[];
  orders: { apiKey: string; id: number; json: string }[];
  conditionals: { apiKey: string; id: number; json: string }[];
  deals: { apiKey: string; idx: number; id: number; json: string }[];
  flexLedger: { apiKey: string; idx: number; json: string }[];
}

export function emptyBatch(): Batch {
  return { markets: [], accounts: [], orders: [], conditionals: [], deals: [], flexLedger: [] };
}

export function batchSize(b: Batch): number {
  const rows = b.markets.length + b.accounts.length + b.orders.length + b.conditionals.length + b.deals.length + b.flexLedger.length;
  return (b.clock === undefined ? 0 : 1) + rows;
}

function privateFile(file: string): void {
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  closeSync(openSync(file, 'a', 0o600));
  chmodSync(file, 0o600);
}

function isBusy(err: unknown): boolean {
  return err instanceof Error && /SQLITE_BUSY|locked/i.test(`${(err as { code?: string }).code ?? ''} ${err.message}`);
}

export class StateDb {
  private readonly write: (b: Batch) => void;

  private constructor(
    readonly file: string,
    private readonly db: Database.Database,
  ) {
    const st = {
      clock: db.prepare('INSERT INTO clock (id, json) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET json = excluded.json'),
      market: db.prepare('INSERT INTO markets (name, options, state) VALUES (?, ?, ?) ON CONFLICT (name) DO UPDATE SET options = excluded.options, state = excluded.state'),
      account: db.prepare('INSERT INTO accounts (api_key, pos, json) VALUES (?, ?, ?) ON CONFLICT (api_key) DO UPDATE SET json = excluded.json'),
      order: db.prepare('INSERT INTO orders (api_key, id, json) VALUES (?, ?, ?) ON CONFLICT (api_key, id) DO UPDATE SET json = excluded.json'),
      cond: db.prepare('INSERT INTO conditionals (api_key, id, json) VALUES (?, ?, ?) ON CONFLICT (api_key, id) DO UPDATE SET json = excluded.json'),
      deal: db.prepare('INSERT INTO deals (api_key, idx, id, json) VALUES (?, ?, ?, ?)'),
      ledger: db.prepare('INSERT INTO flex_ledger (api_key, idx, json) VALUES (?, ?, ?)'),
    };
    this.write = db.transaction((b: Batch) => {
      if (b.clock !== undefined) st.clock.run(b.clock);
      for (const m of b.markets) st.market.run(m.name, m.options, m.state);
      for (const a of b.accounts) st.account.run(a.apiKey, a.pos, a.json);
      for (const o of b.orders) st.order.run(o.apiKey, o.id, o.json);
      for (const c of b.conditionals) st.cond.run(c.apiKey, c.id, c.json);
      for (const d of b.deals) st.deal.run(d.apiKey, d.idx, d.id, d.json);
      for (const l of b.flexLedger) st.ledger.run(l.apiKey, l.idx, l.json);
    });
  }

  /** Opens (creating) the file and takes its lock; throws PaperStateError when another process holds it. */
  static open(file: string): StateDb {
    const abs = path.resolve(file);
    privateFile(abs);
    const db = new Database(abs, { timeout: 0 });
    try {
      db.pragma('locking_mode = EXCLUSIVE');
      db.pragma('journal_mode = WAL');
      // FULL: a commit is on disk before it returns; the reply that reveals it is sent after.
      db.pragma('synchronous = FULL');
      db.exec(`BEGIN EXCLUSIVE; ${SCHEMA} COMMIT;`);
      const format = (db.prepare("SELECT value FROM meta WHERE key = 'format'").get() as { value: string } | undefined)?.value;
      if (format === undefined) db.prepare("INSERT INTO meta (key, value) VALUES ('format', ?)").run(STATE_FORMAT);
      else if (format !== STATE_FORMAT) throw new PaperStateError(`${abs}: state format ${format}, this version reads format ${STATE_FORMAT}`);
    } catch (err) {
      db.close();
      if (err instanceof PaperStateError) throw err;
      if (isBusy(err)) throw new PaperStateError(`${abs} is in use by another process (one paper venue per state file)`, { cause: err });
      const why = err instanceof Error ? err.message : String(err);
      throw new PaperStateError(`${abs}: cannot open the paper venue state: ${why}`, { cause: err });
    }
    if (existsSync(`${abs}-wal`)) chmodSync(`${abs}-wal`, 0o600);
    return new StateDb(abs, db);
  }

  /** True when no venue was ever written here (a new file). */
  isEmpty(): boolean {
    return this.db.prepare('SELECT json FROM clock WHERE id = 1').get() === undefined;
  }

  load(): StoredState {
    const rows = (sql: string): AccountRow[] =>
      (this.db.prepare(sql).all() as { api_key: string; json: string }[]).map((r) => ({ apiKey: r.api_key, json: r.json }));
    const clock = this.db.prepare('SELECT json FROM clock WHERE id = 1').get() as { json: string } | undefined;
    if (clock === undefined) throw new PaperStateError(`${this.file}: no venue state`);
    return {
      clock: clock.json,
      markets: this.db.prepare('SELECT name, options, state FROM markets ORDER BY name').all() as StoredState['markets'],
      accounts: rows('SELECT api_key, json FROM accounts ORDER BY pos'),
      orders: rows('SELECT api_key, json FROM orders ORDER BY id'),
      conditionals: rows('SELECT api_key, json FROM conditionals ORDER BY id'),
      deals: rows('SELECT api_key, json FROM deals ORDER BY api_key, idx'),
      flexLedger: rows('SELECT api_key, json FROM flex_ledger ORDER BY api_key, idx'),
    };
  }

  /** Writes the batch in one transaction: all of it is on disk when this returns, or none of it. */
  commit(b: Batch): void {
    this.write(b);
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}
