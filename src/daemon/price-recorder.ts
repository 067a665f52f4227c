/**
 * Records the futures listing's prices as the daemon polls them (MarketData, src/engine/
 * market-data.ts), so operators can backtest on what they saw (docs/backtesting.md § Recording
 * prices): the first poll of each minute per market is kept, older than 30 days pruned hourly.
 * A store error here is logged, never passed on: recording must not stop trading.
 */
import type { Clock } from '../core/clock.js';
import type { ExchangeGateway } from '../exchange/gateway.js';
import type { Logger } from '../observability/logger.js';
import type { Store } from '../store/index.js';
import { PRICE_RETENTION_MS } from '../store/price-samples-repo.js';

const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;

export function recordingPrices(
  gateway: Pick<ExchangeGateway, 'markets' | 'balances'>,
  store: Store,
  clock: Clock,
  logger: Logger,
): Pick<ExchangeGateway, 'markets' | 'balances'> {
  const lastMinute = new Map<string, number>();
  let lastPruneHour = -1;
  const record = (futures: Awaited<ReturnType<ExchangeGateway['markets']>>): void => {
    const now = clock.now();
    const minute = Math.floor(now / MINUTE_MS);
    store.tx(() => {
      for (const f of futures) {
        if (lastMinute.get(f.tickerId) === minute) continue;
        lastMinute.set(f.tickerId, minute);
        store.prices.record(f.tickerId, now, f.lastPrice);
      }
      if (Math.floor(now / HOUR_MS) !== lastPruneHour) {
        lastPruneHour = Math.floor(now / HOUR_MS);
        store.prices.prune(now - PRICE_RETENTION_MS);
      }
    });
  };
  return {
    balances: () => gateway.balances(),
    markets: async () => {
      const futures = await gateway.markets();
      try {
        record(futures);
      } catch (err) {
        logger.warn({ err }, 'price recorder: could not store prices');
      }
      return futures;
    },
  };
}
