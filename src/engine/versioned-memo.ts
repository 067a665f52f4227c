/**
 * Store reads kept while the repositories' write counters stand still. A strategy's tick reads
 * its open orders, recent fills and protective legs; most ticks nothing was written since the
 * last one, and reading and parsing the same rows again was most of a tick's cost in a backtest
 * (docs/backtesting.md § Speed). Inside a transaction nothing is kept: what the connection reads
 * there may still be rolled back, and a rolled-back write has bumped the counter anyway.
 */
export class VersionedMemo<T> {
  private version: string | undefined;
  private readonly values = new Map<string, T>();

  /**
   * The value kept for `key` while `version` is unchanged; `read()` otherwise. `version` null
   * (inside a transaction): `read()`, nothing kept.
   */
  get(version: string | null, key: string, read: () => T): T {
    if (version === null) return read();
    if (version !== this.version) {
      this.values.clear();
      this.version = version;
    }
    let hit = this.values.get(key);
    if (hit === undefined) {
      hit = read();
      this.values.set(key, hit);
    }
    return hit;
  }
}

/**
 * Views made from records, kept per record object. A record the store hands out again unchanged
 * is the same object (the journal's live orders, the kept fill and position lists); a write makes
 * a new one. So after a fill or a placement only the records it touched get new views, instead
 * of every view of the snapshot being made again. Weak: a record no longer held frees its view.
 */
export class KeptViews<K extends object, V> {
  private readonly views = new WeakMap<K, V>();

  /** The view kept for `record` unless `stale` says it no longer fits, else `make(record)` (kept when `keep` holds). */
  of(record: K, make: (record: K) => V, keep = true, stale?: (kept: V) => boolean): V {
    const hit = this.views.get(record);
    if (hit !== undefined && stale?.(hit) !== true) return hit;
    const view = make(record);
    if (keep) this.views.set(record, view);
    return view;
  }
}
