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

/** A list of views and the records they were made from, place by place. */
export interface ViewList<K, V> {
  records: readonly K[];
  views: readonly V[];
}

/** How far past a record the last list no longer has (a fill dropped an order, the oldest fill left) a match is looked for. */
const LOOK_AHEAD = 2;

/**
 * The views of `records`, taken from `last` where the very same record stands at the next place
 * still unmatched there (or a place or two further: a record the write removed): most of a list
 * rebuilt after a fill or a placement is the last list's records in the same order, and a
 * WeakMap lookup per record (`of`) was most of the rebuild. `reusable(record)` says whether a
 * view was kept for the record when it was made (KeptViews' `keep`): only then is the last
 * list's view the one `of` gives. Any other record goes through `of`.
 */
export function viewsAlong<K extends object, V>(
  last: ViewList<K, V> | undefined,
  records: readonly K[],
  of: (record: K) => V,
  reusable: (record: K) => boolean,
): { records: readonly K[]; views: V[] } {
  const views: V[] = [];
  const before = last?.records ?? [];
  let j = 0;
  for (const r of records) {
    const at = placeOf(before, j, r);
    if (at >= 0 && last !== undefined && reusable(r)) {
      views.push(last.views[at] as V);
      j = at + 1;
    } else views.push(of(r));
  }
  return { records, views };
}

/** Where `r` stands in `records` from `from` on, looking `LOOK_AHEAD` places further at most; -1 when not there. */
function placeOf<K>(records: readonly K[], from: number, r: K): number {
  const end = Math.min(records.length, from + 1 + LOOK_AHEAD);
  for (let i = from; i < end; i++) if (records[i] === r) return i;
  return -1;
}
