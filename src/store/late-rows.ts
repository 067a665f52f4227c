/**
 * Rows a backtest's scratch store writes late: a repository keeps each key's pending row here,
 * answers a read of that key from it or writes the pending rows before a SQL read of its table,
 * and the store writes them before each commit of the run's batch (sqlite-store.ts). A row
 * rewritten many times within one batch (a strategy's state key on every tick and fill, the
 * reconciler's anchor with every fill batch) is then one statement at the batch's commit. The
 * daemon's store and a memory store write every row as it happens; this is a capability only
 * the scratch store (index.ts `openScratchStore`) uses.
 *
 * A `store.tx` that fails undoes what it buffered (`mark`/`undoTo`), flushes included: the
 * rollback removes the rows a flush wrote inside it, so the pending rows come back as they
 * were before it (test/unit/store/late-rows.test.ts).
 */
import type { TxView } from './tx-state.js';

/** One change to the pending rows: the key and its pending row before it (undefined: none). */
type Change<V> = readonly [key: string, before: V | undefined];

/** What the store does with every kind of late rows: write them, or undo a failed `store.tx`'s. */
export interface LateWrites {
  flush(): void;
  mark(): number;
  undoTo(mark: number): void;
  settled(): void;
}

export class LateRows<V> implements LateWrites {
  private readonly pending = new Map<string, V>();
  /** The changes made inside `store.tx` calls still under way, oldest first (none outside one). */
  private readonly changes: Change<V>[] = [];

  /** `write` writes one pending row (in the order the keys were first made pending, kept through undos). */
  constructor(
    private readonly tx: TxView,
    private readonly write: (row: V) => void,
  ) {}

  /** `key`'s pending row, if any. */
  get(key: string): V | undefined {
    return this.pending.get(key);
  }

  /** Makes `row` the pending row of `key` (written later). */
  put(key: string, row: V): void {
    if (this.tx.rollbackable) this.changes.push([key, this.pending.get(key)]);
    this.pending.set(key, row);
  }

  /** Writes every pending row. A failure leaves them all pending (the caller's transaction fails). */
  flush(): void {
    if (this.pending.size === 0) return;
    for (const row of this.pending.values()) this.write(row);
    // Logged newest first, so that an undo (which pops) puts them back in the order they were
    // pending: the order rows' rowids follow that order (orders-repo.ts).
    if (this.tx.rollbackable) this.changes.push(...[...this.pending].reverse());
    this.pending.clear();
  }

  /** The point to undo to should the `store.tx` starting now fail. */
  mark(): number {
    return this.changes.length;
  }

  /** The `store.tx` that took `mark` failed: its changes are undone, newest first. */
  undoTo(mark: number): void {
    while (this.changes.length > mark) {
      const [key, before] = this.changes.pop() as Change<V>;
      if (before === undefined) this.pending.delete(key);
      else this.pending.set(key, before);
    }
  }

  /** No `store.tx` is under way any more: nothing can be undone. */
  settled(): void {
    this.changes.length = 0;
  }
}
