/** A market of the venue's listing, with its prices. */
import type { Decimal } from '../core/decimal.js';

export interface FuturesMarket {
  tickerId: string;
  base: string;
  quote: string;
  lastPrice: Decimal;
  baseVolume: Decimal;
  quoteVolume: Decimal;
  bid: Decimal;
  ask: Decimal;
  high: Decimal;
  low: Decimal;
  productType: string;
  openInterest?: Decimal;
  indexPrice?: Decimal;
  indexName?: string;
  indexCurrency?: string;
  fundingRate?: Decimal;
  nextFundingRateTimestampMs?: number;
  maxLeverage?: number;
  fundingIntervalMinutes?: number;
  brackets?: Readonly<Record<string, number>>;
}

/** `BASE_QUOTE` names, made once per pair: the equity rule and the price views name the same few pairs at every check. */
const pairNames = new Map<string, Map<string, string>>();

/** The spot market of `base` quoted in `quote` (`BTC_USDT`). */
export function pairName(base: string, quote: string): string {
  let byQuote = pairNames.get(base);
  if (byQuote === undefined) pairNames.set(base, (byQuote = new Map()));
  let name = byQuote.get(quote);
  if (name === undefined) byQuote.set(quote, (name = `${base}_${quote}`));
  return name;
}
