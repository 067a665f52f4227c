/**
 * The futures listing of the in-process venue, each market's entry kept while what it is built
 * from stands still. A backtest reads the listing at every equity check and every price refresh,
 * and a good share of those reads come at the same instant as the last one (the strategies' read
 * and the equity check's), or after a minute whose close repeated the last price: the entry the
 * route would build (src/simulator/routes/public.ts `listed`) is then the one it built last
 * (docs/backtesting.md § Speed).
 *
 * An entry is a function of its market's fixed rules (name, assets, tick, leverage, brackets,
 * index name), of its moving state (price, high, low, volumes: each change stores a new immutable
 * decimal, so the very same objects prove the same values), of the open interest (every account's
 * positions in the market: summed afresh and compared by value once all else stands; a rebuilt
 * entry keeps the sum it was built with) and of the next funding instant (the clock). An entry is
 * handed out again only when all of these are the same; entries are frozen and each read gets a
 * new array, so a caller cannot change what the next gets.
 */
import type { Decimal } from '../core/decimal.js';
import type { FuturesMarket } from '../model/markets.js';
import type { Market } from '../simulator/market.js';
import { isListed, listed, nextFundingAt, openInterest } from '../simulator/routes/public.js';
import type { Venue } from '../simulator/venue.js';

/** What one entry was built from (the market's fixed rules are the market object's own). */
interface Kept {
  price: Decimal;
  high: Decimal;
  low: Decimal;
  baseVolume: Decimal;
  quoteVolume: Decimal;
  /** The entry's own (the listing always gives one; an entry without one never stands). */
  openInterest: Decimal | undefined;
  nextFunding: number;
  entry: FuturesMarket;
}

/** The market's moving decimals and the funding instant are those the entry was built from. */
function sameState(k: Kept, m: Market, nextFunding: number): boolean {
  const same = k.price === m.price && k.high === m.high && k.low === m.low && k.baseVolume === m.stockVolume && k.quoteVolume === m.moneyVolume;
  return same && k.nextFunding === nextFunding;
}

export class KeptFutures {
  private readonly kept = new WeakMap<Market, Kept>();

  constructor(private readonly venue: Venue) {}

  /** The listing as `futuresListing` gives it now (the caller has brought the venue up to now). */
  read(): FuturesMarket[] {
    const venue = this.venue;
    const nextFunding = nextFundingAt(venue.nowMs());
    const out: FuturesMarket[] = [];
    for (const m of venue.markets.values()) {
      if (!isListed(m)) continue;
      const k = this.kept.get(m);
      // The open interest is summed only for an entry that may stand: a new entry sums its own.
      if (k !== undefined && sameState(k, m, nextFunding) && k.openInterest?.eq(openInterest(venue, m)) === true) {
        out.push(k.entry);
        continue;
      }
      const entry = Object.freeze(listed(venue, m, nextFunding));
      const { price, high, low, stockVolume: baseVolume, moneyVolume: quoteVolume } = m;
      this.kept.set(m, { price, high, low, baseVolume, quoteVolume, openInterest: entry.openInterest, nextFunding, entry });
      out.push(entry);
    }
    return out;
  }
}
