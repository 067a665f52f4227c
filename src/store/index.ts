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
import { BotError, StoreError } from '../core/errors.js';
import type { Logger } from '../observability/logger.js';
import { ensurePrivateDir, ensurePrivateFile, privateTempDir, removeDir, tightenIfExists } from './files.js';
import { AuditRepository } from './audit-repo.js';
import { ConsoleRepository } from './console-repo.js';
import { FillsRepository } from './fills-repo.js';
import { CreditRepository, FlexRepository } from './flex-credit-repos.js';
import { ScanStage } from './scan-stage.js';
import { PriceSamplesRepository } from './price-samples-repo.js';
import { CandlesRepository } from './candles-repo.js';
import { acquireInstanceLock, type InstanceLock } from './lock.js';
import { migrate } from './migrations.js';
import { cachePreparedStatements } from './statement-cache.js';
import { AlertsRepository } from './alerts-repo.js';
import { ChildrenRepository } from './children-repo.js';
import { CheckpointsRepository, MetaRepository } from './meta-repo.js';
import { StrategyStates, type StrategyStateStore } from './strategy-state-repo.js';
import { OrdersRepository } from './orders-repo.js';
import { OrderFinalsRepository } from './order-finals-repo.js';
import type { NoncePersistence } from '../model/nonce.js';

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
const NONCE_KEY = 'nonce.highWaterMs';

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

function wrapIo(err: unknown, what: string): BotError {
  if (err instanceof BotError) return err;
  return new StoreError('io', `store ${what} failed: ${err instanceof Error ? err.message : String(err)}`, {}, { cause: err });
}

class SqliteStore implements Store {
  readonly orders: OrdersRepository;
  readonly finals: OrderFinalsRepository;
  readonly fills: FillsRepository;
  readonly children: ChildrenRepository;
  readonly checkpoints: CheckpointsRepository;
  readonly flex: FlexRepository;
  readonly credit: CreditRepository;
  readonly alerts: AlertsRepository;
  readonly meta: MetaRepository;
  readonly prices: PriceSamplesRepository;
  readonly candles: CandlesRepository;
  readonly console: ConsoleRepository;
  readonly audit: AuditRepository;
  readonly scanStage: ScanStage;
  readonly durable: boolean;
  private closed = false;
  /** Every strategy's state, its values kept (strategy-state-repo.ts). */
  private readonly states: StrategyStates;
  /**
   * One transaction wrapper for every `tx`: better-sqlite3 builds four wrapper functions per
   * `db.transaction(fn)` call, which cost more than a short transaction itself; this one takes
   * the work as its argument (nesting still joins the outer transaction through a savepoint).
   */
  private readonly inTransaction: (fn: () => unknown) => unknown;

  constructor(
    readonly file: string,
    private readonly db: Database.Database,
    private readonly lock: InstanceLock | undefined,
    private readonly clock: Clock,
    /** A backtest's store: private to this connection, gone with the process. */
    throwaway = db.memory,
  ) {
    // Without the instance lock (a read-only view beside a running daemon) nothing may be kept
    // across reads: another process writes.
    const writer = lock !== undefined;
    this.orders = new OrdersRepository(db, writer);
    this.states = new StrategyStates(db, () => clock.now(), writer);
    this.finals = new OrderFinalsRepository(db);
    this.fills = new FillsRepository(db);
    this.children = new ChildrenRepository(db);
    this.checkpoints = new CheckpointsRepository(db);
    this.flex = new FlexRepository(db);
    this.credit = new CreditRepository(db);
    this.alerts = new AlertsRepository(db);
    this.meta = new MetaRepository(db);
    this.prices = new PriceSamplesRepository(db);
    this.candles = new CandlesRepository(db, () => clock.now(), throwaway);
    this.console = new ConsoleRepository(db);
    this.audit = new AuditRepository(db);
    this.scanStage = new ScanStage(db);
    // SQLite reports synchronous as a number: 2 is FULL.
    this.durable = db.pragma('synchronous', { simple: true }) === 2;
    this.inTransaction = db.transaction((fn: () => unknown) => fn());
  }

  tx<T>(fn: () => T): T {
    try {
      return this.inTransaction(fn) as T;
    } catch (err) {
      // Rolled back (the whole transaction, or a nested call's savepoint): what the repositories
      // keep in step with their writes is read from SQL again.
      this.orders.rolledBack();
      this.states.dropAll();
      throw wrapIo(err, 'transaction');
    }
  }

  noncePersistence(): NoncePersistence {
    return {
      load: () => {
        const v = this.meta.get(NONCE_KEY);
        return v === undefined ? undefined : Number.parseInt(v, 10);
      },
      save: (highWaterMs: number) => {
        try {
          this.meta.set(NONCE_KEY, String(highWaterMs));
        } catch (err) {
          throw wrapIo(err, 'nonce save');
        }
      },
    };
  }

  strategyState(strategyId: string): StrategyStateStore {
    const inner = this.states.of(strategyId);
    return {
      get: (key) => inner.get(key),
      set: (key, value) => {
        try {
          inner.set(key, value);
        } catch (err) {
          throw wrapIo(err, 'strategy state write');
        }
      },
      delete: (key) => {
        try {
          inner.delete(key);
        } catch (err) {
          throw wrapIo(err, 'strategy state delete');
        }
      },
      entries: () => inner.entries(),
    };
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    try {
      this.db.close();
    } finally {
      this.lock?.release();
    }
  }
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

/** A backtest's store in a private temp file (OpenStoreOptions.durability `scratch`). */
function openScratchStore(options: OpenStoreOptions): Store {
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
    cachePreparedStatements(db);
    options.logger.info({ file, schemaVersion: version }, 'store opened');
    // Closing the store removes its directory (the store's close releases this "lock" last).
    return new SqliteStore(file, db, { release: () => removeDir(dir) }, options.clock, true);
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
