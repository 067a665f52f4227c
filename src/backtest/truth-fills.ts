/**
 * The venue's deals in the result's fill shape (venue-fills.json: the simulator's truth, to check
 * the engine's view against), oldest first, one at a time.
 */
import type { Deal } from '../simulator/types.js';
import type { StoredDeal } from './deal-archive.js';
import type { BacktestFill } from './result.js';
import type { BacktestVenue } from './sim-venue.js';

/** A venue deal in the result's fill shape (strategy from the clientOrderId prefix). */
export type TruthFill = Omit<BacktestFill, 'strategy'> & { dealId: number; clientOrderId: string };

export function truthFill(d: Deal): TruthFill {
  return {
    dealId: d.id,
    timeMs: d.timeMs,
    market: d.market,
    side: d.side,
    price: d.price.toFixed(),
    amount: d.amount.toFixed(),
    fee: d.fee.toFixed(),
    orderId: String(d.orderId),
    clientOrderId: d.clientOrderId,
  };
}

/** truthFill of an archived deal from its stored text (each decimal already its toFixed()). */
export function storedTruthFill(d: StoredDeal): TruthFill {
  return {
    dealId: d.id,
    timeMs: d.timeMs,
    market: d.market,
    side: d.side as TruthFill['side'],
    price: d.price,
    amount: d.amount,
    fee: d.fee,
    orderId: String(d.orderId),
    clientOrderId: d.clientOrderId,
  };
}

/** Every deal of the venue's account, oldest first: the archived ones from their stored text, then the held ones. */
export function* truthFillsOf(venue: Pick<BacktestVenue, 'account' | 'archivedDeals'>): Generator<TruthFill> {
  const archived = venue.archivedDeals?.();
  if (archived === undefined) {
    for (const d of venue.account.allDeals()) yield truthFill(d);
    return;
  }
  for (const d of archived) yield storedTruthFill(d);
  for (const d of venue.account.deals) yield truthFill(d);
}
