/** Executed history (api-v4 4.6, service-notes 4) and the conditional listing (4.5, service-notes 5). */
import { validation } from '../errors.js';
import { FieldReader } from '../validate.js';
import { conditionalWire, dealWire } from '../wire.js';
import type { PrivateHandler } from './types.js';

export const executedHistory: PrivateHandler = (ctx, account, body) => {
  const r = new FieldReader(body);
  const market = r.string('market', false);
  const clientOrderId = r.string('clientOrderId', false);
  const startDate = r.int('startDate', 0, Number.MAX_SAFE_INTEGER);
  const endDate = r.int('endDate', 0, Number.MAX_SAFE_INTEGER);
  const offset = r.int('offset', 0, Number.MAX_SAFE_INTEGER) ?? 0;
  const limit = r.int('limit', 1, 100) ?? 50;
  if (!r.ok) throw validation(r.errors);
  if (market !== undefined && market !== '' && !ctx.venue.markets.has(market)) throw validation({ market: ['Market is not available'] }, 31);
  const deals = account.deals
    .filter((d) => market === undefined || market === '' || d.market === market)
    .filter((d) => clientOrderId === undefined || clientOrderId === '' || d.clientOrderId === clientOrderId)
    // startDate/endDate are integer seconds; a deal at 12.5 s is inside [12, 12].
    .filter((d) => startDate === undefined || d.timeMs >= startDate * 1000)
    .filter((d) => endDate === undefined || d.timeMs < (endDate + 1) * 1000)
    // Newest first; deals of one instant keep id order reversed (higher id = later).
    .sort((a, b) => b.timeMs - a.timeMs || b.id - a.id);
  if (clientOrderId !== undefined && clientOrderId !== '' && deals.length === 0) {
    throw validation({ orderHistory: ['OrderHistory was not found.'] });
  }
  const page = deals.slice(offset, offset + limit);
  if (market !== undefined && market !== '' && ctx.options.flatHistoryWithMarket === true) {
    return { status: 200, body: page.map(dealWire) };
  }
  const out: Record<string, unknown[]> = {};
  for (const d of page) (out[d.market] ??= []).push(dealWire(d));
  return { status: 200, body: out };
};

export const conditionalList: PrivateHandler = (ctx, account, body) => {
  const r = new FieldReader(body);
  const market = r.string('market', false);
  const offset = r.int('offset', 0, Number.MAX_SAFE_INTEGER) ?? 0;
  const limit = r.int('limit', 1, 100) ?? 100;
  if (!r.ok) throw validation(r.errors);
  const records = [...account.conditionals.values()]
    .filter((c) => c.active)
    .map((c) => conditionalWire(c, account, (m) => ctx.venue.markets.get(m)))
    .filter((w): w is Record<string, unknown> => w !== undefined)
    .filter((w) => {
      if (market === undefined || market === '') return true;
      const inner = (w['conditionalOrder'] ?? w['stop_loss'] ?? w['take_profit']) as { market?: string } | null;
      return inner?.market === market;
    })
    .reverse();
  return { status: 200, body: { limit, offset, total: records.length, records: records.slice(offset, offset + limit) } };
};
