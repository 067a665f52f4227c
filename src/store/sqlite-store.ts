/**
 * The store's implementation over one better-sqlite3 connection (the `Store` of index.ts): its
 * repositories, `tx` and, for a backtest's scratch store only, the batch (`ScratchStore.batch`).
 */
import type Database from 'better-sqlite3';
import type { Clock } from '../core/clock.js';
import { BotError, StoreError } from '../core/errors.js';
import type { NoncePersistence } from '../model/nonce.js';
import type { InstanceLock } from './lock.js';
import { AuditRepository } from './audit-repo.js';
import { ConsoleRepository } from './console-repo.js';
import { FillsRepository } from './fills-repo.js';
import { CreditRepository, FlexRepository } from './flex-credit-repos.js';
import { ScanStage } from './scan-stage.js';
import { PriceSamplesRepository } from './price-samples-repo.js';
import { CandlesRepository } from './candles-repo.js';
import { AlertsRepository } from './alerts-repo.js';
import { ChildrenRepository } from './children-repo.js';
import { CheckpointsRepository, MetaRepository, writeCheckpoint, type CheckpointRow } from './meta-repo.js';
import { StrategyStates, writeStateRow, type StateRow, type StrategyStateStore } from './strategy-state-repo.js';
import { LateRows, type LateWrites } from './late-rows.js';
import { OrdersRepository } from './orders-repo.js';
import { orderRowWriter, writeSequence, type OrderRow, type SequenceRow } from './order-rows.js';
import { OrderFinalsRepository } from './order-finals-repo.js';
import { TxState } from './tx-state.js';
import type { Store, StoreBatch } from './index.js';

const NONCE_KEY = 'nonce.highWaterMs';

export function wrapIo(err: unknown, what: string): BotError {
  if (err instanceof BotError) return err;
  return new StoreError('io', `store ${what} failed: ${err instanceof Error ? err.message : String(err)}`, {}, { cause: err });
}

export class SqliteStore implements Store {
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
  /** Whether reads may still be rolled back (the repositories' caches ask it). */
  private readonly txState: TxState;
  /** The scratch store's rows written late (late-rows.ts): written before each batch commit, undone with a failed `tx`. */
  private readonly late: LateWrites[] = [];

  constructor(
    readonly file: string,
    private readonly db: Database.Database,
    private readonly lock: InstanceLock | undefined,
    private readonly clock: Clock,
    /** A backtest's store: private to this connection, gone with the process. */
    throwaway = db.memory,
    /**
     * A backtest's scratch store (index.ts `openScratchStore`): rows that only later readers of
     * the file would read are not written (no order history; the undelivered order finals kept
     * in memory). A memory store keeps them: tests read them.
     */
    lean = false,
  ) {
    // Without the instance lock (a read-only view beside a running daemon) nothing may be kept
    // across reads: another process writes.
    const writer = lock !== undefined;
    const tx = (this.txState = new TxState(db));
    // The scratch store's late rows of each kind (none for another store), written in this order.
    const late = <V>(write: (row: V) => void): LateRows<V> | undefined => (lean && writer ? this.lateRows(new LateRows<V>(tx, write)) : undefined);
    const sequenceRows = late<SequenceRow>((r) => writeSequence(db, r));
    this.orders = new OrdersRepository(db, tx, writer, !lean, sequenceRows, late<OrderRow>(orderRowWriter(db)));
    const ordersWritten = (): void => this.orders.writeLate();
    this.states = new StrategyStates(db, () => clock.now(), writer, late<StateRow>((r) => writeStateRow(db, r)));
    this.finals = new OrderFinalsRepository(db, tx, lean);
    this.fills = new FillsRepository(db, tx, writer);
    this.children = new ChildrenRepository(db, tx, ordersWritten);
    const checkpointRows = late<CheckpointRow>((r) => writeCheckpoint(db, r));
    this.checkpoints = new CheckpointsRepository(db, checkpointRows);
    this.flex = new FlexRepository(db, tx);
    this.credit = new CreditRepository(db);
    this.alerts = new AlertsRepository(db);
    this.meta = new MetaRepository(db);
    this.prices = new PriceSamplesRepository(db);
    this.candles = new CandlesRepository(db, () => clock.now(), throwaway);
    this.console = new ConsoleRepository(db, ordersWritten);
    this.audit = new AuditRepository(db, ordersWritten);
    this.scanStage = new ScanStage(db);
    // SQLite reports synchronous as a number: 2 is FULL.
    this.durable = db.pragma('synchronous', { simple: true }) === 2;
    this.inTransaction = db.transaction((fn: () => unknown) => fn());
  }

  private lateRows<V>(rows: LateRows<V>): LateRows<V> {
    this.late.push(rows);
    return rows;
  }

  tx<T>(fn: () => T): T {
    const finals = this.finals.mark();
    const late = this.late.map((l) => l.mark());
    try {
      return this.txState.within(() => this.inTransaction(fn) as T);
    } catch (err) {
      // Rolled back (the whole transaction, or a nested call's savepoint): what the repositories
      // keep in step with their writes is read from SQL again, or undone (the kept finals).
      this.orders.rolledBack();
      this.fills.rolledBack();
      this.states.dropAll();
      this.finals.undoTo(finals);
      this.late.forEach((l, i) => l.undoTo(late[i] as number));
      throw wrapIo(err, 'transaction');
    } finally {
      if (!this.txState.rollbackable) {
        this.finals.settled();
        for (const l of this.late) l.settled();
      }
    }
  }

  /**
   * The batch (index.ts `StoreBatch`): only the scratch store hands it out (openScratchStore).
   * BEGIN and COMMIT are plain statements, so the batch can stay open across the awaits of a
   * candle's jobs; better-sqlite3 runs each `tx` inside it as a savepoint.
   */
  batchControl(): StoreBatch {
    const { db, txState, late } = this;
    const begin = db.prepare('BEGIN');
    const commit = db.prepare('COMMIT');
    return {
      begin: () => {
        if (db.inTransaction) throw new StoreError('io', 'store batch: a transaction is already open');
        begin.run();
        txState.batch(true);
      },
      commit: () => {
        if (!txState.inBatch) return;
        // The late rows join the batch's commit (late-rows.ts), where nothing can roll them back.
        for (const l of late) l.flush();
        txState.batch(false);
        // SQLite ends a transaction by itself on some errors (disk full, out of memory): what the
        // batch wrote is gone and the caches may hold it, so the run cannot go on.
        if (!db.inTransaction) throw new StoreError('io', 'store batch: the transaction was rolled back by SQLite');
        try {
          commit.run();
        } catch (err) {
          throw wrapIo(err, 'batch commit');
        }
      },
      get open() {
        return txState.inBatch;
      },
    };
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
      holds: (key, json) => inner.holds(key, json),
      set: (key, value) => {
        try {
          inner.set(key, value);
        } catch (err) {
          throw wrapIo(err, 'strategy state write');
        }
      },
      setJson: (key, json) => {
        try {
          inner.setJson(key, json);
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

