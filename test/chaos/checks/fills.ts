/** The store's fills against the venue's deals: deal by deal, per market, and per order. */
import { Decimal, ZERO } from '../../../src/core/decimal.js';
import type { FillRecord } from '../../../src/model/fills.js';
import { isVenueOwn, type Evidence, type VenueDeal } from '../evidence.js';
import type { Check } from './types.js';

const dealKey = (d: VenueDeal): string =>
  `${d.orderId}|${d.market}|${d.side}|${d.amount.toFixed()}|${d.price.toFixed()}|${d.quote.toFixed()}|${d.fee.toFixed()}`;
const fillKey = (f: FillRecord): string =>
  `${f.orderId}|${f.market}|${f.side}|${f.amount.toFixed()}|${f.price.toFixed()}|${f.quote.toFixed()}|${f.fee.toFixed()}`;

function dealsVsFills(ev: Evidence): string[] {
  const out: string[] = [];
  const fills = new Map(ev.store.fills.map((f) => [f.dealId, f]));
  for (const d of ev.venue.deals) {
    const f = fills.get(d.dealId);
    if (f === undefined) out.push(`deal ${d.dealId} (order ${d.orderId} ${d.clientOrderId || 'leg'}, ${d.market} ${d.side} ${d.amount.toFixed()}) is missing from the store`);
    else if (fillKey(f) !== dealKey(d)) out.push(`deal ${d.dealId}: store has ${fillKey(f)}, venue has ${dealKey(d)}`);
    fills.delete(d.dealId);
  }
  for (const f of fills.values()) out.push(`fill ${f.dealId} (${f.clientOrderId || 'leg'}) is in the store but is no venue deal`);
  return out;
}

export const fillsMatchDeals: Check = {
  name: 'fills equal the venue deals',
  asserts: 'every venue deal is stored once with the same order, side, amount, price, quote and fee; no other fill is stored',
  run: dealsVsFills,
};

function sums(ev: Evidence): string[] {
  const store = new Map<string, { count: number; base: Decimal; quote: Decimal; fees: Decimal }>();
  for (const f of ev.store.fills) {
    const s = store.get(f.market) ?? { count: 0, base: ZERO, quote: ZERO, fees: ZERO };
    store.set(f.market, { count: s.count + 1, base: s.base.plus(f.amount), quote: s.quote.plus(f.quote), fees: s.fees.plus(f.fee) });
  }
  const out: string[] = [];
  const markets = new Set([...store.keys(), ...Object.keys(ev.venue.sums)]);
  for (const m of [...markets].sort()) {
    const s = store.get(m);
    const v = ev.venue.sums[m];
    const mine = s === undefined ? '0 fills' : `${s.count} fills, base ${s.base.toFixed()}, quote ${s.quote.toFixed()}, fees ${s.fees.toFixed()}`;
    const theirs = v === undefined ? '0 fills' : `${v.count} fills, base ${new Decimal(v.base).toFixed()}, quote ${new Decimal(v.quote).toFixed()}, fees ${new Decimal(v.fees).toFixed()}`;
    if (mine !== theirs) out.push(`${m}: store ${mine}; venue ${theirs}`);
  }
  return out;
}

export const marketSumsMatch: Check = {
  name: 'per-market sums equal the venue',
  asserts: 'per market: fill count, sum of base, quote and fees in the store equal the venue deal sums',
  run: sums,
};

function perOrder(ev: Evidence): string[] {
  const out: string[] = [];
  const stored = new Map(ev.store.orders.map((o) => [o.clientOrderId, o]));
  for (const v of ev.venue.orders) {
    if (v.clientOrderId === '' || isVenueOwn(v.clientOrderId)) continue;
    const o = stored.get(v.clientOrderId);
    if (o !== undefined && !o.filledBase.eq(v.filled)) out.push(`order ${v.clientOrderId} (venue ${v.orderId}): store filled ${o.filledBase.toFixed()}, venue filled ${v.filled.toFixed()}`);
  }
  return out;
}

export const orderFilledMatch: Check = {
  name: 'per-order filled amounts equal the venue',
  asserts: "each of the bot's venue orders: the store's filled amount equals the venue's dealStock",
  run: perOrder,
};
