/**
 * One equity reading for the kill switch (docs/equity.md, "Reading the venue and the journal
 * together"). The venue's available balances and the journal's open orders must describe the same
 * instant: an order placed or cancelled between the two reads would be counted twice or not at
 * all. So the journal is read before and after a fresh balance read, and the reading is kept only
 * when the journal did not move and no placement was waiting for its answer; otherwise it is
 * taken again (a few times, then the last one is used so a busy journal never blinds the switch).
 */
import type { Decimal } from '../core/decimal.js';
import type { PriceView } from '../strategy-api/host.js';
import { equityOf, type Equity } from './equity.js';
import type { EquitySources, JournalParts } from './equity-sources.js';

export interface VenueReading {
  prices: Record<string, PriceView>;
  balances: Record<string, Decimal>;
}

export interface EquityReading extends VenueReading {
  equity: Equity;
  journal: JournalParts;
  /** False when the journal kept moving over every attempt (the reading may be off by an order in flight). */
  settled: boolean;
  attempts: number;
}

export const EQUITY_READ_ATTEMPTS = 4;

/** Last price per market, as the equity rule takes it. */
export function lastPrices(prices: Readonly<Record<string, PriceView>>): Record<string, Decimal> {
  return Object.fromEntries(Object.entries(prices).map(([k, v]) => [k, v.last]));
}

export async function readEquity(
  equityAsset: string,
  sources: Pick<EquitySources, 'read'>,
  fresh: () => Promise<VenueReading>,
  attempts = EQUITY_READ_ATTEMPTS,
): Promise<EquityReading> {
  let n = 0;
  for (;;) {
    n++;
    const before = sources.read();
    const venue = await fresh();
    const after = sources.read();
    const settled = before.fingerprint === after.fingerprint && after.pending === 0;
    if (settled || n >= attempts) {
      const equity = equityOf({
        equityAsset,
        balances: venue.balances,
        held: after.held.byAsset,
        positions: after.positions,
        flex: after.flex,
        prices: lastPrices(venue.prices),
      });
      return { ...venue, equity, journal: after, settled, attempts: n };
    }
  }
}
