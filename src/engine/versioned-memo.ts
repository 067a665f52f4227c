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
