/**
 * One-minute OHLCV candles (migration 8, docs/market-data.md): folded from the prices the daemon
 * polls (`fold`), or imported (`upsert`); longer timeframes are aggregated on read from the
 * one-minute index (candle-buckets.ts). The minute still being built lives in `candles_open`
 * until a later price or `closeEnded` moves it to `candles_1m`, so a restart continues it; this
 * handle keeps a copy of those rows so that reading them costs no query.
 */
import type { Database } from 'better-sqlite3';
import { dec, toWire, type Decimal } from '../core/decimal.js';
import { bucketStart, foldNewestFirst, type MinuteRow } from './candle-buckets.js';
import type { Ohlcv } from '../model/candles.js';
import { TIMEFRAME_MS, type Candle, type Timeframe } from './types.js';

const MINUTE_MS = 60_000;
const COLS = 'open_ms, open, high, low, close, volume';
/** The open minute's columns as a MinuteRow: its volume is unknown (the listing's is a 24 h figure). */
const OPEN_COLS = 'market, open_ms, open, high, low, close, NULL AS volume';

/** A closed one-minute candle, as imported. */
export interface MinuteCandle extends Ohlcv {
  market: string;
}

/** What an import changed: new minutes, minutes whose values differed, identical minutes. */
export interface UpsertCounts {
  added: number;
  changed: number;
  unchanged: number;
}

type OpenRow = MinuteRow & { market: string };

function wire(c: MinuteCandle): MinuteRow {
  const volume = c.volume === null ? null : toWire(c.volume);
  return { open_ms: c.openMs, open: toWire(c.open), high: toWire(c.high), low: toWire(c.low), close: toWire(c.close), volume };
}

function sameRow(a: MinuteRow, b: MinuteRow): boolean {
  return a.open === b.open && a.high === b.high && a.low === b.low && a.close === b.close && a.volume === b.volume;
}

export class CandlesRepository {
  constructor(
    private readonly db: Database,
    private readonly now: () => number,
    /** No other connection reads this store and nothing of it outlives the process (a backtest's). */
    throwaway = db.memory,
  ) {
    this.writeOpen = !throwaway;
  }

  /**
   * The open minutes (candles_open), read from the table once and then kept in step with every
   * write through this handle, the only writer of that table: a fold costs no read, and
   * `openMinute` (each strategy snapshot) none either. A read-only handle (another process's view)
   * keeps nothing. The table is still written at every change, so a restart continues the minute
   * exactly as before. A write that may have been rolled back
   * (a failed statement here, or a failed transaction around it: the price recorder calls
   * `forgetOpen`) drops the copy, and the next read takes the table again.
   */
  private openRows: Map<string, OpenRow> | undefined;

  /**
   * Whether the open minutes are written to candles_open. A throwaway store (a backtest's,
   * `durability: 'scratch'` or `'memory'`) does not: no other connection reads it and nothing of it outlives
   * the process, so the table would only repeat the kept copy, which every read here answers from.
   * A store on disk writes every change, for a restart and for other readers.
   */
  private readonly writeOpen: boolean;

  /**
   * Folds a price seen at `atMs` into the market's open minute. A price of a later minute first
   * closes the open one as it stands; a price older than the open minute is ignored, and one that
   * changes neither high, low nor close writes nothing.
   */
  fold(market: string, atMs: number, price: Decimal): void {
    this.keeping(() => this.foldKept(market, atMs, price));
  }

  /**
   * A store that keeps no price history (a backtest's, whose input already holds every minute):
   * `fold` and `closeEnded` move only the kept open minutes, which `openMinute` answers from, as
   * they would move with history, and write nothing: a minute that ends is dropped, not stored.
   * Only a throwaway store may (its open minutes are not in the table either).
   */
  keepNoHistory(): void {
    if (this.writeOpen) throw new Error('candles: only a throwaway store may keep no history');
    this.history = false;
  }

  private history = true;

  /** Drops the kept open minutes: the next read takes them from the table. */
  forgetOpen(): void {
    this.openRows = undefined;
  }

  private foldKept(market: string, atMs: number, price: Decimal): void {
    const minute = atMs - (atMs % MINUTE_MS);
    const open = this.opens().get(market);
    if (open !== undefined && open.open_ms > minute) return;
    const p = toWire(price);
    if (open !== undefined && open.open_ms === minute) {
      this.foldInto(open, atMs, price, p);
      return;
    }
    // The open minute moves to the closed ones and its row takes the new minute (one write, no delete).
    if (open !== undefined && this.history) this.toClosed(open);
    if (this.writeOpen) this.writeNewMinute(market, minute, p, atMs);
    this.opens().set(market, { market, open_ms: minute, open: p, high: p, low: p, close: p, volume: null });
  }

  /** A price of the open minute: high, low and close move; a price that moves none writes nothing. */
  private foldInto(open: OpenRow, atMs: number, price: Decimal, p: string): void {
    const high = dec(open.high).gte(price) ? open.high : p;
    const low = dec(open.low).lte(price) ? open.low : p;
    if (high === open.high && low === open.low && p === open.close) return;
    if (this.writeOpen) this.db.prepare('UPDATE candles_open SET high = ?, low = ?, close = ?, updated_ms = ? WHERE market = ?').run(high, low, p, atMs, open.market);
    // Built field by field: a spread with overrides is a slow path on every price read.
    this.opens().set(open.market, { market: open.market, open_ms: open.open_ms, open: open.open, high, low, close: p, volume: open.volume });
  }

  private writeNewMinute(market: string, minute: number, p: string, atMs: number): void {
    this.db
      .prepare(
        'INSERT INTO candles_open (market, open_ms, open, high, low, close, updated_ms) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (market) DO UPDATE SET ' +
          'open_ms = excluded.open_ms, open = excluded.open, high = excluded.high, low = excluded.low, close = excluded.close, updated_ms = excluded.updated_ms',
      )
      .run(market, minute, p, p, p, p, atMs);
  }

  /** Closes every open minute that ended at or before `nowMs` (markets no longer polled too); returns how many. */
  closeEnded(nowMs: number): number {
    return this.keeping(() => {
      const ended = [...this.opens().values()].filter((r) => r.open_ms + MINUTE_MS <= nowMs);
      for (const row of ended) this.close(row);
      return ended.length;
    });
  }

  /** Imports closed minutes: a new minute is added, a differing one replaced, an identical one left alone. */
  upsert(candles: Iterable<MinuteCandle>): UpsertCounts {
    const counts: UpsertCounts = { added: 0, changed: 0, unchanged: 0 };
    const get = this.db.prepare(`SELECT ${COLS} FROM candles_1m WHERE market = ? AND open_ms = ?`);
    const put = this.db.prepare(
      `INSERT INTO candles_1m (market, ${COLS}) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (market, open_ms) DO UPDATE SET ` +
        'open = excluded.open, high = excluded.high, low = excluded.low, close = excluded.close, volume = excluded.volume',
    );
    for (const c of candles) {
      const row = wire(c);
      const before = get.get(c.market, c.openMs) as MinuteRow | undefined;
      if (before !== undefined && sameRow(before, row)) {
        counts.unchanged += 1;
        continue;
      }
      put.run(c.market, row.open_ms, row.open, row.high, row.low, row.close, row.volume);
      counts[before === undefined ? 'added' : 'changed'] += 1;
    }
    return counts;
  }

  /** Deletes minutes (closed or open) that began before `beforeMs`; returns how many. */
  prune(beforeMs: number): number {
    return this.keeping(() => {
      const closed = this.db.prepare('DELETE FROM candles_1m WHERE open_ms < ?').run(beforeMs).changes;
      if (this.writeOpen) this.db.prepare('DELETE FROM candles_open WHERE open_ms < ?').run(beforeMs);
      const open = [...this.opens().values()].filter((r) => r.open_ms < beforeMs);
      for (const r of open) this.opens().delete(r.market);
      return closed + open.length;
    });
  }

  /**
   * The last `count` closed candles of `timeframe` that ended at or before `beforeMs` (default
   * now), oldest first. Buckets with no minute are absent; `minutes` says how full each is.
   */
  closed(market: string, timeframe: Timeframe, count: number, beforeMs?: number): Candle[] {
    const end = bucketStart(Math.min(beforeMs ?? Number.MAX_SAFE_INTEGER, this.now()), timeframe);
    return foldNewestFirst(market, timeframe, this.newestFirst(market, end), count, true);
  }

  /** The candle of `timeframe` still being built now (its bucket has not ended), if it has a minute. */
  open(market: string, timeframe: Timeframe): Candle | undefined {
    const start = bucketStart(this.now(), timeframe);
    return foldNewestFirst(market, timeframe, this.newestFirst(market, start + TIMEFRAME_MS[timeframe], start), 1, false)[0];
  }

  /**
   * Closed minutes that began in [`fromMs`, `endMs`), oldest first: what the in-memory candle
   * windows (src/engine/candle-windows.ts) are fed at start and after each price poll.
   */
  minutes(market: string, fromMs: number, endMs: number): MinuteRow[] {
    return this.db.prepare(`SELECT ${COLS} FROM candles_1m WHERE market = ? AND open_ms >= ? AND open_ms < ? ORDER BY open_ms`).all(market, fromMs, endMs) as MinuteRow[];
  }

  /** Markets with at least one minute (closed or open), sorted. */
  markets(): string[] {
    if (!this.writeOpen) {
      const closed = this.db.prepare('SELECT market FROM candles_1m GROUP BY market').all() as Array<{ market: string }>;
      return [...new Set([...closed.map((r) => r.market), ...this.opens().keys()])].sort();
    }
    const rows = this.db.prepare('SELECT market FROM candles_1m GROUP BY market UNION SELECT market FROM candles_open ORDER BY market').all() as Array<{ market: string }>;
    return rows.map((r) => r.market);
  }

  /**
   * Minutes that began in [`fromMs`, `endMs`), newest first, read backwards along the primary key; the
   * open minute joins them in place (a closed minute of the same start wins, as in `close`).
   */
  private *newestFirst(market: string, endMs: number, fromMs = 0): Generator<MinuteRow> {
    const open = this.openRow(market);
    let pending = open !== undefined && open.open_ms < endMs && open.open_ms >= fromMs ? open : undefined;
    const rows = this.db
      .prepare(`SELECT ${COLS} FROM candles_1m WHERE market = ? AND open_ms >= ? AND open_ms < ? ORDER BY open_ms DESC`)
      .iterate(market, fromMs, endMs) as IterableIterator<MinuteRow>;
    for (const r of rows) {
      if (pending !== undefined && pending.open_ms > r.open_ms) yield pending;
      if (pending !== undefined && pending.open_ms >= r.open_ms) pending = undefined;
      yield r;
    }
    if (pending !== undefined) yield pending;
  }

  /** The minute still being built (no volume), if any: the still-open candle's newest part. */
  openMinute(market: string): MinuteRow | undefined {
    return this.openRow(market);
  }

  /** A copy: the kept row is the table's, whatever a reader does with what it gets. */
  private openRow(market: string): OpenRow | undefined {
    const row = this.opens().get(market);
    return row === undefined ? undefined : { ...row };
  }

  private opens(): Map<string, OpenRow> {
    // A read-only connection (`npm run status`, `npm run prices`) reads a table the daemon writes: never kept.
    if (this.db.readonly) return this.readOpens();
    this.openRows ??= this.readOpens();
    return this.openRows;
  }

  private readOpens(): Map<string, OpenRow> {
    return new Map((this.db.prepare(`SELECT ${OPEN_COLS} FROM candles_open`).all() as OpenRow[]).map((r) => [r.market, r]));
  }

  /** Runs a write of the open minutes; when it fails, the kept copy is dropped (the table may or may not have changed). */
  private keeping<T>(write: () => T): T {
    try {
      return write();
    } catch (err) {
      this.forgetOpen();
      throw err;
    }
  }

  /** Moves an open minute to the closed ones and deletes its row. */
  private close(row: OpenRow): void {
    if (this.history) this.toClosed(row);
    if (this.writeOpen) this.db.prepare('DELETE FROM candles_open WHERE market = ?').run(row.market);
    this.opens().delete(row.market);
  }

  /** Adds an open minute to the closed ones; a minute already there (imported) is kept. */
  private toClosed(row: OpenRow): void {
    this.db
      .prepare(`INSERT INTO candles_1m (market, ${COLS}) VALUES (?, ?, ?, ?, ?, ?, NULL) ON CONFLICT (market, open_ms) DO NOTHING`)
      .run(row.market, row.open_ms, row.open, row.high, row.low, row.close);
  }
}
