/**
 * The daemon's candle feed on the injected clock, over a real SQLite store: at start the declared
 * windows load from imported minutes and from minutes the price recorder folded (a spot market
 * takes its reference's prices); a window with fewer candles than declared is logged, kept for
 * `status` (JSON and text) and shown to the strategy in `ctx.history`, never filled in. Then each
 * price poll feeds the minutes it closed, a candle schedule fires once per closed candle, and the
 * windows stay equal to what the store aggregates.
 */
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { dec } from '../../../src/core/decimal.js';
import { LiveCandleFeed } from '../../../src/daemon/candle-feed.js';
import { recordingPrices } from '../../../src/daemon/price-recorder.js';
import { buildStatus } from '../../../src/cli/status-model.js';
import { renderText } from '../../../src/cli/status-text.js';
import { StrategyCandles } from '../../../src/engine/strategy-candles.js';
import type { FuturesMarket } from '../../../src/model/markets.js';
import { createLogger } from '../../../src/observability/logger.js';
import { openStore, type MinuteCandle } from '../../../src/store/index.js';
import { BufferedState, buildContext, CandleRequestError } from '../../../src/strategy-api/host.js';
import { MemoryState, quietLog, snapshot } from '../../support/daemon-ctx.js';
import { tempDir } from '../../support/temp-dir.js';

const T0 = Date.UTC(2024, 0, 1);
const MIN = 60_000;

function imported(minute: number): MinuteCandle {
  const p = dec(String(60_000 + minute));
  return { market: 'BTC_USDT', openMs: T0 + minute * MIN, open: p, high: p.plus(5), low: p.minus(5), close: p.plus(1), volume: dec('1') };
}

function listing(price: string): FuturesMarket[] {
  const p = dec(price);
  return [{ tickerId: 'BTC_PERP', base: 'BTC', quote: 'USDT', lastPrice: p, baseVolume: p, quoteVolume: p, bid: p, ask: p, high: p, low: p, productType: 'Futures' }];
}

describe('live candle feed', () => {
  it('warms up from imported and recorded minutes, says when it is short, then ticks once per closed candle', async () => {
    const dataDir = tempDir('v4bot-candle-feed-');
    const clock = new ManualClock(T0 + 100 * MIN);
    const store = openStore({ dataDir, clock, logger: createLogger({ level: 'silent' }) });
    const lines: Array<{ level: number; msg: string }> = [];
    const logger = createLogger({ level: 'info', destination: { write: (l: string) => void lines.push(JSON.parse(l) as { level: number; msg: string }) } });
    try {
      // Minutes 0-99 imported; 100-159 recorded from the listing's BTC_PERP, BTC_USDT's reference.
      store.tx(() => store.candles.upsert(Array.from({ length: 100 }, (_, m) => imported(m))));
      let price = 61_000;
      const gw = recordingPrices({ markets: async () => listing(String(price)), balances: async () => new Map() }, store, clock, logger, 30, ['BTC_USDT']);
      const poll = async (): Promise<void> => {
        price += 1;
        await gw.markets();
        clock.advance(20_000);
      };
      while (clock.now() < T0 + 160 * MIN) await poll();

      const candles = new StrategyCandles((m) => store.candles.openMinute(m));
      candles.register([
        { id: 's1', schedule: 'candle:15m', history: [{ market: 'BTC_USDT', timeframe: '15m', count: 20 }, { market: 'BTC_USDT', timeframe: '1m', count: 50 }] },
        { id: 'cron1', schedule: '0 * * * * *', history: [{ market: 'BTC_USDT', timeframe: '1h', count: 2 }] },
      ]);
      const feed = new LiveCandleFeed(store, candles, clock, logger);
      // Ten quarter hours closed by 02:40 (the eleventh, 02:30-02:45, is still open); 50 minutes and 2 hours are there.
      expect(feed.seed()).toEqual([{ strategyId: 's1', market: 'BTC_USDT', timeframe: '15m', want: 20, have: 10 }]);
      expect(lines.find((l) => l.level === 40)?.msg).toContain('warm-up: fewer candles than declared (s1 BTC_USDT 15m 10/20)');
      const status = buildStatus(dataDir, clock);
      expect(status['warmUp']).toEqual([{ strategyId: 's1', market: 'BTC_USDT', timeframe: '15m', want: 20, have: 10 }]);
      expect(renderText(status)).toContain('Warm-up: s1 BTC_USDT 15m 10 of 20 candles');

      const ctx = buildContext('s1', {}, snapshot({ nowMs: clock.now(), candles: candles.snapshot('s1', clock.now()) }), new BufferedState(new MemoryState()), quietLog);
      expect(ctx.history).toEqual([
        { market: 'BTC_USDT', timeframe: '15m', want: 20, have: 10, ready: false },
        { market: 'BTC_USDT', timeframe: '1m', want: 50, have: 50, ready: true },
      ]);
      expect(ctx.candles('BTC_USDT', '15m', 20)).toHaveLength(10);
      const quarters = ctx.candles('BTC_USDT', '15m', 20);
      // Imported minutes and recorded ones meet in the 01:30-01:45 candle: nothing in between is invented.
      expect(quarters.map((c) => c.minutes)).toEqual([15, 15, 15, 15, 15, 15, 15, 15, 15, 15]);
      expect(quarters[6]?.open.toFixed()).toBe('60090');
      expect(quarters[6]?.close.toFixed()).toBe(store.candles.closed('BTC_USDT', '15m', 4)[0]?.close.toFixed());
      // 02:30-02:45 so far: minutes 150-159 (the poll of minute 160 has not come yet), as the store reads it.
      expect(ctx.openCandle('BTC_USDT', '15m')).toEqual({ ...store.candles.open('BTC_USDT', '15m'), openMs: T0 + 150 * MIN, closed: false, minutes: 10 });
      expect(() => ctx.candles('BTC_USDT', '15m', 21)).toThrow(CandleRequestError);
      expect(() => ctx.candles('BTC_USDT', '15m', 21)).toThrow('ctx.candles(BTC_USDT, 15m, 21): expected a count from 1 to 20, the count declared in history');
      expect(() => ctx.candles('BTC_USDT', '4h', 1)).toThrow('ctx.candles(BTC_USDT, 4h): not declared; declare it in defineStrategy\'s history (declared: BTC_USDT 15m x20, BTC_USDT 1m x50)');

      // Three more hours of polls: twelve quarter hours close (02:45 .. 05:30), each ticks s1 once.
      const ticks: string[] = [];
      while (clock.now() < T0 + 340 * MIN + 10_000) {
        await poll();
        // The feed runs after the clock moved past the poll: it closes the ended minute itself first.
        ticks.push(...feed.update());
      }
      expect(ticks).toEqual(Array.from({ length: 12 }, () => 's1'));
      expect(candles.warmUp()).toEqual([]);
      expect(buildStatus(dataDir, clock)['warmUp']).toEqual([]);
      expect(lines.some((l) => l.msg === 'warm-up complete: every declared candle window is full')).toBe(true);
      const shown = candles.snapshot('s1', clock.now());
      for (const w of shown) expect(w.closed).toEqual(store.candles.closed('BTC_USDT', w.timeframe, w.want));
    } finally {
      store.close();
    }
  });
});
