/**
 * Options of the simulated venue and their defaults. Money values are decimal strings; times are
 * milliseconds of the injected clock unless a name says otherwise.
 */
import type { Clock } from '../core/clock.js';
import type { Logger } from '../observability/logger.js';

/** One simulated market. A `_PERP` name makes it a perpetual (listed by the futures endpoint). */
export interface MarketOptions {
  /** Market name `<STOCK>_<MONEY>`, e.g. `BTC_USDT` or `BTC_PERP`. */
  name: string;
  /** Stock (base) asset, e.g. `BTC`. Default: the part before `_`. */
  stock?: string;
  /** Money (quote) asset. Default: the part after `_`, except `_PERP` markets settle in `USDT`. */
  money?: string;
  /** Start price (decimal string, money per stock). */
  startPrice: string;
  /** Price tick (decimal string); prices must be multiples. */
  tick: string;
  /** Amount step (decimal string); amounts must be multiples. */
  step: string;
  /** Minimum order amount (stock). Default: `step`. */
  minAmount?: string;
  /** Minimum order total amount*price (money). Default `5.05`. */
  minTotal?: string;
  /** Maker fee rate, e.g. `0.001` = 0.1 %. Default `0.001`. */
  makerFee?: string;
  /** Taker fee rate. Default `0.001`. */
  takerFee?: string;
  /** Mean relative price change per step (decimal fraction). Default `0`. */
  drift?: string;
  /** Standard deviation of the relative price change per step. Default `0.0005`. */
  volatility?: string;
  /**
   * Name of the random-walk stream. Markets that share it (with the same start price, drift and
   * volatility) move together, as a spot market and its perpetual do. Default: the market name.
   */
  pricePath?: string;
  /** Mean stock volume that resting orders can fill per step. Default `1`. */
  volumePerStep?: string;
  /** Stock available to a taker at placement; the rest rests (or an ioc cancels it). Default unlimited. */
  takerDepth?: string;
  /** Leverage of collateral orders (margin = notional / leverage). Default 10. */
  leverage?: number;
  /** Maximum leverage shown by the futures listing. Default 100. */
  maxLeverage?: number;
  /** `index_name` of the futures listing, e.g. `Bitcoin`. Default: the asset's name when known, else the stock ticker. */
  indexName?: string;
  /**
   * `brackets` of the futures listing: leverage level → integer, levels up to `maxLeverage`.
   * Default the vendor's published sample: 0 up to 20x, 20 at 50x, 50 at 100x.
   */
  brackets?: Record<string, number>;
  /**
   * CSV price file replayed one row per step instead of the random walk: each line `price` or
   * `anything,price` (the last column is the price); a header line that is not a number is skipped.
   * After the last row the price stays.
   */
  priceFile?: string;
  /** Set false to make the market answer code 31 (not available). Default true. */
  available?: boolean;
}

/** A flexible investment an account starts with. */
export interface FlexOptions {
  /** Plan id (UUID). Default: generated from the seed. */
  planId?: string;
  /** Investment id. Default: generated from the seed. */
  investmentId?: string;
  currency: string;
  /** Invested amount (decimal string). */
  amount: string;
  /** Earnings per simulated day as a fraction of the amount, e.g. `0.0001`. Default `0.0001`. */
  dailyRate?: string;
  /** `ACTIVE` (default) or another status, which makes closing fail with code 2. */
  status?: string;
}

/** A configured loan of the credit line. */
export interface LoanOptions {
  /** Borrowed asset, e.g. `USDT`. */
  asset: string;
  /** Borrowed amount (decimal string). */
  amount: string;
  /** Collateral asset valued at `<collateralAsset>_<asset>` market price, e.g. `BTC`. */
  collateralAsset: string;
  /** Collateral amount (decimal string). */
  collateralAmount: string;
  /** LTV fractions as decimal strings. Defaults 0.5 / 0.7 / 0.8. */
  initialLtv?: string;
  marginCallLtv?: string;
  liquidationLtv?: string;
}

/** An account of the venue. */
export interface AccountOptions {
  apiKey: string;
  apiSecret: string;
  /** Asset → main balance (decimal string). */
  balances?: Record<string, string>;
  flex?: FlexOptions[];
  /** A loan; absent → "No active loan at the moment". */
  loan?: LoanOptions;
  /** Credit line endpoint enabled for this key (404 otherwise). Default true. */
  creditLineEnabled?: boolean;
  /** Flex endpoints allowed for this key (403 otherwise). Default true. */
  flexEnabled?: boolean;
  /** Hedge mode on `_PERP` markets (positionSide LONG/SHORT). Default false. */
  hedgeMode?: boolean;
  /**
   * Keep every order that ever ended in `Account.orders` (the truth listing shows them). Default
   * true. A backtest sets false: a year's settled orders would otherwise stay in memory to the end,
   * though no answer of the venue reads them (orders an OTO/OCO record refers to are always kept).
   */
  keepSettledOrders?: boolean;
}

/** Fault settings of one endpoint (or of `*`, all endpoints). Rates are probabilities 0..1. */
export interface EndpointFaults {
  /** Added latency before the request is handled, ms of the clock. */
  latencyMs?: number;
  /** Answer 5xx before applying the request. */
  error5xx?: number;
  /** Answer a non-JSON 429 before applying the request. */
  rate429?: number;
  /** Apply the request, then drop the response. */
  dropAfterApply?: { rate: number; mode: 'reset' | 'hang' };
  /** Apply the request, then answer a truncated or garbage body with status 200. */
  malformed?: number;
}

/** Endpoint path (e.g. `/api/v4/order/bulk`) or `*` → faults. */
export type FaultOptions = Record<string, EndpointFaults>;

/**
 * Rate-limit pools (api-v4 8, docs/live-service.md §2): orders (bulk, collateral limit, cancel), executed
 * history, conditional listing, and one pool each for main balance, flex history, flex close and
 * credit line (each its own 1 000 / 10 s), and the public endpoints.
 */
export type RatePool = 'orders' | 'history' | 'conditional' | 'balance' | 'flexHistory' | 'flexClose' | 'creditLine' | 'public';

/** A sliding-window limit: at most `limit` requests per `windowMs`. */
export interface RateLimit {
  limit: number;
  windowMs: number;
}

export interface SimulatorOptions {
  /** Time source. Default: the system clock. */
  clock?: Clock;
  /** Seed of every random choice. Default 1. */
  seed?: number;
  /** Bind address. Default `127.0.0.1`. */
  host?: string;
  /** Port; 0 = ephemeral. Default 0. */
  port?: number;
  /** Markets. Default: `defaultMarkets()`. */
  markets?: MarketOptions[];
  /** Accounts. When none is given, a funded default account with a generated key pair is created. */
  accounts?: AccountOptions[];
  /** Balances of the generated default account (asset → decimal string). */
  defaultBalances?: Record<string, string>;
  /** Flex investments of the generated default account. Default none. */
  defaultFlex?: FlexOptions[];
  /** Simulated time per price step, ms. Default 1000. */
  stepMs?: number;
  /**
   * Catch-up walks at most this many due steps one by one; a longer gap (the venue sat idle) is
   * covered by one jump against the skipped path's range (venue.ts). Default 60.
   */
  maxWalkSteps?: number;
  /** Rate limit overrides per pool. */
  rateLimits?: Partial<Record<RatePool, RateLimit>>;
  /** Faults per endpoint. Default none. */
  faults?: FaultOptions;
  /** Serve `/_sim/*` admin routes (loopback only). Default false. */
  admin?: boolean;
  /**
   * With `market` given, answer executed history as a flat array (the live service's shape)
   * instead of the spec's object keyed by market. Default false (spec shape).
   */
  flatHistoryWithMarket?: boolean;
  /**
   * SQLite file holding the venue's whole state (created when missing): a start on an existing
   * file continues its accounts, orders, positions, brackets, flex, price paths and clock, and
   * every change is committed before the reply that reveals it (docs/paper-account.md).
   * Default: none, the venue lives in memory only.
   */
  stateFile?: string;
  logger?: Logger;
}

/** Defaults of api-v4 8 and docs/live-service.md §2 (per 10 s). */
export const DEFAULT_RATE_LIMITS: Record<RatePool, RateLimit> = {
  orders: { limit: 10_000, windowMs: 10_000 },
  history: { limit: 12_000, windowMs: 10_000 },
  conditional: { limit: 12_000, windowMs: 10_000 },
  balance: { limit: 1_000, windowMs: 10_000 },
  flexHistory: { limit: 1_000, windowMs: 10_000 },
  flexClose: { limit: 1_000, windowMs: 10_000 },
  creditLine: { limit: 1_000, windowMs: 10_000 },
  public: { limit: 2_000, windowMs: 10_000 },
};

/** A few spot and perpetual markets with realistic rules. */
export function defaultMarkets(): MarketOptions[] {
  return [
    { name: 'BTC_USDT', startPrice: '60000', tick: '0.01', step: '0.000001', minAmount: '0.00001', minTotal: '5.05', volumePerStep: '0.5' },
    { name: 'ETH_USDT', startPrice: '3000', tick: '0.01', step: '0.0001', minAmount: '0.001', minTotal: '5.05', volumePerStep: '5' },
    { name: 'BTC_PERP', startPrice: '60000', tick: '0.1', step: '0.0001', minAmount: '0.0001', minTotal: '5.05', volumePerStep: '0.5', makerFee: '0.0001', takerFee: '0.00055' },
    { name: 'ETH_PERP', startPrice: '3000', tick: '0.01', step: '0.001', minAmount: '0.001', minTotal: '5.05', volumePerStep: '5', makerFee: '0.0001', takerFee: '0.00055' },
  ];
}

/** Funded balances of the default account. */
export const DEFAULT_BALANCES: Record<string, string> = { USDT: '100000', BTC: '1', ETH: '10' };
