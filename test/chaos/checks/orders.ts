/** Placement discipline at the venue: no clientOrderId twice, nothing sent without a journal row. */
import { isVenueOwn, type Evidence } from '../evidence.js';
import type { Check } from './types.js';

function duplicates(ev: Evidence): string[] {
  const count = new Map<string, number[]>();
  for (const o of ev.venue.orders) {
    if (o.clientOrderId === '') continue;
    count.set(o.clientOrderId, [...(count.get(o.clientOrderId) ?? []), o.orderId]);
  }
  return [...count].filter(([, ids]) => ids.length > 1).map(([cid, ids]) => `clientOrderId ${cid} placed ${ids.length} times at the venue (orders ${ids.join(', ')})`);
}

export const noDuplicatePlacement: Check = {
  name: 'no clientOrderId placed twice',
  asserts: 'each clientOrderId appears on at most one venue order',
  run: duplicates,
};

function journaled(ev: Evidence): string[] {
  const stored = new Map(ev.store.orders.map((o) => [o.clientOrderId, o]));
  const atVenue = new Set(ev.venue.orders.map((o) => o.clientOrderId));
  const out: string[] = [];
  for (const o of ev.venue.orders) {
    if (o.clientOrderId === '' || isVenueOwn(o.clientOrderId)) continue;
    if (!stored.has(o.clientOrderId)) out.push(`venue order ${o.orderId} (${o.clientOrderId}) has no journal row`);
  }
  for (const o of ev.store.orders) {
    if (o.state === 'REJECTED' && atVenue.has(o.clientOrderId)) out.push(`order ${o.clientOrderId} is REJECTED in the store but exists at the venue`);
  }
  return out;
}

export const everyOrderJournaled: Check = {
  name: 'every venue order journaled',
  asserts: 'every venue order with a clientOrderId has a store row; no REJECTED order exists at the venue',
  run: journaled,
};
