/** Public endpoints: ping (api-v4 4.1) and the futures listing built from `_PERP` markets (4.2, 2.11). */
import { toWire } from '../../core/decimal.js';
import type { Market } from '../market.js';
import type { Venue } from '../venue.js';

export function ping(): unknown {
  return ['pong'];
}

const FUNDING_INTERVAL_MIN = 480;

/** Names of common index assets; others show their ticker. */
const INDEX_NAMES: Readonly<Record<string, string>> = { BTC: 'Bitcoin', ETH: 'Ethereum', SOL: 'Solana', XRP: 'XRP', LTC: 'Litecoin' };

/**
 * Brackets as the vendor's published sample shows them for a 100x market (leverage level →
 * integer; no lower level carries a value). The simulator does not act on them.
 */
const SAMPLE_BRACKETS: Readonly<Record<string, number>> = { '1': 0, '2': 0, '3': 0, '5': 0, '10': 0, '20': 0, '50': 20, '100': 50 };

function bracketsOf(m: Market): Record<string, number> {
  const all = m.brackets ?? SAMPLE_BRACKETS;
  return Object.fromEntries(Object.entries(all).filter(([lev]) => Number(lev) <= m.maxLeverage));
}

function openInterest(venue: Venue, m: Market): string {
  let oi = m.price.mul(0);
  for (const a of venue.accounts.values()) {
    for (const p of a.positions.values()) if (p.market === m.name) oi = oi.plus(p.amount.abs());
  }
  return toWire(oi);
}

/**
 * One futures entry. bid/ask are one tick around the single price; funding is not modelled
 * (rate 0); open interest is the sum of open position sizes of all accounts. The index is the
 * stock asset (`index_currency` as in the vendor's sample, `index_name` its full name).
 */
function futuresEntry(venue: Venue, m: Market, nextFunding: number): Record<string, unknown> {
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
    open_interest: openInterest(venue, m),
    index_price: toWire(m.price),
    index_name: m.indexName ?? INDEX_NAMES[m.stock] ?? m.stock,
    index_currency: m.stock,
    funding_rate: '0',
    next_funding_rate_timestamp: String(nextFunding),
    brackets: bracketsOf(m),
    max_leverage: m.maxLeverage,
    funding_interval_minutes: FUNDING_INTERVAL_MIN,
    funding_cap: '0.003',
    funding_floor: '-0.003',
  };
}

export function futures(venue: Venue): unknown {
  const intervalMs = FUNDING_INTERVAL_MIN * 60_000;
  const nextFunding = (Math.floor(venue.nowMs() / intervalMs) + 1) * intervalMs;
  const result = [...venue.markets.values()].filter((m) => m.isPerp && m.available).map((m) => futuresEntry(venue, m, nextFunding));
  return { success: true, message: null, result };
}
