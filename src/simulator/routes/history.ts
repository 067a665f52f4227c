/** Executed history (api-v4 4.6, docs/live-service.md §4) and the conditional listing (4.5, docs/live-service.md §5). */
import { validation } from '../errors.js';
import { FieldReader } from '../validate.js';
import { conditionalWire, dealWire } from '../wire.js';
import type { Market } from '../market.js';
import type { Deal } from '../types.js';
import type { PrivateHandler } from './types.js';

/** History filters; an empty string means "not given", as on the venue. */
interface HistoryQuery {
  market: string | undefined;
  clientOrderId: string | undefined;
  /** Integer seconds, inclusive. */
  startDate: number | undefined;
  endDate: number | undefined;
  offset: number;
  limit: number;
}

function readHistoryQuery(body: Record<string, unknown>): HistoryQuery {
  const r = new FieldReader(body);
  const query = {
    market: nonEmpty(r.string('market', false)),
    clientOrderId: nonEmpty(r.string('clientOrderId', false)),
    startDate: r.int('startDate', 0, Number.MAX_SAFE_INTEGER),
    endDate: r.int('endDate', 0, Number.MAX_SAFE_INTEGER),
    offset: r.int('offset', 0, Number.MAX_SAFE_INTEGER) ?? 0,
    limit: r.int('limit', 1, 100) ?? 50,
  };
  if (!r.ok) throw validation(r.errors);
  return query;
}

function nonEmpty(s: string | undefined): string | undefined {
  return s === '' ? undefined : s;
}

/** The deals the filters select, newest first; deals of one instant keep id order reversed (higher id = later). */
function selectDeals(deals: readonly Deal[], q: HistoryQuery): Deal[] {
  return deals
    .filter((d) => q.market === undefined || d.market === q.market)
    .filter((d) => q.clientOrderId === undefined || d.clientOrderId === q.clientOrderId)
    // startDate/endDate are integer seconds; a deal at 12.5 s is inside [12, 12].
    .filter((d) => q.startDate === undefined || d.timeMs >= q.startDate * 1000)
    .filter((d) => q.endDate === undefined || d.timeMs < (q.endDate + 1) * 1000)
    .sort((a, b) => b.timeMs - a.timeMs || b.id - a.id);
}

export const executedHistory: PrivateHandler = (ctx, account, body) => {
  const q = readHistoryQuery(body);
  if (q.market !== undefined && !ctx.venue.markets.has(q.market)) throw validation({ market: ['Market is not available'] }, 31);
  const deals = selectDeals(account.dealsReaching(q.clientOrderId, q.startDate === undefined ? undefined : q.startDate * 1000), q);
  if (q.clientOrderId !== undefined && deals.length === 0) throw validation({ orderHistory: ['OrderHistory was not found.'] });
  const page = deals.slice(q.offset, q.offset + q.limit);
  if (q.market !== undefined && ctx.options.flatHistoryWithMarket === true) return { status: 200, body: page.map(dealWire) };
  const out: Record<string, unknown[]> = {};
  for (const d of page) (out[d.market] ??= []).push(dealWire(d));
  return { status: 200, body: out };
};

/** Whether a conditional record's order (or legs) is in `market` (any market without one). */
function inMarket(w: Record<string, unknown>, market: string | undefined): boolean {
  if (market === undefined || market === '') return true;
  const inner = (w['conditionalOrder'] ?? w['stop_loss'] ?? w['take_profit']) as { market?: string } | null;
  return inner?.market === market;
}

export const conditionalList: PrivateHandler = (ctx, account, body) => {
  const r = new FieldReader(body);
  const market = r.string('market', false);
  const offset = r.int('offset', 0, Number.MAX_SAFE_INTEGER) ?? 0;
  const limit = r.int('limit', 1, 100) ?? 100;
  if (!r.ok) throw validation(r.errors);
  const marketOf = (m: string): Market | undefined => ctx.venue.markets.get(m);
  // The account keeps ended records too: one walk, no copy of them all.
  const records: Record<string, unknown>[] = [];
  for (const c of account.conditionals.values()) {
    const w = c.active ? conditionalWire(c, account, marketOf) : undefined;
    if (w !== undefined && inMarket(w, market)) records.push(w);
  }
  records.reverse();
  return { status: 200, body: { limit, offset, total: records.length, records: records.slice(offset, offset + limit) } };
};
