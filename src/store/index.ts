/**
 * The bot's durable store: one SQLite file in the data dir (WAL, synchronous FULL, versioned
 * migrations, files 0600, exclusive instance lock). Amounts are decimal strings on disk. Only a
 * backtest's throwaway store is opened without fsync, in a temp file or in memory
 * (OpenStoreOptions.durability).
 *
 * Writes that belong together go through `store.tx(fn)`: one SQLite transaction, all or nothing.
 * A failed write surfaces as `StoreError` (never swallowed, never reported as success).
 */
import Database from 'better-sqlite3';
import path from 'node:path';
import type { Clock } from '../core/clock.js';
import { StoreError } from '../core/errors.js';
import type { Logger } from '../observability/logger.js';
import { ensurePrivateDir, ensurePrivateFile, privateTempDir, removeDir, tightenIfExists } from './files.js';
import type { AuditRepository } from './audit-repo.js';
import type { ConsoleRepository } from './console-repo.js';
import type { FillsRepository } from './fills-repo.js';
import type { CreditRepository, FlexRepository } from './flex-credit-repos.js';
import type { ScanStage } from './scan-stage.js';
import type { PriceSamplesRepository } from './price-samples-repo.js';
import type { CandlesRepository } from './candles-repo.js';
import { acquireInstanceLock } from './lock.js';
import { migrate } from './migrations.js';
import { cachePreparedStatements } from './statement-cache.js';
import type { AlertsRepository } from './alerts-repo.js';
import type { ChildrenRepository } from './children-repo.js';
import type { CheckpointsRepository, MetaRepository } from './meta-repo.js';
import type { StrategyStateStore } from './strategy-state-repo.js';
import type { OrdersRepository } from './orders-repo.js';
import type { OrderFinalsRepository } from './order-finals-repo.js';
import type { NoncePersistence } from '../model/nonce.js';
import { SqliteStore, wrapIo } from './sqlite-store.js';

export * from './types.js';
export type { OrderPatch } from './orders-repo.js';
export type { StrategyStateStore } from './strategy-state-repo.js';
export type { OrdersRepository } from './orders-repo.js';
export type { OrderFinalsRepository, OrderFinalRecord } from './order-finals-repo.js';
export type { FillsRepository } from './fills-repo.js';
export type { AuditRepository, FillsFingerprint, OwnFillRow } from './audit-repo.js';
export type { ConsoleRepository, ControlActionRecord, EquityPoint, PausedRecord } from './console-repo.js';
export type { FlexRepository, CreditRepository } from './flex-credit-repos.js';
export type { ScanStage, StagedDeal } from './scan-stage.js';
export type { PriceSamplesRepository, PriceSample } from './price-samples-repo.js';
export type { CandlesRepository, MinuteCandle, UpsertCounts } from './candles-repo.js';
export type { AlertsRepository } from './alerts-repo.js';
export type { ChildrenRepository } from './children-repo.js';
export type { CheckpointsRepository, MetaRepository } from './meta-repo.js';

/** File name of the database inside the data dir. */
export const DB_FILE = 'bot.sqlite';

export interface OpenStoreOptions {
  /** Directory holding the database and lock (created 0700 if missing). */
  dataDir: string;
  clock: Clock;
  logger: Logger;
  /**
   * `none` is for a throwaway store only (a backtest's, in its own temp dir, deleted at the end):
   * no fsync and the rollback journal in memory, so a commit costs no disk flush, but a crash can
   * corrupt the file. The daemon never sets it: its store is `full` (WAL, synchronous FULL,
   * docs/failure-modes.md #9). Transactions stay all-or-nothing within the process either way.
   * `memory`: never on disk (SQLite `:memory:`, same migrations); `dataDir` is neither created
   * nor locked. Its pages are the process's memory, so it grows with what is written.
   * `scratch`: a backtest's store: a private file in a new 0700 directory of the OS temp dir
   * (not `dataDir`, which is neither created nor locked), no fsync, the rollback journal in
   * memory, a bounded page cache; the directory is removed when the store closes. Its pages live
   * in the OS page cache, not in the process, so the process does not grow with the run.
   */
  durability?: 'full' | 'none' | 'memory' | 'scratch';
}

/** The store handle the daemon owns for its lifetime. */
export interface Store {
  /** Absolute path of the database file. */
  readonly file: string;
  /** Whether a commit is on disk when it returns (read back from SQLite: synchronous FULL). */
  readonly durable: boolean;
  readonly orders: OrdersRepository;
  /** Orders' final states awaiting their strategy's onOrder. */
  readonly finals: OrderFinalsRepository;
  readonly fills: FillsRepository;
  readonly children: ChildrenRepository;
  readonly checkpoints: CheckpointsRepository;
  readonly flex: FlexRepository;
  readonly credit: CreditRepository;
  readonly alerts: AlertsRepository;
  readonly meta: MetaRepository;
  /** Futures-listing prices the daemon saw (backtest recorder). */
  readonly prices: PriceSamplesRepository;
  /**
   * OHLCV candles folded from those prices or imported: `closed(market, timeframe, count,
   * beforeMs?)` and `open(market, timeframe)` (docs/market-data.md).
   */
  readonly candles: CandlesRepository;
  /** The operator console's tables: equity history, control actions, paused strategies. */
  readonly console: ConsoleRepository;
  /** The balance audit's baseline and results (docs/balance-audit.md). */
  readonly audit: AuditRepository;
  /** Bounded-memory staging of one history scan (a TEMP table of this connection). */
  readonly scanStage: ScanStage;
  /** Runs `fn` in one transaction (nested calls join the outer one). */
  tx<T>(fn: () => T): T;
  /** Where the exchange client persists its nonce high-water mark (ms). */
  noncePersistence(): NoncePersistence;
  /** A strategy's key-value state (JSON values). */
  strategyState(strategyId: string): StrategyStateStore;
  /** Releases the lock and closes the database; idempotent. */
  close(): void;
}

/**
 * Many `tx` calls committed as one transaction: a backtest's per-candle work (run.ts). Inside it,
 * each `tx` is a savepoint: one that fails rolls back alone, the batch goes on. What a `tx` reads
 * is still not kept by any cache until it returns (tx-state.ts); reads outside any `tx` are.
 * The batch itself never rolls back: an error that would end it (SQLite dropping the transaction)
 * fails `commit`, and a store closed with a batch open (a failed run) discards it with the file.
 */
export interface StoreBatch {
  /** Opens the batch; throws when any transaction is open. */
  begin(): void;
  /** Commits the open batch (none open: nothing). */
  commit(): void;
  readonly open: boolean;
}

/** A backtest's throwaway store (durability `scratch`), which alone offers the batch. */
export interface ScratchStore extends Store {
  readonly batch: StoreBatch;
}

function configure(db: Database.Database, durability: 'full' | 'none'): void {
  if (durability === 'none') {
    // A throwaway store (OpenStoreOptions.durability): nothing to recover after a crash.
    db.pragma('journal_mode = MEMORY');
    db.pragma('synchronous = OFF');
  } else {
    db.pragma('journal_mode = WAL');
    // FULL: a commit is on disk before it returns (docs/failure-modes.md #9: kill -9 during a write).
    db.pragma('synchronous = FULL');
  }
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
}

/**
 * Opens (creating if needed) the store in `dataDir`, takes the exclusive instance lock and runs
 * pending migrations. Throws `StoreError('locked')` when another process holds the data dir.
 */
export function openStore(options: OpenStoreOptions): Store {
  if (options.durability === 'memory') return openMemoryStore(options);
  if (options.durability === 'scratch') return openScratchStore(options);
  const dataDir = path.resolve(options.dataDir);
  ensurePrivateDir(dataDir);
  const lock = acquireInstanceLock(dataDir);
  const file = path.join(dataDir, DB_FILE);
  let db: Database.Database | undefined;
  try {
    ensurePrivateFile(file);
    db = new Database(file);
    configure(db, options.durability ?? 'full');
    tightenIfExists(`${file}-wal`);
    tightenIfExists(`${file}-shm`);
    const version = migrate(db);
    cachePreparedStatements(db);
    options.logger.info({ file, schemaVersion: version }, 'store opened');
    return new SqliteStore(file, db, lock, options.clock);
  } catch (err) {
    db?.close();
    lock.release();
    throw wrapIo(err, 'open');
  }
}

/** A store that lives in memory for the process (OpenStoreOptions.durability `memory`). */
function openMemoryStore(options: OpenStoreOptions): Store {
  const db = new Database(':memory:');
  try {
    // Nothing to flush; the setting is what `durable` reads back (false: nothing survives the process).
    db.pragma('synchronous = OFF');
    db.pragma('foreign_keys = ON');
    const version = migrate(db);
    cachePreparedStatements(db);
    options.logger.info({ file: ':memory:', schemaVersion: version }, 'store opened');
    return new SqliteStore(':memory:', db, { release: () => undefined }, options.clock);
  } catch (err) {
    db.close();
    throw wrapIo(err, 'open');
  }
}

/**
 * Pages the scratch store keeps in the process (SQLite's page cache, KiB): enough for the
 * tables' hot ends (recent orders, fills, candles); the rest stays in the OS page cache.
 */
export const SCRATCH_CACHE_KIB = 16_384;

/**
 * Indexes a scratch store drops after its migrations: every order row would write them (an
 * insert, and each move of the state), and nothing of a run reads through them. The engine reads
 * the orders by state and the provisional ones from the live index (live-orders.ts), which reads
 * the table once (and again after a failed transaction) by a scan; the rarer reads by state or by
 * strategy (an operator's, a test's) scan the table instead and answer the same (every list has
 * its ORDER BY). The fills' indexes by strategy and by order id are the same case: every fill's
 * insert writes both, and the engine reads a strategy's fills from the insert log and the
 * writer's kept records (`insertedSince`, `byDealIds`), asks SQL by strategy only at its first
 * read, after an attribution or for provisional fills, and attributes by order id only what it
 * knows unowned (`attribute`): none of those in a year of the default config but the first
 * reads. The daemon's and a memory store keep them.
 */
export const SCRATCH_DROPPED_INDEXES: readonly string[] = ['orders_state', 'orders_strategy_state', 'orders_provisional', 'fills_strategy', 'fills_order'];

/** A backtest's store in a private temp file (OpenStoreOptions.durability `scratch`; `dataDir` unused). */
export function openScratchStore(options: Omit<OpenStoreOptions, 'durability' | 'dataDir'>): ScratchStore {
  const dir = privateTempDir('v4bot-backtest-');
  const file = path.join(dir, DB_FILE);
  let db: Database.Database | undefined;
  try {
    ensurePrivateFile(file);
    db = new Database(file);
    // MEMORY, not OFF: a failed transaction must still roll back (OFF leaves ROLLBACK undefined).
    db.pragma('journal_mode = MEMORY');
    db.pragma('synchronous = OFF');
    // No other connection: the file lock is taken once, and the cache stays valid between
    // transactions (in the normal mode each one re-checks the file and takes and drops its lock:
    // about three times the cost of a short write transaction).
    db.pragma('locking_mode = EXCLUSIVE');
    db.pragma(`cache_size = -${SCRATCH_CACHE_KIB}`);
    db.pragma('foreign_keys = ON');
    const version = migrate(db);
    for (const index of SCRATCH_DROPPED_INDEXES) db.exec(`DROP INDEX ${index}`);
    cachePreparedStatements(db);
    options.logger.info({ file, schemaVersion: version }, 'store opened');
    // Closing the store removes its directory (the store's close releases this "lock" last).
    const store = new SqliteStore(file, db, { release: () => removeDir(dir) }, options.clock, true, true);
    return Object.assign(store, { batch: store.batchControl() });
  } catch (err) {
    db?.close();
    removeDir(dir);
    throw wrapIo(err, 'open');
  }
}

/**
 * A read-only view of a store that a running daemon may hold (no lock taken, no migration run):
 * for `npm run status`. WAL lets it read consistently while the daemon writes.
 */
export function openStoreReadOnly(dataDir: string, clock: Clock): Omit<Store, 'noncePersistence'> & { readonly readOnly: true } {
  const file = path.join(path.resolve(dataDir), DB_FILE);
  let db: Database.Database;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true });
  } catch (err) {
    throw new StoreError('io', `no store at ${file} (is BOT_DATA_DIR right?)`, { file }, { cause: err });
  }
  db.pragma('busy_timeout = 5000');
  const store = new SqliteStore(file, db, undefined, clock);
  return Object.assign(store, { readOnly: true as const });
}
