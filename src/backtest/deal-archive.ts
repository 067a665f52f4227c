/**
 * The venue's older deals on disk (`DealArchive`, src/simulator/types.ts): a backtest's account
 * makes about 400 deals a simulated day, ~680 bytes each in memory, so a year held them all
 * (100 MB) although only the newest are read while the run goes on. Those the in-process gateway
 * moves here (in-process-venue.ts) are rows of a SQLite file in the run's own temp directory
 * (removed when the archive closes, or when the process exits): each deal as the simulator's
 * persistence encodes it (every Decimal as its exact string, read back equal), indexed by
 * clientOrderId (an order's deals, which the resolver may still ask for) and read back in order
 * for venue-fills.json. Its page cache is small; the file's pages live in the OS cache.
 */
import Database from 'better-sqlite3';
import type { Statement } from 'better-sqlite3';
import path from 'node:path';
import { ensurePrivateFile, privateTempDir, removeDir } from '../store/files.js';
import { readDeal } from '../simulator/persist/codec.js';
import { Fields } from '../simulator/persist/fields.js';
import type { Deal, DealArchive } from '../simulator/types.js';

/** Page cache of the archive, KiB (its reads are an index lookup or one pass in order). */
const CACHE_KIB = 2048;

/** Rows read per query of a pass over the whole archive. */
const PASS_ROWS = 1000;

interface Row {
  seq: number;
  json: string;
}

/**
 * An archived deal's fields as stored (the simulator's encode): each decimal the exact text its
 * Decimal's toFixed() printed, so what is printed again needs no parsing.
 */
export interface StoredDeal {
  id: number;
  orderId: number;
  clientOrderId: string;
  market: string;
  side: string;
  amount: string;
  price: string;
  fee: string;
  timeMs: number;
}

function dealOf(row: Row): Deal {
  return readDeal(Fields.parse(`archived deal ${row.seq}`, row.json));
}

/**
 * A deal's row text: the fields `readDeal` reads, each Decimal as `encode` writes it (its exact
 * `toFixed` string), so a row reads back as the very deal. JSON.stringify without a replacer:
 * `encode`'s replacer runs for every key and prints each Decimal twice (its toJSON, then toFixed),
 * about half of what archiving a deal cost.
 */
export function encodeDeal(d: Deal): string {
  return JSON.stringify({
    id: d.id, orderId: d.orderId, clientOrderId: d.clientOrderId, market: d.market, side: d.side, role: d.role,
    amount: d.amount.toFixed(), price: d.price.toFixed(), deal: d.deal.toFixed(), fee: d.fee.toFixed(), feeAsset: d.feeAsset, timeMs: d.timeMs,
  });
}

export class SqliteDealArchive implements DealArchive {
  private readonly dir: string;
  private readonly db: Database.Database;
  private readonly insert: Statement<[number, string, number, string]>;
  private readonly byOrder: Statement<[string], Row>;
  private readonly fromTime: Statement<[number], Row>;
  private readonly page: Statement<[number, number], Row>;
  private rows = 0;

  constructor() {
    this.dir = privateTempDir('v4-bot-deals-');
    const file = path.join(this.dir, 'deals.sqlite');
    ensurePrivateFile(file);
    this.db = new Database(file);
    // A scratch file: nothing to recover after a crash, the run starts again.
    this.db.pragma('journal_mode = OFF');
    this.db.pragma('synchronous = OFF');
    this.db.pragma(`cache_size = -${CACHE_KIB}`);
    this.db.exec(
      'CREATE TABLE deal (seq INTEGER PRIMARY KEY, client_order_id TEXT NOT NULL, time_ms INTEGER NOT NULL, json TEXT NOT NULL);' +
        'CREATE INDEX deal_order ON deal (client_order_id);' +
        'CREATE INDEX deal_time ON deal (time_ms);',
    );
    this.insert = this.db.prepare('INSERT INTO deal (seq, client_order_id, time_ms, json) VALUES (?, ?, ?, ?)');
    this.byOrder = this.db.prepare('SELECT seq, json FROM deal WHERE client_order_id = ? ORDER BY seq');
    this.fromTime = this.db.prepare('SELECT seq, json FROM deal WHERE time_ms >= ? ORDER BY seq');
    this.page = this.db.prepare('SELECT seq, json FROM deal WHERE seq > ? ORDER BY seq LIMIT ?');
  }

  get count(): number {
    return this.rows;
  }

  add(deals: readonly Deal[]): void {
    if (deals.length === 0) return;
    this.db.transaction(() => {
      for (const d of deals) this.insert.run(++this.rows, d.clientOrderId, d.timeMs, encodeDeal(d));
    })();
  }

  ofClientOrder(clientOrderId: string): Deal[] {
    return this.byOrder.all(clientOrderId).map(dealOf);
  }

  since(fromMs: number): Deal[] {
    return this.fromTime.all(fromMs).map(dealOf);
  }

  /** Every archived deal in order, PASS_ROWS at a time (never all in memory). */
  *all(): Generator<Deal> {
    for (const r of this.rowsInOrder()) yield dealOf(r);
  }

  /**
   * Every archived deal in order as stored, its decimals left as text (venue-fills.json prints
   * them as they are: a year's deals parsed into Decimals only to be printed again cost seconds).
   * The rows are this archive's own writes (`add`), so their shape is the Deal's.
   */
  *storedInOrder(): Generator<StoredDeal> {
    for (const r of this.rowsInOrder()) yield JSON.parse(r.json) as StoredDeal;
  }

  private *rowsInOrder(): Generator<Row> {
    let after = 0;
    for (;;) {
      const rows = this.page.all(after, PASS_ROWS);
      yield* rows;
      if (rows.length < PASS_ROWS) return;
      after = (rows[rows.length - 1] as Row).seq;
    }
  }

  /** Closes the file and removes its directory. */
  close(): void {
    this.db.close();
    removeDir(this.dir);
  }
}
