/**
 * Whether what the store's connection reads may still be rolled back: the test every kept read
 * (the repositories' caches, the engine's memos through `fills.inTransaction`) makes before it
 * keeps a value, since a value read inside a transaction that then rolls back would be stale.
 *
 * That is "inside a `store.tx`" (a depth kept here) or inside any other SQLite transaction of the
 * connection, except the scratch store's batch (`ScratchStore.batch`): a backtest commits each
 * candle's work in one transaction, which never rolls back while the run goes on (it ends with
 * its store: nothing of it outlives the process), so reads outside a `store.tx` within it are as
 * final as committed ones, while a `store.tx` inside it (a savepoint) still can roll back. Without
 * a batch (the daemon's store) this is exactly SQLite's `inTransaction`.
 */
import type { Database } from 'better-sqlite3';

export class TxState {
  /** `store.tx` calls under way (nested ones included). */
  private depth = 0;
  /** The scratch store's batch transaction is open (the outermost SQLite transaction). */
  private batchOpen = false;

  constructor(private readonly db: Database) {}

  /** True when what the connection reads may still be rolled back. */
  get rollbackable(): boolean {
    return this.depth > 0 || (this.db.inTransaction && !this.batchOpen);
  }

  /** Runs `fn` (a `store.tx`) counted in the depth. */
  within<T>(fn: () => T): T {
    this.depth++;
    try {
      return fn();
    } finally {
      this.depth--;
    }
  }

  /** The batch was opened (true) or ended (false). */
  batch(open: boolean): void {
    this.batchOpen = open;
  }

  get inBatch(): boolean {
    return this.batchOpen;
  }
}

/** What a repository asks of the store's transaction state. */
export interface TxView {
  readonly rollbackable: boolean;
}
