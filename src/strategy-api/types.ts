/**
 * What a strategy sees: a frozen snapshot (`StrategyContext`) handed to each hook. Everything
 * is in domain words, money is Decimal, times are ms of the daemon's clock.
 */
import type { Decimal } from '../core/decimal.js';

import type { OrderState, Side } from '../core/orders.js';
import type { Timeframe } from '../model/candles.js';

/** Part of the author surface: which way an order goes, and the order states the engine journals. */
export type { OrderState, Side } from '../core/orders.js';

/** Candle lengths (`1m` `5m` `15m` `1h` `4h` `1d`); buckets are UTC, at multiples of their length since the epoch. */
export type { Timeframe } from '../model/candles.js';

/** One OHLCV candle (docs/strategies.md § Candles). Times are ms; prices exact. */
export interface CandleView {
  market: string;
  timeframe: Timeframe;
  /** Start of the bucket (inclusive). */
  openMs: number;
  /** End of the bucket (exclusive). */
  closeMs: number;
  open: Decimal;
  high: Decimal;
  low: Decimal;
  close: Decimal;
  /** Traded base volume; null when any minute has none (live candles never do). */
  volume: Decimal | null;
  /** One-minute candles the bucket holds: fewer than its length over a gap. */
  minutes: number;
  /** False for the candle still being built (`ctx.openCandle`). */
  closed: boolean;
}

/** A window of closed candles a strategy declares in `defineStrategy`'s `history`. */
export interface HistoryRequest {
  market: string;
  timeframe: Timeframe;
  /** How many closed candles the strategy reads at most (`ctx.candles`' largest count). */
  count: number;
}

/** How full a declared window is: during warm-up `have` is below `want`. */
export interface HistoryView {
  market: string;
  timeframe: Timeframe;
  want: number;
  have: number;
  /** `have >= want`. */
  ready: boolean;
}

/** A market's prices from the futures listing. */
export interface PriceView {
  /** The listing's ticker, e.g. `BTC_PERP`. */
  ticker: string;
  base: string;
  quote: string;
  /** Last trade price, quote per base. */
  last: Decimal;
  bid: Decimal;
  ask: Decimal;
  /** Index price when the listing has one. */
  index?: Decimal;
}

/** One of this instance's own orders that is not final yet. */
export interface OrderView {
  clientOrderId: string;
  market: string;
  side: Side;
  kind: 'limit' | 'collateral';
  state: OrderState;
  /** Base amount ordered. */
  amount: Decimal;
  /** Limit price, quote per base. */
  price: Decimal;
  /** Base amount filled so far. */
  filled: Decimal;
  /** Base amount still open. */
  remaining: Decimal;
  /** When it was journaled, ms. */
  createdMs: number;
}

/** Protective legs known on the venue for a collateral position. */
export interface ProtectionView {
  /** Stop-loss trigger price when an active stop-loss leg exists, else null. */
  stopLoss: Decimal | null;
  takeProfit: Decimal | null;
}

/** This instance's net position in one market, derived from its fills. */
export interface PositionView {
  market: string;
  kind: 'spot' | 'collateral';
  /** Signed base amount: > 0 long, < 0 short. */
  base: Decimal;
  /** Average entry price of the open amount, quote per base (0 when flat). */
  avgEntryPrice: Decimal;
  /** Collateral positions only: the protective legs found on the venue. */
  protection: ProtectionView | null;
}

/** How one of this instance's orders ended (the `onOrder` hook). */
export interface OrderEventView {
  clientOrderId: string;
  market: string;
  side: Side;
  /** Limit price, quote per base. */
  price: Decimal;
  /** Base amount ordered. */
  amount: Decimal;
  /** Base amount filled when it ended. */
  filled: Decimal;
  /** The final state: FILLED (completely), CANCELLED (by a cancel, or an IOC remainder the venue ended) or REJECTED. */
  state: 'FILLED' | 'CANCELLED' | 'REJECTED';
  /**
   * Why, in the engine's words: `placed` (the placement reply ended it), `cancel confirmed`,
   * `fills`, the resolver's verdict (`resolved: ...`, `not found after ...`, `lost: ...`), or a
   * refusal's error code (`not_sent:CODE` when never sent).
   */
  reason: string;
  /** What the venue said: `CODE: message` for a refusal, `status X` for its order reply; null when fills or the resolver decided. */
  venue: string | null;
  /** When the engine recorded the final state, ms. */
  atMs: number;
}

/** One of this instance's fills. */
export interface FillView {
  dealId: number;
  clientOrderId: string;
  market: string;
  side: Side;
  role: 'maker' | 'taker';
  /** Base amount filled. */
  amount: Decimal;
  price: Decimal;
  /** Quote amount. */
  quote: Decimal;
  fee: Decimal;
  timeMs: number;
}

/** An active flex investment of the account. */
export interface FlexInvestmentView {
  planId: string;
  investmentId: string;
  currency: string;
  /** Invested amount still in the plan (from the pulled history). */
  amount: Decimal;
}

/** Flex investments and the earnings ledger (currency → total earned). */
export interface FlexView {
  investments: readonly FlexInvestmentView[];
  earnings: Readonly<Record<string, Decimal>>;
}

/** JSON value a strategy may persist. */
export type JsonValue = string | number | boolean | null | readonly JsonValue[] | { readonly [k: string]: JsonValue };

/**
 * Persisted key-value state of one instance. Reads see the state as of the hook's start plus
 * the hook's own writes; writes are committed only when the hook returns successfully.
 */
export interface StrategyState {
  get(key: string): JsonValue | undefined;
  set(key: string, value: JsonValue): void;
  delete(key: string): void;
}

/** The logging a strategy may do (a child logger bound to its instance id). */
export interface StrategyLogger {
  debug(obj: object, msg?: string): void;
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

/** The read-only snapshot a hook receives. Frozen: writing to it throws. */
export interface StrategyContext<P = unknown> {
  /** This instance's id (the clientOrderId prefix). */
  readonly instanceId: string;
  /** The instance's validated params. */
  readonly params: P;
  /** Clock time of the snapshot, ms since the epoch. */
  readonly nowMs: number;
  /**
   * Prices from the futures listing, by ticker (`BTC_PERP`) and by `BASE_QUOTE` (`BTC_USDT`) so
   * spot strategies can use the perpetual's price as their reference.
   */
  readonly prices: Readonly<Record<string, PriceView>>;
  /** Main balances, asset → amount (absent = zero). */
  readonly balances: Readonly<Record<string, Decimal>>;
  /** This instance's orders that are not final. */
  readonly openOrders: readonly OrderView[];
  /** This instance's positions, one per market it traded. */
  readonly positions: readonly PositionView[];
  /** This instance's most recent fills, newest first. */
  readonly recentFills: readonly FillView[];
  readonly flex: FlexView;
  /**
   * The last `count` closed candles of a declared window, oldest first. Throws for a window not
   * declared in `history`, or a count above the declared one. Shorter than `count` only while
   * the window warms up (`history` says so).
   */
  candles(market: string, timeframe: Timeframe, count: number): readonly CandleView[];
  /** The candle still being built in a declared window (`closed: false`), or null when its bucket has no minute yet. */
  openCandle(market: string, timeframe: Timeframe): CandleView | null;
  /** Each declared window: how many closed candles it asked for and how many it has. */
  readonly history: readonly HistoryView[];
  readonly state: StrategyState;
  readonly log: StrategyLogger;
}
