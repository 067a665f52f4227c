/**
 * Offset paging of the conditional listing (per market, 100 a page, with a `total`) and of the
 * flex investment history (100 a page, no total: the last page is the short one). The venue's
 * whole-second `dateFrom` is made here from a ms bound.
 */
import type { ConditionalPage, ConditionalRecord } from '../model/conditional.js';
import type { FlexHistoryQuery, FlexPage, FlexRecord, FlexRecordQuery } from '../model/flex.js';

export type ConditionalFetcher = (query: { market: string; offset: number; limit: number }) => Promise<ConditionalPage>;
export type FlexFetcher = (query: FlexHistoryQuery) => Promise<FlexPage>;

const LISTING_PAGE = 100;

/** Every record of the conditional listing of `markets`, market by market. */
export async function conditionalListing(fetch: ConditionalFetcher, markets: readonly string[]): Promise<ConditionalRecord[]> {
  const out: ConditionalRecord[] = [];
  for (const market of markets) {
    for (let offset = 0; ; offset += LISTING_PAGE) {
      const page = await fetch({ market, offset, limit: LISTING_PAGE });
      out.push(...page.records);
      if (page.records.length < LISTING_PAGE || offset + LISTING_PAGE >= page.total) break;
    }
  }
  return out;
}

/** The flex history query of a domain query, without paging. */
export function flexHistoryQuery(q: FlexRecordQuery): FlexHistoryQuery {
  return {
    ...(q.fromMs === undefined ? {} : { dateFrom: Math.floor(q.fromMs / 1000) }),
    ...(q.plan === undefined ? {} : { plan: q.plan }),
    ...(q.actionTypes === undefined ? {} : { actionTypes: q.actionTypes }),
  };
}

/** Pages of the flex history, `pageSize` records a request, until a short page. */
export async function* flexPages(fetch: FlexFetcher, query: FlexRecordQuery, pageSize: number): AsyncGenerator<FlexRecord[]> {
  const base = flexHistoryQuery(query);
  for (let offset = 0; ; offset += pageSize) {
    const page = await fetch({ ...base, limit: pageSize, offset });
    yield page.records;
    if (page.records.length < pageSize) return;
  }
}
