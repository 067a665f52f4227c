/**
 * Executed-history paging (docs/failure-modes.md #11): a fixed `endDate` anchor, newest-first pages of
 * ≤ 100, de-duplication by deal id. New deals arriving while paging shift later pages down, so a
 * deal may show up twice (dropped here) but never goes missing; deals newer than the anchor are
 * left for the next scan, whose start re-reads an overlap before the previous anchor.
 *
 * The venue bounds history by whole Unix seconds (`startDate` inclusive, `endDate` through the
 * end of that second); callers speak ms.
 */
import type { ExecutedHistoryQuery, Fill, FillPage, FillRange } from '../model/fills.js';

/** One request of executed history (the client's `executedHistory`). */
export type HistoryFetcher = (query: ExecutedHistoryQuery) => Promise<Fill[]>;

export interface HistoryPaging {
  /** Deals per request, 1..100. */
  pageSize: number;
  /** Safety stop for a runaway venue; default 100 000 pages. */
  maxPages?: number;
}

/** Largest page the venue serves. */
export const HISTORY_PAGE_MAX = 100;

function checkPageSize(pageSize: number): void {
  if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > HISTORY_PAGE_MAX) throw new RangeError('pageSize must be 1..100');
}

/** The venue's whole-second window covering `range`. */
export function secondsWindow(range: FillRange): { startDate?: number; endDate: number } {
  const endDate = Math.floor(range.toMs / 1000);
  return range.fromMs === undefined ? { endDate } : { startDate: Math.floor(range.fromMs / 1000), endDate };
}

/** The deals of `page` not in `seen` (which learns them). */
function unseen(page: readonly Fill[], seen: Set<number>): Fill[] {
  const fresh: Fill[] = [];
  for (const d of page) {
    if (seen.has(d.dealId)) continue;
    seen.add(d.dealId);
    fresh.push(d);
  }
  return fresh;
}

/**
 * Pages until a page shorter than the page size, yielding each page's new deals. Only deal ids
 * are remembered across pages (a first scan of an old account can be hundreds of thousands of
 * deals: the consumer decides where the deals themselves go).
 */
export async function* historyPages(fetch: HistoryFetcher, range: FillRange, paging: HistoryPaging): AsyncGenerator<FillPage> {
  checkPageSize(paging.pageSize);
  const window = secondsWindow(range);
  const maxPages = paging.maxPages ?? 100_000;
  const seen = new Set<number>();
  for (let pages = 0; pages < maxPages; pages++) {
    const page = await fetch({ ...window, offset: pages * paging.pageSize, limit: paging.pageSize });
    const fills = unseen(page, seen);
    yield { fills, repeated: page.length - fills.length };
    // The last page is the one shorter than the limit (no total is served). Without a market the
    // venue may answer per market; a full page from any market means there may be more.
    if (page.length < paging.pageSize) return;
  }
  throw new Error(`history scan stopped after ${maxPages} pages`);
}

/** Every deal of one of our orders, looked up by clientOrderId (all pages). */
export async function fillsOfOrder(fetch: HistoryFetcher, order: { market: string; clientOrderId: string }): Promise<Fill[]> {
  const out: Fill[] = [];
  for (let offset = 0; ; offset += HISTORY_PAGE_MAX) {
    const page = await fetch({ clientOrderId: order.clientOrderId, market: order.market, offset, limit: HISTORY_PAGE_MAX });
    out.push(...page.filter((f) => f.clientOrderId === order.clientOrderId));
    if (page.length < HISTORY_PAGE_MAX) return out;
  }
}
