/**
 * The in-memory candle windows fold minutes, one at a time, into every timeframe exactly as the
 * store aggregates the same minutes on read (a real SQLite file): same buckets, prices, volumes
 * and minute counts, across gaps, which are never filled. A window keeps its capacity only.
 */
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { dec, toWire } from '../../../src/core/decimal.js';
import { CandleWindows } from '../../../src/engine/candle-windows.js';
import { TIMEFRAMES, TIMEFRAME_MS } from '../../../src/model/candles.js';
import { silentLogger } from '../../../src/observability/logger.js';
import type { MinuteRow } from '../../../src/store/candle-buckets.js';
import { openStore, type Candle, type MinuteCandle } from '../../../src/store/index.js';
import { tempDir } from '../../support/temp-dir.js';

const T0 = Date.UTC(2024, 0, 1);
const MIN = 60_000;

/** A small deterministic generator (xorshift), so the minutes and their gaps are the same every run. */
function rng(seed: number): () => number {
  let x = seed;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return ((x >>> 0) % 1_000_000) / 1_000_000;
  };
}

/** Three days of minutes with gaps of every length (a few minutes, hours, most of a day); some volumes unknown. */
function minutesWithGaps(): MinuteRow[] {
  const r = rng(7);
  const out: MinuteRow[] = [];
  let price = dec('60000');
  for (let m = 0; m < 3 * 1440; m++) {
    const inLongGap = (m >= 700 && m < 1000) || (m >= 1500 && m < 2700);
    if (inLongGap || r() < 0.1) continue;
    const open = price;
    const close = open.plus(dec(String(Math.floor(r() * 2001) - 1000)).div(100));
    const high = (open.gt(close) ? open : close).plus(dec(String(Math.floor(r() * 500))).div(100));
    const low = (open.lt(close) ? open : close).minus(dec(String(Math.floor(r() * 500))).div(100));
    const volume = r() < 0.05 ? null : toWire(dec(String(Math.floor(r() * 10_000))).div(1000));
    out.push({ open_ms: T0 + m * MIN, open: toWire(open), high: toWire(high), low: toWire(low), close: toWire(close), volume });
    price = close;
  }
  return out;
}

function asMinute(r: MinuteRow): MinuteCandle {
  return { market: 'BTC_USDT', openMs: r.open_ms, open: dec(r.open), high: dec(r.high), low: dec(r.low), close: dec(r.close), volume: r.volume === null ? null : dec(r.volume) };
}

function plain(c: Candle): unknown {
  return { ...c, open: c.open.toFixed(), high: c.high.toFixed(), low: c.low.toFixed(), close: c.close.toFixed(), volume: c.volume?.toFixed() ?? null };
}

describe('candle windows', () => {
  it('fold minutes into every timeframe exactly as the store aggregates them, across gaps', () => {
    const minutes = minutesWithGaps();
    const store = openStore({ dataDir: tempDir('v4bot-windows-'), clock: new ManualClock(T0 + 10 * 1440 * MIN), logger: silentLogger() });
    try {
      store.tx(() => store.candles.upsert(minutes.map(asMinute)));
      const windows = new CandleWindows();
      for (const timeframe of TIMEFRAMES) windows.declare({ market: 'BTC_USDT', timeframe, count: 5000 });
      const checkpoints = new Set([T0 + 61 * MIN, T0 + 720 * MIN, T0 + 1440 * MIN, T0 + 2000 * MIN, T0 + 3 * 1440 * MIN]);
      let checked = 0;
      for (const m of minutes) {
        for (const at of [...checkpoints].filter((t) => t <= m.open_ms)) {
          checkpoints.delete(at);
          windows.advance(at);
          for (const tf of TIMEFRAMES) expect(windows.closed('BTC_USDT', tf, 5000).map(plain), `${tf} at ${at}`).toEqual(store.candles.closed('BTC_USDT', tf, 5000, at).map(plain));
          checked++;
        }
        windows.add('BTC_USDT', m);
        windows.advance(m.open_ms + MIN);
      }
      windows.advance(T0 + 3 * 1440 * MIN);
      for (const tf of TIMEFRAMES) {
        const mine = windows.closed('BTC_USDT', tf, 5000);
        expect(mine.map(plain)).toEqual(store.candles.closed('BTC_USDT', tf, 5000, T0 + 3 * 1440 * MIN).map(plain));
        // No bucket inside the long gaps: a gap is never filled.
        expect(mine.some((c) => c.openMs >= T0 + 1560 * MIN && c.closeMs <= T0 + 2700 * MIN)).toBe(false);
      }
      expect(checked).toBe(4);
      // The day with the long gap is one candle of its minutes only.
      const days = windows.closed('BTC_USDT', '1d', 5);
      expect(days.map((d) => d.minutes)).toEqual([minutes.filter((m) => m.open_ms < T0 + 1440 * MIN).length, minutes.filter((m) => m.open_ms >= T0 + 1440 * MIN && m.open_ms < T0 + 2880 * MIN).length, minutes.filter((m) => m.open_ms >= T0 + 2880 * MIN).length]);
    } finally {
      store.close();
    }
  });

  it('closes a bucket when the clock passes its end even when its last minutes are missing; an empty bucket never appears', () => {
    const windows = new CandleWindows();
    windows.declare({ market: 'M_USDT', timeframe: '1h', count: 3 });
    const row = (min: number, p: string): MinuteRow => ({ open_ms: T0 + min * MIN, open: p, high: p, low: p, close: p, volume: null });
    expect(windows.add('M_USDT', row(0, '10'))).toEqual([]);
    expect(windows.add('M_USDT', row(30, '12'))).toEqual([]);
    expect(windows.advance(T0 + 59 * MIN)).toEqual([]);
    const [closed] = windows.advance(T0 + 60 * MIN);
    expect(closed?.candle).toMatchObject({ openMs: T0, closeMs: T0 + 60 * MIN, minutes: 2, closed: true });
    expect(closed?.candle.close.toFixed()).toBe('12');
    // Hours 1 and 2 have no minute: nothing closes, nothing is invented.
    expect(windows.advance(T0 + 180 * MIN)).toEqual([]);
    windows.add('M_USDT', row(185, '13'));
    expect(windows.open('M_USDT', '1h', T0 + 186 * MIN, row(186, '15'))).toMatchObject({ openMs: T0 + 180 * MIN, minutes: 2, closed: false });
    expect(windows.open('M_USDT', '1h', T0 + 186 * MIN, row(186, '15'))?.high.toFixed()).toBe('15');
    expect(windows.advance(T0 + 240 * MIN).map((c) => c.candle.minutes)).toEqual([1]);
    expect(windows.closed('M_USDT', '1h', 3).map((c) => (c.openMs - T0) / MIN)).toEqual([0, 180]);
    expect(windows.open('M_USDT', '1h', T0 + 241 * MIN, undefined)).toBeNull();
    // A minute of a bucket already closed comes too late: it never reopens it.
    expect(windows.add('M_USDT', row(239, '99'))).toEqual([]);
    expect(windows.advance(T0 + 300 * MIN)).toEqual([]);
    expect(windows.closed('M_USDT', '1h', 3).map((c) => c.close.toFixed())).toEqual(['12', '13']);
  });

  it('keeps only its capacity, the largest count declared for it', () => {
    const windows = new CandleWindows();
    windows.declare({ market: 'M_USDT', timeframe: '1m', count: 3 });
    windows.declare({ market: 'M_USDT', timeframe: '1m', count: 5 });
    for (let m = 0; m < 200; m++) {
      windows.add('M_USDT', { open_ms: T0 + m * MIN, open: '1', high: '1', low: '1', close: '1', volume: '1' });
      windows.advance(T0 + (m + 1) * MIN);
    }
    expect(windows.size('M_USDT', '1m')).toBe(5);
    expect(windows.closed('M_USDT', '1m', 100).map((c) => (c.openMs - T0) / MIN)).toEqual([195, 196, 197, 198, 199]);
    expect(windows.specs()).toEqual([{ market: 'M_USDT', timeframe: '1m', count: 5 }]);
    expect(TIMEFRAME_MS['1m']).toBe(MIN);
  });
});
