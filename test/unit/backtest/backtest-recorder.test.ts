/**
 * The price recorder around the futures listing: the first poll of each minute per market is
 * stored (real SQLite store), later polls of that minute are not, samples older than the 30-day
 * retention are pruned, and a store failure never fails the poll (trading goes on).
 */
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { dec } from '../../../src/core/decimal.js';
import { recordingPrices } from '../../../src/daemon/price-recorder.js';
import type { FuturesMarket } from '../../../src/model/markets.js';
import { silentLogger } from '../../../src/observability/logger.js';
import { openStore } from '../../../src/store/index.js';
import { PRICE_RETENTION_MS } from '../../../src/store/price-samples-repo.js';
import { tempDir } from '../../support/temp-dir.js';

const T0 = Date.UTC(2024, 0, 1);

function listing(price: string): FuturesMarket[] {
  const p = dec(price);
  return ['BTC_PERP', 'ETH_PERP'].map((tickerId) => ({
    tickerId, base: tickerId.split('_')[0] as string, quote: 'USDT', lastPrice: p, baseVolume: p, quoteVolume: p, bid: p, ask: p, high: p, low: p, productType: 'Futures',
  }));
}

describe('price recorder', () => {
  it('keeps the first poll of each minute per market and prunes past the retention', async () => {
    const clock = new ManualClock(T0 + 5_000);
    const store = openStore({ dataDir: tempDir('v4bot-rec-'), clock, logger: silentLogger() });
    store.prices.record('BTC_PERP', T0 - PRICE_RETENTION_MS - 1, dec('1'));
    let price = '100';
    const gw = recordingPrices({ markets: async () => listing(price), balances: async () => new Map() }, store, clock, silentLogger());
    expect((await gw.markets()).length).toBe(2);
    price = '101';
    clock.advance(30_000);
    await gw.markets();
    price = '102';
    clock.advance(30_000);
    await gw.markets();
    expect([...store.prices.range()].map((s) => [s.market, s.timeMs - T0, s.price.toFixed()])).toEqual([
      ['BTC_PERP', 5_000, '100'],
      ['BTC_PERP', 65_000, '102'],
      ['ETH_PERP', 5_000, '100'],
      ['ETH_PERP', 65_000, '102'],
    ]);
    store.close();
  });

  it('a store that fails does not fail the poll', async () => {
    const clock = new ManualClock(T0);
    const store = openStore({ dataDir: tempDir('v4bot-rec-'), clock, logger: silentLogger() });
    store.close();
    const gw = recordingPrices({ markets: async () => listing('5'), balances: async () => new Map() }, store, clock, silentLogger());
    expect((await gw.markets()).map((f) => f.tickerId)).toEqual(['BTC_PERP', 'ETH_PERP']);
  });
});
