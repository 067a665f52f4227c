/**
 * One executed-history scan (failure-modes 11): a fixed `endDate` anchor, newest-first pages of
 * ≤ 100, de-duplication by deal id. New deals arriving while paging shift later pages down, so a
 * deal may show up twice (de-duplicated) but never goes missing; deals newer than the anchor are
 * left for the next scan, whose `startDate` re-scans an overlap before the checkpoint.
 */
import type { ExecutedHistoryQuery, Fill } from '../../exchange/gateway.js';

export interface ScanWindow {
  /** Unix seconds, inclusive; undefined = from the beginning of served history. */
  startDate?: number;
  /** Unix seconds, the fixed anchor of this scan. */
  endDate: number;
  /** 1..100. */
  pageSize: number;
  /** Safety stop for a runaway venue; default 100 000 pages. */
  maxPages?: number;
}

export interface ScanResult {
  /** Distinct deals, in the order first seen (newest first). */
  deals: Fill[];
  pages: number;
  /** Deals seen more than once (page overlap caused by arrivals). */
  duplicates: number;
}

export type HistoryFetcher = (query: ExecutedHistoryQuery) => Promise<Fill[]>;

/** Whether the scan window is valid (pure). */
export function scanQuery(w: ScanWindow, offset: number): ExecutedHistoryQuery {
  if (!Number.isInteger(w.pageSize) || w.pageSize < 1 || w.pageSize > 100) throw new RangeError('pageSize must be 1..100');
  return { ...(w.startDate === undefined ? {} : { startDate: w.startDate }), endDate: w.endDate, offset, limit: w.pageSize };
}

/** Pages until a page shorter than the page size; returns the de-duplicated deals. */
export async function scanHistory(fetch: HistoryFetcher, w: ScanWindow): Promise<ScanResult> {
  const byId = new Map<number, Fill>();
  let duplicates = 0;
  let pages = 0;
  const maxPages = w.maxPages ?? 100_000;
  for (let offset = 0; pages < maxPages; offset += w.pageSize) {
    const page = await fetch(scanQuery(w, offset));
    pages++;
    for (const d of page) {
      if (byId.has(d.dealId)) duplicates++;
      else byId.set(d.dealId, d);
    }
    // The last page is the one shorter than the limit (no total is served). Without a market the
    // venue may answer per market; a full page from any market means there may be more.
    if (page.length < w.pageSize) return { deals: [...byId.values()], pages, duplicates };
  }
  throw new Error(`history scan stopped after ${maxPages} pages`);
}
