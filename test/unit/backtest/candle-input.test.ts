/**
 * The backtest's candle input: the shipped sample's minutes fed to the strategies' windows give,
 * at every point of the run, the very candles the store gives for the same minutes imported
 * (`npm run prices -- import`), so `ctx.candles` is the same call on the same data in a backtest
 * and live. The warm-up ends when the last declared window fills, and an input too short for the
 * declared history is refused, never run on fewer candles.
 */
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { ConfigError } from '../../../src/core/errors.js';
import { BacktestCandleFeed, warmUpEnd } from '../../../src/backtest/candle-input.js';
import { importCandles } from '../../../src/backtest/candle-import.js';
import { loadPrices } from '../../../src/backtest/load-prices.js';
import { StrategyCandles } from '../../../src/engine/strategy-candles.js';
import { silentLogger } from '../../../src/observability/logger.js';
import { openStore, type Candle } from '../../../src/store/index.js';
import type { CandleView, LoadedStrategy } from '../../../src/strategy-api/host.js';
import { tempDir } from '../../support/temp-dir.js';

const T0 = Date.UTC(2024, 0, 1);
const MIN = 60_000;
const SAMPLE = 'samples/prices/BTC_USDT.csv';

const strategy: LoadedStrategy = {
  id: 's1',
  module: 'm',
  params: {},
  schedule: 'candle:15m',
  history: [
    { market: 'BTC_USDT', timeframe: '1m', count: 30 },
    { market: 'BTC_USDT', timeframe: '15m', count: 63 },
    { market: 'BTC_USDT', timeframe: '1h', count: 20 },
    { market: 'BTC_USDT', timeframe: '4h', count: 6 },
  ],
};

const plain = (c: CandleView | Candle): unknown => ({
  ...c,
  open: c.open.toFixed(),
  high: c.high.toFixed(),
  low: c.low.toFixed(),
  close: c.close.toFixed(),
  volume: c.volume?.toFixed() ?? null,
});

describe('backtest candle input', () => {
  it('gives the candles the store gives for the same minutes, at every point of the run', () => {
    const prices = loadPrices('samples/prices');
    const store = openStore({ dataDir: tempDir('v4bot-candle-input-'), clock: new ManualClock(T0 + 30 * 1440 * MIN), logger: silentLogger() });
    try {
      expect(importCandles(store, SAMPLE, 'BTC_USDT').added).toBe(3 * 1440);
      const candles = new StrategyCandles(() => undefined);
      candles.register([strategy]);
      const feed = new BacktestCandleFeed(candles, prices.series);
      let ticks = 0;
      // Every minute of the sample; compared at some minutes through it (hour ends, odd minutes).
      for (let t = T0; t <= T0 + 3 * 1440 * MIN; t += MIN) {
        ticks += candles.due(feed.advanceTo(t)).length;
        if ((t - T0) % (97 * MIN) !== 0 && (t - T0) % (240 * MIN) !== 0) continue;
        for (const w of candles.snapshot('s1', t)) {
          expect(w.closed.map(plain), `${w.timeframe} at ${new Date(t).toISOString()}`).toEqual(store.candles.closed('BTC_USDT', w.timeframe, w.want, t).map(plain));
        }
      }
      feed.close();
      // One tick per closed 15-minute candle: 3 days of them, the last closing at the end.
      expect(ticks).toBe(3 * 96);
    } finally {
      store.close();
    }
  });

  it('ends the warm-up when the last declared window holds its count', () => {
    const prices = loadPrices('samples/prices');
    const end = T0 + 3 * 1440 * MIN;
    // The windows fill at 00:30 (1m), 15:45 (15m), 20:00 (1h) and 24:00 (4h): the last decides.
    expect(warmUpEnd([strategy], prices.series, T0, end)).toEqual({ fromMs: T0, untilMs: T0 + 24 * 60 * MIN, windows: 'BTC_USDT 1m x30, BTC_USDT 15m x63, BTC_USDT 1h x20, BTC_USDT 4h x6' });
    const one = { ...strategy, history: [{ market: 'BTC_USDT', timeframe: '15m' as const, count: 63 }] };
    expect(warmUpEnd([one], prices.series, T0, end)?.untilMs).toBe(T0 + 63 * 15 * MIN);
    // Started later (--from): the candles before it warm the windows up, the run starts as asked.
    expect(warmUpEnd([one], prices.series, T0 + 1440 * MIN, end)?.untilMs).toBe(T0 + 1440 * MIN);
    expect(warmUpEnd([{ ...one, history: [] }], prices.series, T0, end)).toBeNull();
    // Ten hours: the 40th quarter hour closes at --to itself, leaving nothing to trade, so 39 count.
    const short = (): unknown => warmUpEnd([one], prices.series, T0, T0 + 10 * 60 * MIN);
    expect(short).toThrow(ConfigError);
    expect(short).toThrow('--prices: expected enough candles before --to to fill the declared history and still trade, found s1: BTC_USDT 15m 39 of 63');
  });
});
