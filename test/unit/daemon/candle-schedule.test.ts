/**
 * The daemon's wiring of candle schedules, on the injected clock with a real store: a
 * `candle:1m` instance gets a job without cron, no tick until a candle closes, then the price
 * poll's feed ticks it once per closed minute, and its hook reads the candles its history
 * declares (a spot market's candles recorded from its perpetual's price).
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { loadConfig } from '../../../src/config/index.js';
import { ManualClock } from '../../../src/core/clock.js';
import { Decimal } from '../../../src/core/decimal.js';
import { LiveCandleFeed } from '../../../src/daemon/candle-feed.js';
import { buildEngine, type Base } from '../../../src/daemon/engine.js';
import { buildScheduler, ReconcileJob, registerJobs, registerPricePoll } from '../../../src/daemon/jobs.js';
import { buildRunners, laneOf } from '../../../src/daemon/runners.js';
import { InlineExecutor } from '../../../src/engine/sandbox-worker/executor.js';
import { silentLogger } from '../../../src/observability/logger.js';
import { BotMetrics } from '../../../src/observability/metrics.js';
import { openStore } from '../../../src/store/index.js';
import type { LoadedStrategy } from '../../../src/strategy-api/host.js';
import { defineStrategy } from '../../../src/strategy-api/index.js';
import { quietLog } from '../../support/daemon-ctx.js';
import { FakeGateway } from '../../support/fake-gateway.js';
import { tempDir } from '../../support/temp-dir.js';
import { closeAfterTest } from '../../support/test-scope.js';

const T0 = Date.UTC(2024, 0, 1, 0, 0, 30);

describe('candle schedule in the daemon', () => {
  it('ticks the instance once per closed candle, from the price poll, with the declared candles', async () => {
    const config = loadConfig({ env: { BOT_CONFIG: 'config/candles.json', BOT_MODE: 'paper', ENV_FILE: '/dev/null' }, cwd: process.cwd() });
    const clock = new ManualClock(T0);
    const logger = silentLogger();
    const store = closeAfterTest(openStore({ dataDir: tempDir('v4bot-candle-schedule-'), clock, logger }));
    const b: Base = { config: { ...config, strategies: [] }, clock, logger, store, metrics: new BotMetrics() };
    const gateway = new FakeGateway();
    const setPrice = (p: string): void => {
      const d = new Decimal(p);
      gateway.marketList = [{ tickerId: 'BTC_PERP', base: 'BTC', quote: 'USDT', lastPrice: d, baseVolume: d, quoteVolume: d, bid: d, ask: d, high: d, low: d, productType: 'Futures' }];
    };
    const engine = buildEngine(b, gateway);
    const scheduler = buildScheduler(b, engine);
    const seen: string[][] = [];
    const definition = defineStrategy({
      name: 'counter',
      params: z.object({}),
      schedule: 'candle:1m',
      history: () => [{ market: 'BTC_USDT', timeframe: '1m', count: 3 }],
      onTick: (ctx) => {
        seen.push(ctx.candles('BTC_USDT', '1m', 3).map((c) => c.close.toFixed()));
        return [];
      },
    });
    const strategy: LoadedStrategy = { id: 'c1', module: 'counter', params: {}, schedule: 'candle:1m', history: [{ market: 'BTC_USDT', timeframe: '1m', count: 3 }], definition: definition as never };
    const runners = buildRunners(b, engine, scheduler, [strategy], () => true, {}, (_b, s) => new InlineExecutor(s, quietLog));
    registerJobs(b, engine, scheduler, new ReconcileJob(b, engine, () => 0), runners, [strategy]);
    const feed = new LiveCandleFeed(store, engine.candles, clock, logger);
    expect(feed.seed()).toEqual([{ strategyId: 'c1', market: 'BTC_USDT', timeframe: '1m', want: 3, have: 0 }]);
    registerPricePoll(b, engine, scheduler, feed);
    expect(scheduler.cronOf(laneOf('c1'))).toBeUndefined();
    expect(engine.candles.candleScheduled('c1')).toBe(true);

    // Five minutes of polls every 5 s, the price moving by 1 each minute.
    for (let i = 0; i < 60; i++) {
      setPrice(String(100 + Math.floor((clock.now() - T0 + 30_000) / 60_000)));
      await scheduler.trigger('prices');
      expect(await scheduler.drain(60_000)).toBe(true);
      clock.advance(5_000);
    }
    // 00:00:30 .. 00:05:25: the minutes 00:00 .. 00:04 closed, one tick each.
    expect(seen).toEqual([['100'], ['100', '101'], ['100', '101', '102'], ['101', '102', '103'], ['102', '103', '104']]);
    expect(scheduler.report()[laneOf('c1')]?.skipped).toBe(0);
  });
});
