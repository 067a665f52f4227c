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

/** Where a scan puts its pages: returns how many of the page's deals it had not seen yet. */
export interface ScanSink {
  add(page: readonly Fill[]): number;
}

/** Pages until a page shorter than the page size, handing each page to `sink`. */
export async function scanHistoryInto(fetch: HistoryFetcher, w: ScanWindow, sink: ScanSink): Promise<Omit<ScanResult, 'deals'>> {
  let duplicates = 0;
  let pages = 0;
  const maxPages = w.maxPages ?? 100_000;
  for (let offset = 0; pages < maxPages; offset += w.pageSize) {
    const page = await fetch(scanQuery(w, offset));
    pages++;
    duplicates += page.length - sink.add(page);
    // The last page is the one shorter than the limit (no total is served). Without a market the
    // venue may answer per market; a full page from any market means there may be more.
    if (page.length < w.pageSize) return { pages, duplicates };
  }
  throw new Error(`history scan stopped after ${maxPages} pages`);
}

/** The same scan into memory; returns the de-duplicated deals in the order first seen. */
export async function scanHistory(fetch: HistoryFetcher, w: ScanWindow): Promise<ScanResult> {
  const byId = new Map<number, Fill>();
  const r = await scanHistoryInto(fetch, w, {
    add: (page) => {
      let added = 0;
      for (const d of page) {
        if (!byId.has(d.dealId)) {
          byId.set(d.dealId, d);
          added++;
        }
      }
      return added;
    },
  });
  return { deals: [...byId.values()], ...r };
}
