/**
 * A spot market and its perpetual on one price path. The bot prices a spot market from its
 * perpetual's futures listing entry (strategies see `BTC_USDT` priced by `BTC_PERP`), so a venue
 * whose two markets wander apart makes a spot strategy quote around the wrong price.
 */
import type { MarketOptions } from './options.js';

/** `markets` with `pricePath` set to the base asset wherever none is given. */
export function linkedMarkets(markets: readonly MarketOptions[]): MarketOptions[] {
  return markets.map((m) => ({ ...m, pricePath: m.pricePath ?? m.name.split('_')[0] ?? m.name }));
}
