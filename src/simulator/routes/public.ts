/** Public endpoints: ping (api-v4 4.1) and the futures listing built from `_PERP` markets (4.2, 2.11). */
import { ZERO, toWire, type Decimal } from '../../core/decimal.js';
import type { FuturesMarket } from '../../model/markets.js';
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

/** A market's brackets as last listed, with what they were cut from (a market's leverage may change). */
const keptBrackets = new WeakMap<Market, { all: Readonly<Record<string, number>>; maxLeverage: number; listed: Readonly<Record<string, number>> }>();

/**
 * The brackets up to the market's leverage. The listing is read at every equity check and price
 * refresh and its brackets rarely change: the cut is kept per market, frozen, while its inputs stand.
 */
function bracketsOf(m: Market): Readonly<Record<string, number>> {
  const all = m.brackets ?? SAMPLE_BRACKETS;
  const kept = keptBrackets.get(m);
  if (kept !== undefined && kept.all === all && kept.maxLeverage === m.maxLeverage) return kept.listed;
  const listed = Object.freeze(Object.fromEntries(Object.entries(all).filter(([lev]) => Number(lev) <= m.maxLeverage)));
  keptBrackets.set(m, { all, maxLeverage: m.maxLeverage, listed });
  return listed;
}

export function openInterest(venue: Venue, m: Market): Decimal {
  let oi = ZERO;
  for (const a of venue.accounts.values()) {
    for (const p of a.positions.values()) if (p.market === m.name) oi = oi.plus(p.amount.abs());
  }
  return oi;
}

/**
 * One futures market as the listing describes it. bid/ask are one tick around the single price;
 * funding is not modelled (rate 0); open interest is the sum of open position sizes of all
 * accounts. The index is the stock asset (`index_currency` as in the vendor's sample,
 * `index_name` its full name). Its keys come in the order the client's parser gives them.
 */
export function listed(venue: Venue, m: Market, nextFunding: number): FuturesMarket {
  return {
    tickerId: m.name,
    base: m.stock,
    quote: m.money,
    lastPrice: m.price,
    baseVolume: m.stockVolume,
    quoteVolume: m.moneyVolume,
    bid: m.price.minus(m.tick).gt(0) ? m.price.minus(m.tick) : m.price,
    ask: m.price.plus(m.tick),
    high: m.high,
    low: m.low,
    productType: 'Perpetual',
    openInterest: openInterest(venue, m),
    indexPrice: m.price,
    fundingRate: ZERO,
    indexName: m.indexName ?? INDEX_NAMES[m.stock] ?? m.stock,
    indexCurrency: m.stock,
    nextFundingRateTimestampMs: nextFunding,
    maxLeverage: m.maxLeverage,
    fundingIntervalMinutes: FUNDING_INTERVAL_MIN,
    brackets: bracketsOf(m),
  };
}

/** The next funding instant the listing names at `nowMs`: the end of the current funding interval. */
export function nextFundingAt(nowMs: number): number {
  const intervalMs = FUNDING_INTERVAL_MIN * 60_000;
  return (Math.floor(nowMs / intervalMs) + 1) * intervalMs;
}

/** Whether `m` is in the futures listing: a perpetual open for trading. */
export function isListed(m: Market): boolean {
  return m.isPerp && m.available;
}

/** The entry on the wire (api-v4 4.2): the listed market's fields under the vendor's names, numbers as strings. */
function futuresEntry(f: FuturesMarket): Record<string, unknown> {
  return {
    ticker_id: f.tickerId,
    stock_currency: f.base,
    money_currency: f.quote,
    last_price: toWire(f.lastPrice),
    stock_volume: toWire(f.baseVolume),
    money_volume: toWire(f.quoteVolume),
    bid: toWire(f.bid),
    ask: toWire(f.ask),
    high: toWire(f.high),
    low: toWire(f.low),
    product_type: f.productType,
    open_interest: toWire(f.openInterest ?? ZERO),
    index_price: toWire(f.indexPrice ?? f.lastPrice),
    index_name: f.indexName,
    index_currency: f.indexCurrency,
    funding_rate: toWire(f.fundingRate ?? ZERO),
    next_funding_rate_timestamp: String(f.nextFundingRateTimestampMs),
    brackets: f.brackets,
    max_leverage: f.maxLeverage,
    funding_interval_minutes: f.fundingIntervalMinutes,
    funding_cap: '0.003',
    funding_floor: '-0.003',
  };
}

/**
 * The futures listing as the client reads it: what `futures` puts on the wire, as Decimals and
 * numbers (the in-process venue's answer: no strings built and parsed back;
 * test/unit/simulator/futures-listing.test.ts holds it equal to the parsed wire reply).
 */
export function futuresListing(venue: Venue): FuturesMarket[] {
  const nextFunding = nextFundingAt(venue.nowMs());
  return [...venue.markets.values()].filter(isListed).map((m) => listed(venue, m, nextFunding));
}

export function futures(venue: Venue): unknown {
  return { success: true, message: null, result: futuresListing(venue).map(futuresEntry) };
}
