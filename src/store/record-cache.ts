/**
 * Parsed rows kept by key between reads, for tables written only through their repository (one
 * writer: the daemon's instance lock). The repository forgets a key on every write to its row, so
 * a kept record is the row as last committed:
 * - records are kept only when read where nothing can roll back (tx-state.ts: a row read inside a
 *   transaction may still be rolled back); a write inside one forgets the key, so the rolled-back
 *   row is never kept;
 * - a row not written since it was kept is the same inside a transaction as outside it.
 * Records are frozen: every reader gets the same value. Bounded: when full it starts over.
 */
import type { TxView } from './tx-state.js';

export const MAX_CACHED_RECORDS = 4096;

export class RecordCache<T extends object> {
  private readonly kept = new Map<string, T>();

  constructor(private readonly tx: TxView) {}

  get(key: string): T | undefined {
    return this.kept.get(key);
  }

  /** The kept record of `key`, else `parse()` (kept when read outside a transaction). */
  of(key: string, parse: () => T): T {
    const hit = this.kept.get(key);
    if (hit !== undefined) return hit;
    const record = Object.freeze(parse());
    if (!this.tx.rollbackable) {
      if (this.kept.size >= MAX_CACHED_RECORDS) this.kept.clear();
      this.kept.set(key, record);
    }
    return record;
  }

  /** Called on every write to the row of `key` (before or after it: nothing reads in between). */
  forget(key: string): void {
    this.kept.delete(key);
  }
}
