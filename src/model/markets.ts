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
