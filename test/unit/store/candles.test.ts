/**
 * Candles in the store (real SQLite file): prices fold exactly into one-minute candles with the
 * minute still being built kept apart and continued across a reopen; the recorder folds every
 * poll; longer timeframes are aggregated from the minutes that exist, a gap never filled in.
 */
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { dec } from '../../../src/core/decimal.js';
import { recordingPrices } from '../../../src/daemon/price-recorder.js';
import type { FuturesMarket } from '../../../src/model/markets.js';
import { silentLogger } from '../../../src/observability/logger.js';
import { comparePrices } from '../../../src/store/candle-buckets.js';
import { openStore, type Candle, type MinuteCandle, type Store } from '../../../src/store/index.js';
import { tempDir } from '../../support/temp-dir.js';

const T0 = Date.UTC(2024, 0, 1);
const MIN = 60_000;

function open(dataDir = tempDir('v4bot-candles-'), clock = new ManualClock(T0)): { store: Store; clock: ManualClock; dataDir: string } {
  return { store: openStore({ dataDir, clock, logger: silentLogger() }), clock, dataDir };
}

function show(c: Candle | undefined): unknown {
  if (c === undefined) return undefined;
  return {
    at: (c.openMs - T0) / MIN,
    len: (c.closeMs - c.openMs) / MIN,
    ohlc: [c.open, c.high, c.low, c.close].map((d) => d.toFixed()).join(' '),
    volume: c.volume?.toFixed() ?? null,
    minutes: c.minutes,
    closed: c.closed,
  };
}

function minute(at: number, ohlc: string, volume: string | null = '1'): MinuteCandle {
  const [o, h, l, c] = ohlc.split(' ').map(dec) as [ReturnType<typeof dec>, ReturnType<typeof dec>, ReturnType<typeof dec>, ReturnType<typeof dec>];
  return { market: 'BTC_PERP', openMs: T0 + at * MIN, open: o, high: h, low: l, close: c, volume: volume === null ? null : dec(volume) };
}

describe('one-minute candles folded from prices', () => {
  it('keeps exact decimal open, high, low and close; the minute closes when a later one begins', () => {
    const { store, clock } = open();
    const fold = (atMs: number, price: string): void => store.candles.fold('BTC_PERP', T0 + atMs, dec(price));
    fold(5_000, '42000.100000000000000001');
    fold(20_000, '42000.100000000000000002');
    fold(40_000, '41999.999999999999999999');
    fold(59_999, '42000.05');
    clock.advance(59_999);
    expect(store.candles.closed('BTC_PERP', '1m', 10)).toEqual([]);
    expect(show(store.candles.open('BTC_PERP', '1m'))).toEqual({
      at: 0, len: 1, ohlc: '42000.100000000000000001 42000.100000000000000002 41999.999999999999999999 42000.05', volume: null, minutes: 1, closed: false,
    });
    fold(60_000, '42001');
    clock.advance(1);
    expect(store.candles.closed('BTC_PERP', '1m', 10).map(show)).toEqual([
      { at: 0, len: 1, ohlc: '42000.100000000000000001 42000.100000000000000002 41999.999999999999999999 42000.05', volume: null, minutes: 1, closed: true },
    ]);
    expect(show(store.candles.open('BTC_PERP', '1m'))).toMatchObject({ at: 1, ohlc: '42001 42001 42001 42001', closed: false });
    // A price older than the open minute is ignored, never rewrites it.
    fold(59_000, '1');
    expect(show(store.candles.open('BTC_PERP', '1m'))).toMatchObject({ ohlc: '42001 42001 42001 42001' });
    store.close();
  });

  it('continues the open minute after a reopen in the same minute; closes it as it stood once the minute is over', () => {
    const first = open();
    first.store.candles.fold('BTC_PERP', T0 + 10_000, dec('10'));
    first.store.candles.fold('BTC_PERP', T0 + 20_000, dec('12'));
    first.store.close();
    const again = open(first.dataDir, new ManualClock(T0 + 30_000));
    again.store.candles.fold('BTC_PERP', T0 + 30_000, dec('9'));
    expect(show(again.store.candles.open('BTC_PERP', '1m'))).toMatchObject({ ohlc: '10 12 9 9', closed: false });
    again.store.close();
    const later = open(first.dataDir, new ManualClock(T0 + 5 * MIN));
    // Down past the minute's end: reads already see it closed, and closeEnded moves it over.
    expect(later.store.candles.open('BTC_PERP', '1m')).toBeUndefined();
    expect(later.store.candles.closed('BTC_PERP', '1m', 5).map(show)).toEqual([{ at: 0, len: 1, ohlc: '10 12 9 9', volume: null, minutes: 1, closed: true }]);
    expect(later.store.candles.closeEnded(T0 + 5 * MIN)).toBe(1);
    expect(later.store.candles.closed('BTC_PERP', '1m', 5).map(show)).toEqual([{ at: 0, len: 1, ohlc: '10 12 9 9', volume: null, minutes: 1, closed: true }]);
    later.store.close();
  });

  it('the recorder folds every poll of the futures listing, not only the first of the minute', async () => {
    const { store, clock } = open(undefined, new ManualClock(T0 + 1_000));
    let price = '100';
    const listing = (): FuturesMarket[] => {
      const p = dec(price);
      return [{ tickerId: 'BTC_PERP', base: 'BTC', quote: 'USDT', lastPrice: p, baseVolume: p, quoteVolume: p, bid: p, ask: p, high: p, low: p, productType: 'Futures' }];
    };
    const gw = recordingPrices({ markets: async () => listing(), balances: async () => new Map() }, store, clock, silentLogger());
    for (const [p, step] of [['100', 5_000], ['103.5', 5_000], ['98.25', 5_000], ['101', 50_000], ['99', 0]] as const) {
      price = p;
      await gw.markets();
      clock.advance(step);
    }
    expect(store.candles.closed('BTC_PERP', '1m', 5).map(show)).toEqual([{ at: 0, len: 1, ohlc: '100 103.5 98.25 101', volume: null, minutes: 1, closed: true }]);
    expect(show(store.candles.open('BTC_PERP', '1m'))).toMatchObject({ at: 1, ohlc: '99 99 99 99' });
    expect([...store.prices.range()].map((s) => s.price.toFixed())).toEqual(['100', '99']);
    store.close();
  });
});

describe('longer timeframes aggregated from one-minute candles', () => {
  // Minutes 0-2 and 5-9 of the first hour (3 and 4 missing, 10-59 missing), 60-61, and day 2's minute 0.
  const minutes = [
    minute(0, '10 11 9 10.5', '1.5'),
    minute(1, '10.5 12 10 11', '2'),
    minute(2, '11 11.25 8.75 9', '0.25'),
    ...[5, 6, 7, 8, 9].map((m) => minute(m, `${m} ${m + 1} ${m - 1} ${m}`, m === 7 ? null : '1')),
    minute(60, '20 21 19 20'),
    minute(61, '20 22 20 21'),
    minute(1440, '30 30 30 30'),
  ];

  function seeded(nowMin: number): Store {
    const { store } = open(undefined, new ManualClock(T0 + nowMin * MIN));
    expect(store.tx(() => store.candles.upsert(minutes))).toEqual({ added: 11, changed: 0, unchanged: 0 });
    return store;
  }

  it('5m buckets are built from the minutes that exist, count them, and skip a bucket with none', () => {
    const store = seeded(2 * 1440);
    expect(store.candles.closed('BTC_PERP', '5m', 10).map(show)).toEqual([
      { at: 0, len: 5, ohlc: '10 12 8.75 9', volume: '3.75', minutes: 3, closed: true },
      { at: 5, len: 5, ohlc: '5 10 4 9', volume: null, minutes: 5, closed: true },
      { at: 60, len: 5, ohlc: '20 22 19 21', volume: '2', minutes: 2, closed: true },
      { at: 1440, len: 5, ohlc: '30 30 30 30', volume: '1', minutes: 1, closed: true },
    ]);
    expect(store.candles.closed('BTC_PERP', '5m', 2).map((c) => (c.openMs - T0) / MIN)).toEqual([60, 1440]);
    expect(store.candles.closed('BTC_PERP', '5m', 10, T0 + 10 * MIN).map((c) => (c.openMs - T0) / MIN)).toEqual([0, 5]);
    expect(store.candles.closed('BTC_PERP', '5m', 10, T0 + 9 * MIN).map((c) => (c.openMs - T0) / MIN)).toEqual([0]);
    store.close();
  });

  it('1h, 4h and 1d buckets, and the open bucket still being built', () => {
    const store = seeded(62);
    store.candles.fold('BTC_PERP', T0 + 62 * MIN + 10_000, dec('25'));
    expect(store.candles.closed('BTC_PERP', '1h', 200).map(show)).toEqual([{ at: 0, len: 60, ohlc: '10 12 4 9', volume: null, minutes: 8, closed: true }]);
    expect(show(store.candles.open('BTC_PERP', '1h'))).toEqual({ at: 60, len: 60, ohlc: '20 25 19 25', volume: null, minutes: 3, closed: false });
    expect(store.candles.closed('BTC_PERP', '4h', 10)).toEqual([]);
    expect(show(store.candles.open('BTC_PERP', '4h'))).toMatchObject({ at: 0, ohlc: '10 25 4 25', minutes: 11 });
    store.close();
    const days = seeded(3 * 1440);
    expect(days.candles.closed('BTC_PERP', '1d', 10).map(show)).toEqual([
      { at: 0, len: 1440, ohlc: '10 22 4 21', volume: null, minutes: 10, closed: true },
      { at: 1440, len: 1440, ohlc: '30 30 30 30', volume: '1', minutes: 1, closed: true },
    ]);
    expect(days.candles.open('BTC_PERP', '1d')).toBeUndefined();
    expect(days.candles.closed('ETH_PERP', '1d', 10)).toEqual([]);
    days.close();
  });

  it('compares stored prices exactly without Decimal: integer length, then digits', () => {
    const pairs: Array<[string, string, number]> = [
      ['9.99', '10', -1], ['10.5', '10.49', 1], ['0.0001', '0.001', -1], ['42000.100000000000000001', '42000.1', 1], ['7', '7', 0], ['100', '99.999', 1],
    ];
    expect(pairs.map(([a, b]) => Math.sign(comparePrices(a, b)))).toEqual(pairs.map(([, , want]) => want));
    expect(pairs.map(([a, b]) => Math.sign(comparePrices(b, a)))).toEqual(pairs.map(([, , want]) => -want || 0));
  });

  it('prunes minutes older than the retention', () => {
    const store = seeded(2 * 1440);
    expect(store.candles.prune(T0 + 60 * MIN)).toBe(8);
    expect(store.candles.closed('BTC_PERP', '1h', 10).map((c) => (c.openMs - T0) / MIN)).toEqual([60, 1440]);
    store.close();
  });
});
