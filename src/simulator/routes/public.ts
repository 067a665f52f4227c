/** Public endpoints: ping (api-v4 4.1) and the futures listing built from `_PERP` markets (4.2, 2.11). */
import { toWire } from '../../core/decimal.js';
import type { Venue } from '../venue.js';

export function ping(): unknown {
  return ['pong'];
}

const FUNDING_INTERVAL_MIN = 480;

/**
 * Futures entries. bid/ask are one tick around the single price; funding is not modelled
 * (rate 0); open interest is the sum of open position sizes of all accounts.
 */
export function futures(venue: Venue): unknown {
  const now = venue.nowMs();
  const intervalMs = FUNDING_INTERVAL_MIN * 60_000;
  const nextFunding = (Math.floor(now / intervalMs) + 1) * intervalMs;
  const result = [...venue.markets.values()]
    .filter((m) => m.isPerp && m.available)
    .map((m) => {
      let oi = m.price.mul(0);
      for (const a of venue.accounts.values()) {
        for (const p of a.positions.values()) if (p.market === m.name) oi = oi.plus(p.amount.abs());
      }
      const brackets: Record<string, number> = {};
      for (const lev of [1, 2, 3, 5, 10, 20, 50, 100].filter((l) => l <= m.maxLeverage)) brackets[String(lev)] = 0;
      return {
        ticker_id: m.name,
        stock_currency: m.stock,
        money_currency: m.money,
        last_price: toWire(m.price),
        stock_volume: toWire(m.stockVolume),
        money_volume: toWire(m.moneyVolume),
        bid: toWire(m.price.minus(m.tick).gt(0) ? m.price.minus(m.tick) : m.price),
        ask: toWire(m.price.plus(m.tick)),
        high: toWire(m.high),
        low: toWire(m.low),
        product_type: 'Perpetual',
        open_interest: toWire(oi),
        index_price: toWire(m.price),
        index_name: m.stock,
        index_currency: m.stock,
        funding_rate: '0',
        next_funding_rate_timestamp: String(nextFunding),
        brackets,
        max_leverage: m.maxLeverage,
        funding_interval_minutes: FUNDING_INTERVAL_MIN,
        funding_cap: '0.003',
        funding_floor: '-0.003',
      };
    });
  return { success: true, message: null, result };
}
