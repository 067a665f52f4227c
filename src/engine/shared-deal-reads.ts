/**
 * The fills' insert log read for several folds at once. After a fill batch the position fold
 * (fill-feed.ts), the collateral fold (equity-sources.ts) and each strategy's recent fills
 * (read-models.ts) ask for the rows of the same new deal ids, one after the other; the rows are
 * read once and handed to each.
 *
 * Exact: the last answer is kept only outside a transaction that may still roll back, and only
 * while the fills' write counter stands still (every insert and attribution moves it, a rolled-back
 * one too), so no row it holds can have changed since. Callers do not edit what they get.
 */
import type { FillRecord } from '../model/fills.js';
import type { FeedSource } from './fill-feed.js';

type DealSource = FeedSource & { readonly version: number };

/** One per fills handle: the read models and the equity sources' collateral fold share it. */
const perSource = new WeakMap<DealSource, SharedDealReads>();

export class SharedDealReads implements FeedSource {
  /** The shared reads of `fills` (made at the first ask; every folder of the same handle gets the same). */
  static of(fills: DealSource): SharedDealReads {
    let shared = perSource.get(fills);
    if (shared === undefined) perSource.set(fills, (shared = new SharedDealReads(fills)));
    return shared;
  }

  private last: { version: number; ids: string; rows: FillRecord[] } | undefined;

  constructor(private readonly fills: DealSource) {}

  get attributionCount(): number {
    return this.fills.attributionCount;
  }

  get inTransaction(): boolean {
    return this.fills.inTransaction;
  }

  insertedSince(cursor: number): { dealIds: number[]; cursor: number } {
    return this.fills.insertedSince(cursor);
  }

  all(): FillRecord[] {
    return this.fills.all();
  }

  /** The rows of `dealIds` (application order), the last answer again when asked the same with nothing written since. */
  byDealIds(dealIds: readonly number[]): FillRecord[] {
    if (this.fills.inTransaction) return this.fills.byDealIds(dealIds);
    const version = this.fills.version;
    const ids = dealIds.join(',');
    const last = this.last;
    if (last !== undefined && last.version === version && last.ids === ids) return last.rows;
    const rows = this.fills.byDealIds(dealIds);
    this.last = { version, ids, rows };
    return rows;
  }
}
