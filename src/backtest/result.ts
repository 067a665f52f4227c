/**
 * The backtest's output, as written to `result.json` and drawn by the HTML report. Every amount is
 * a decimal string (never a JS number); every time is Unix milliseconds (UTC). The shape is the
 * contract between the run (src/backtest/run*), the metrics (metrics.ts) and the report (report/).
 */

/** Figures for one strategy instance, or for all of them together (`total`). */
export interface BacktestMetrics {
  /** Realised PnL in quote currency, before fees. */
  realisedPnl: string;
  /** Fees paid in quote currency (positive = paid). */
  fees: string;
  /** realisedPnl − fees. */
  realisedPnlAfterFees: string;
  /** Open positions marked at the last price, in quote currency. */
  unrealisedPnl: string;
  /** Flex-investment earnings credited during the run, in quote currency. */
  flexEarnings: string;
  /** realisedPnlAfterFees + unrealisedPnl + flexEarnings. */
  netPnl: string;
  orders: number;
  fills: number;
  /** Closed round trips (a position back to flat or flipped). */
  trades: number;
  /** Winning round trips / round trips, as a decimal string in [0, 1]; null when no round trip closed. */
  winRate: string | null;
  /** Largest fall of equity from a running peak, as a fraction of that peak (decimal string in [0, 1]). */
  maxDrawdown: string;
  /** Share of the run's time with a non-zero position, decimal string in [0, 1]. */
  exposure: string;
  /** Mean / standard deviation of daily equity returns × √365; null with fewer than two days. */
  sharpeDaily: string | null;
}

export interface EquityPoint {
  timeMs: number;
  /** Account value in quote currency: balances plus positions marked at the price of that time. */
  equity: string;
}

export interface PricePoint {
  timeMs: number;
  price: string;
}

export interface BacktestFill {
  timeMs: number;
  strategy: string;
  market: string;
  side: 'buy' | 'sell';
  price: string;
  amount: string;
  /** Fee in quote currency. */
  fee: string;
  orderId: string;
}

/** One closed round trip, for the trade list. */
export interface BacktestTrade {
  strategy: string;
  market: string;
  /** Direction of the position that was closed. */
  direction: 'long' | 'short';
  openedMs: number;
  closedMs: number;
  amount: string;
  entryPrice: string;
  exitPrice: string;
  /** Realised PnL after this trade's fees. */
  pnl: string;
}

export interface BacktestResult {
  /** Bumped when the shape changes. */
  version: 1;
  inputs: {
    /** Config file as given, and the SHA-256 of its bytes. */
    config: string;
    configSha256: string;
    /** Price files as given (sorted), with the SHA-256 of each. */
    prices: Array<{ file: string; sha256: string }>;
    fromMs: number;
    toMs: number;
    /** The fill model's settings, as used. */
    fillModel: Record<string, string>;
    /**
     * Present when strategies declare candle history: the input's candles from `fromMs` to
     * `untilMs` filled the declared `windows`; the run (trading, metrics) starts at `untilMs`,
     * which is the `fromMs` above (docs/backtesting.md § Candles and warm-up).
     */
    warmUp?: { fromMs: number; untilMs: number; windows: string };
  };
  total: BacktestMetrics;
  strategies: Record<string, BacktestMetrics>;
  /** Account equity over time (downsampled to at most a few thousand points for the report). */
  equity: EquityPoint[];
  /** Price path per market (downsampled like equity). */
  prices: Record<string, PricePoint[]>;
  fills: BacktestFill[];
  trades: BacktestTrade[];
}
