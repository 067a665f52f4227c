/**
 * Records the futures listing's prices as the daemon reads them (MarketData, src/engine/
 * market-data.ts, and the price poll every `marketData.pollSeconds`): every price is folded into
 * the market's one-minute candle (docs/market-data.md), and the first of each minute is kept as
 * a price sample for backtests (docs/backtesting.md § Recording prices). Samples older than 30
 * days and candles older than the configured retention are pruned hourly. A store error here is
 * logged, never passed on: recording must not stop trading.
 */
import type { Clock } from '../core/clock.js';
import type { ExchangeGateway } from '../exchange/gateway.js';
import type { FuturesMarket } from '../model/markets.js';
import type { Logger } from '../observability/logger.js';
import type { Store } from '../store/index.js';
import { PRICE_RETENTION_MS } from '../store/price-samples-repo.js';

const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
/** Candle retention when the caller names none (the config default, `marketData.candleRetentionDays`). */
const DEFAULT_CANDLE_RETENTION_DAYS = 30;

/**
 * Which configured market each listed market also folds into, by its place in the listing: a
 * configured market the listing does not list gets the prices of the first listed market of the
 * same base and quote. Worked out again only when the listing lists other markets (or in another
 * order); the daemon and the backtest read the same listing at every price step.
 */
class AliasPlan {
  private kept: { pairs: readonly (readonly [string, string, string])[]; aliasOf: readonly (string | undefined)[] } | undefined;

  constructor(private readonly markets: readonly string[]) {}

  of(futures: readonly FuturesMarket[]): readonly (string | undefined)[] {
    const k = this.kept;
    if (k !== undefined && k.pairs.length === futures.length && futures.every((f, i) => samePair(k.pairs[i], f))) return k.aliasOf;
    const listed = new Set(futures.map((f) => f.tickerId));
    const aliases = new Set(this.markets.filter((m) => !listed.has(m)));
    const aliasOf = futures.map((f) => {
      const spot = `${f.base}_${f.quote}`;
      return aliases.delete(spot) ? spot : undefined;
    });
    this.kept = { pairs: futures.map((f) => [f.tickerId, f.base, f.quote] as const), aliasOf };
    return aliasOf;
  }
}

function samePair(p: readonly [string, string, string] | undefined, f: FuturesMarket): boolean {
  return p !== undefined && p[0] === f.tickerId && p[1] === f.base && p[2] === f.quote;
}

export function recordingPrices(
  gateway: Pick<ExchangeGateway, 'markets' | 'balances' | 'marketsNow' | 'balancesNow'>,
  store: Store,
  clock: Clock,
  logger: Logger,
  candleRetentionDays = DEFAULT_CANDLE_RETENTION_DAYS,
  /**
   * The configured markets: one the listing does not list under its own name (a spot market,
   * `BTC_USDT`) gets the candles of its reference price too, the listing's market of the same base
   * and quote (`BTC_PERP`), as the strategies' `ctx.prices` gives it; so its declared candle
   * windows fill live and continue candles imported under its name.
   */
  markets: readonly string[] = [],
  /**
   * Default true. False (a backtest's throwaway store, daemon/engine.ts EngineOptions): no price
   * history is kept (candles-repo.ts `keepNoHistory`, no price samples): prices move only the open
   * minutes the strategies' candle windows read, and nothing is written to the store.
   */
  history = true,
  /**
   * Without history only: whether anything reads a market's open minute (the strategies' declared
   * candle windows, declared before the first price read). A market nothing reads is not folded:
   * with no history its minutes are dropped unread. Absent: every market is folded.
   */
  readsOpen?: (market: string) => boolean,
): Pick<ExchangeGateway, 'markets' | 'balances' | 'marketsNow' | 'balancesNow'> {
  if (!history) store.candles.keepNoHistory();
  const folds = (market: string): boolean => history || readsOpen === undefined || readsOpen(market);
  const lastMinute = new Map<string, number>();
  let lastPruneHour = -1;
  const aliases = new AliasPlan(markets);
  /** Folds each price into its market's open minute (and its alias's); calls `sampled` with each. */
  const fold = (futures: readonly FuturesMarket[], now: number, sampled?: (f: FuturesMarket) => void): void => {
    const aliasOf = aliases.of(futures);
    for (let i = 0; i < futures.length; i++) {
      const f = futures[i] as FuturesMarket;
      if (folds(f.tickerId)) store.candles.fold(f.tickerId, now, f.lastPrice);
      const alias = aliasOf[i];
      if (alias !== undefined && folds(alias)) store.candles.fold(alias, now, f.lastPrice);
      sampled?.(f);
    }
    // A market that left the listing still has its minute closed once the minute is over.
    store.candles.closeEnded(now);
  };
  const record = (futures: readonly FuturesMarket[]): void => {
    const now = clock.now();
    // No history: nothing is written, so there is no transaction to group it in.
    if (!history) return fold(futures, now);
    const minute = Math.floor(now / MINUTE_MS);
    store.tx(() => {
      fold(futures, now, (f) => {
        if (lastMinute.get(f.tickerId) === minute) return;
        lastMinute.set(f.tickerId, minute);
        store.prices.record(f.tickerId, now, f.lastPrice);
      });
      if (Math.floor(now / HOUR_MS) !== lastPruneHour) {
        lastPruneHour = Math.floor(now / HOUR_MS);
        store.prices.prune(now - PRICE_RETENTION_MS);
        store.candles.prune(now - candleRetentionDays * DAY_MS);
      }
    });
  };
  const recorded = (futures: FuturesMarket[]): FuturesMarket[] => {
    try {
      record(futures);
    } catch (err) {
      // The transaction rolled back: the candles' kept open minutes may no longer be the table's.
      store.candles.forgetOpen();
      logger.warn({ err }, 'price recorder: could not store prices');
    }
    return futures;
  };
  const { marketsNow, balancesNow } = gateway;
  return {
    balances: () => gateway.balances(),
    markets: async () => recorded(await gateway.markets()),
    // A venue that answers at once (in process) is recorded the same way, at once.
    ...(marketsNow !== undefined && balancesNow !== undefined
      ? { marketsNow: () => recorded(marketsNow.call(gateway)), balancesNow: () => balancesNow.call(gateway) }
      : {}),
  };
}
