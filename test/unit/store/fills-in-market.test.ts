/** `FillsRepository.recentInMarket`: the candle chart's fills, by market and window, newest kept, oldest first. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { dec } from '../../../src/core/decimal.js';
import { silentLogger } from '../../../src/observability/logger.js';
import { openStore, type Store } from '../../../src/store/index.js';
import { tempDir } from '../../support/temp-dir.js';

let store: Store;

beforeEach(() => {
  store = openStore({ dataDir: tempDir('v4bot-fills-market-'), clock: new ManualClock(), logger: silentLogger() });
});
afterEach(() => store.close());

function fill(dealId: number, market: string, timeMs: number): void {
  store.fills.insert({
    dealId, orderId: dealId, clientOrderId: `c${dealId}`, market, side: 'buy', role: 'maker', timeMs,
    amount: dec('0.001'), price: dec('60000.123456789'), quote: dec('60.000123456789'), fee: dec('0'), feeAsset: 'USDT', strategyId: 'grid1', ownerClientOrderId: `c${dealId}`,
  });
}

describe('FillsRepository.recentInMarket', () => {
  it('keeps the market and the window, the newest `limit`, oldest first, exact', () => {
    fill(1, 'BTC_PERP', 1_000);
    fill(2, 'BTC_PERP', 2_000);
    fill(3, 'BTC_USDT', 2_500);
    fill(5, 'BTC_PERP', 3_000);
    fill(4, 'BTC_PERP', 3_000);
    fill(6, 'BTC_PERP', 4_000);
    expect(store.fills.recentInMarket('BTC_PERP', 2_000, 10).map((f) => f.dealId)).toEqual([2, 4, 5, 6]);
    expect(store.fills.recentInMarket('BTC_PERP', 0, 3).map((f) => f.dealId)).toEqual([4, 5, 6]);
    expect(store.fills.recentInMarket('BTC_USDT', 0, 10).map((f) => f.dealId)).toEqual([3]);
    expect(store.fills.recentInMarket('BTC_PERP', 5_000, 10)).toEqual([]);
    expect(store.fills.recentInMarket('BTC_PERP', 4_000, 1)[0]?.price.toFixed()).toBe('60000.123456789');
  });
});
