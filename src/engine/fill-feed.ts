/**
 * Keeps a fold over the store's fills current by applying only the fills written since the last
 * look, instead of folding every fill again whenever one is added (that cost grew with the
 * daemon's age and made a long backtest quadratic: docs/backtesting.md § Speed).
 *
 * The fills repository logs the deal ids its inserts wrote; the feed reads those rows back (so a
 * rolled-back insert, absent from the table, is never applied) and hands them to the fold in
 * application order. The fold starts over from every stored fill when:
 * - it is new, or fills were attributed to an owner since (a fold keyed by owner changed);
 * - it refuses a fill (`apply` returns false: a fill older than one it already applied).
 * Inside a transaction nothing is kept (what the connection reads may still be rolled back):
 * `sync` returns false and the caller folds from scratch for that read.
 */
import type { FillsRepository } from '../store/index.js';
import type { FillRecord } from '../model/fills.js';

export type FeedSource = Pick<FillsRepository, 'insertedSince' | 'attributionCount' | 'inTransaction' | 'byDealIds' | 'all'>;

/** A fold the feed keeps current. */
export interface IncrementalFold {
  /** Forget everything applied. */
  reset(): void;
  /** Apply one fill (fills come in application order); false when it cannot be applied in order. */
  apply(f: FillRecord): boolean;
}

export class FillFeed {
  private cursor = 0;
  private attributions = -1;

  constructor(private readonly source: FeedSource) {}

  /** Brings `fold` up to the committed fills; false inside a transaction (fold left as it was). */
  sync(fold: IncrementalFold): boolean {
    if (this.source.inTransaction) return false;
    if (this.attributions !== this.source.attributionCount) return this.restart(fold);
    const next = this.source.insertedSince(this.cursor);
    this.cursor = next.cursor;
    if (next.dealIds.length === 0) return true;
    for (const f of this.source.byDealIds([...new Set(next.dealIds)])) if (!fold.apply(f)) return this.restart(fold);
    return true;
  }

  private restart(fold: IncrementalFold): true {
    this.attributions = this.source.attributionCount;
    this.cursor = this.source.insertedSince(this.cursor).cursor;
    fold.reset();
    for (const f of this.source.all()) {
      if (!fold.apply(f)) throw new Error(`fill feed: fill ${f.dealId} refused in application order`);
    }
    return true;
  }
}
