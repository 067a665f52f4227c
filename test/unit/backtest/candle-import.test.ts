/**
 * Importing OHLCV history: our CSV (ISO, seconds or milliseconds; optional or empty volume) and
 * the exchanges' kline CSV (ms or µs open times, with or without a header) parse to the same
 * exact candles; each kind of bad cell is named by file, line and column; an import into a real
 * store is all or nothing, a re-import changes nothing, an overlapping one replaces what differs.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseCandleCsv } from '../../../src/backtest/candle-csv.js';
import { importCandles } from '../../../src/backtest/candle-import.js';
import { PriceFileError } from '../../../src/backtest/price-csv.js';
import { ManualClock } from '../../../src/core/clock.js';
import { silentLogger } from '../../../src/observability/logger.js';
import { openStore } from '../../../src/store/index.js';
import { tempDir } from '../../support/temp-dir.js';

const T0 = Date.UTC(2024, 0, 1);
const MIN = 60_000;

function rows(text: string): string[] {
  return [...parseCandleCsv('f.csv', text, MIN)].map(
    (r) => `${(r.openMs - T0) / MIN} ${r.open.toFixed()} ${r.high.toFixed()} ${r.low.toFixed()} ${r.close.toFixed()} ${r.volume?.toFixed() ?? '-'}`,
  );
}

function failure(text: string): string {
  try {
    rows(text);
  } catch (err) {
    expect(err).toBeInstanceOf(PriceFileError);
    return (err as Error).message;
  }
  throw new Error('expected a PriceFileError');
}

const EXPECTED = ['0 42000.1 42010.123456789 41990 42005.5 1.25', '1 42005.5 42006 42001 42002 0'];

describe('candle files', () => {
  it('reads our CSV with ISO, second or millisecond times, columns in any order', () => {
    expect(rows('time,open,high,low,close,volume\n2024-01-01T00:00:00Z,42000.1,42010.123456789,41990,42005.5,1.25\n2024-01-01T00:01Z,42005.5,42006,42001,42002,0\n')).toEqual(EXPECTED);
    expect(rows(`close,low,high,open,time\n42005.5,41990,42010.123456789,42000.1,${T0 / 1000}\n42002,42001,42006,42005.5,${T0 + MIN}\n`)).toEqual(
      EXPECTED.map((r) => r.replace(/ \S+$/, ' -')),
    );
    expect(rows('time,open,high,low,close,volume\r\n2024-01-01T00:00:00Z,1,1,1,1,\r\n')).toEqual(['0 1 1 1 1 -']);
  });

  it('reads the kline layout: ms or µs open times, with or without a header, extra columns ignored', () => {
    const tail = ',1704067259999,52500.5,12,0.5,21000,0';
    const ms = `${T0},42000.1,42010.123456789,41990,42005.5,1.25${tail}\n${T0 + MIN},42005.5,42006,42001,42002,0${tail}\n`;
    expect(rows(ms)).toEqual(EXPECTED);
    expect(rows(`open_time,open,high,low,close,volume,close_time,quote_volume,count,taker_buy_volume,taker_buy_quote_volume,ignore\n${ms}`)).toEqual(EXPECTED);
    const micros = `${T0 * 1000},42000.1,42010.123456789,41990,42005.5,1.25${tail}\n${(T0 + MIN) * 1000},42005.5,42006,42001,42002,0${tail}\n`;
    expect(rows(micros)).toEqual(EXPECTED);
  });

  const HEAD = 'time,open,high,low,close,volume\n2024-01-01T00:00:00Z,10,11,9,10,1\n';
  it.each([
    ['a bad time', `${HEAD}yesterday,10,11,9,10,1\n`, 'f.csv:3:1: time: expected ISO-8601 UTC (2024-01-01T00:00:00Z) or Unix seconds/milliseconds, found "yesterday"'],
    ['a bad open', `${HEAD}2024-01-01T00:01:00Z,1e3,11,9,10,1\n`, 'f.csv:3:2: open: expected a decimal > 0, found "1e3"'],
    ['a zero high', `${HEAD}2024-01-01T00:01:00Z,10,0,9,10,1\n`, 'f.csv:3:3: high: expected a decimal > 0, found "0"'],
    ['an empty low', `${HEAD}2024-01-01T00:01:00Z,10,11,,10,1\n`, 'f.csv:3:4: low: expected a decimal > 0, found ""'],
    ['a negative close', `${HEAD}2024-01-01T00:01:00Z,10,11,9,-10,1\n`, 'f.csv:3:5: close: expected a decimal > 0, found "-10"'],
    ['a bad volume', `${HEAD}2024-01-01T00:01:00Z,10,11,9,10,lots\n`, 'f.csv:3:6: volume: expected a decimal >= 0 or nothing, found "lots"'],
    ['a high below the close', `${HEAD}2024-01-01T00:01:00Z,10,11,9,12,1\n`, 'f.csv:3:3: high: expected at least open, low and close (12), found "11"'],
    ['a low above the open', `${HEAD}2024-01-01T00:01:00Z,10,11,10.5,11,1\n`, 'f.csv:3:4: low: expected at most open and close (10), found "10.5"'],
    ['a missing column', `${HEAD}2024-01-01T00:01:00Z,10,11,9,10\n`, 'f.csv:3:6: volume: expected a value in column 6, found 5 columns'],
    ['a time off the minute', `${HEAD}2024-01-01T00:01:30Z,10,11,9,10,1\n`, 'f.csv:3:1: time: expected the start of a 1-minute candle, found 2024-01-01T00:01:30.000Z'],
    ['a time going back', `${HEAD}2024-01-01T00:00:00Z,10,11,9,10,1\n`, 'f.csv:3:1: time: expected times to increase, found 2024-01-01T00:00:00.000Z after 2024-01-01T00:00:00.000Z'],
    ['an unknown header', 'time,open,high,low,close,vol\n', 'f.csv:1:6: header: expected the columns time, open, high, low, close and optional volume, found "vol"'],
    ['a header without close', 'time,open,high,low\n', 'f.csv:1: header: expected a "close" column, found "time,open,high,low"'],
    ['neither layout', 'date,price\n', 'f.csv:1:1: header: expected the columns time, open, high, low, close and optional volume, found "date"'],
    ['no rows', 'time,open,high,low,close\n', 'f.csv:2: expected at least one candle row, found none'],
    ['a kline time that is not an integer', `${T0},1,1,1,1,0\n${T0 + MIN}.5,1,1,1,1,0\n`, 'f.csv:2:1: time: expected Unix milliseconds or microseconds, found "1704067260000.5"'],
    ['a kline row without volume', `${T0},1,1,1,1\n`, 'f.csv:1:6: volume: expected a value in column 6, found 5 columns'],
    ['an empty kline volume', `${T0},1,1,1,1,\n`, 'f.csv:1:6: volume: expected a decimal >= 0, found ""'],
  ])('names %s by line and column', (_what, text, message) => {
    expect(failure(text)).toBe(message);
  });
});

describe('importing into the store', () => {
  it('is all or nothing, idempotent, and an overlap replaces only what differs', () => {
    const clock = new ManualClock(T0 + 10 * MIN);
    const store = openStore({ dataDir: tempDir('v4bot-import-'), clock, logger: silentLogger() });
    const dir = tempDir('v4bot-import-files-');
    const file = (name: string, text: string): string => {
      const p = path.join(dir, name);
      writeFileSync(p, text);
      return p;
    };
    const at = (m: number): string => new Date(T0 + m * MIN).toISOString();
    const first = file('a.csv', `time,open,high,low,close,volume\n${[0, 1, 2].map((m) => `${at(m)},10,11,9,10.${m},1`).join('\n')}\n`);
    expect(importCandles(store, first, 'BTC_USDT')).toEqual({ added: 3, changed: 0, unchanged: 0 });
    expect(importCandles(store, first, 'BTC_USDT')).toEqual({ added: 0, changed: 0, unchanged: 3 });
    const overlap = file('b.csv', `time,open,high,low,close,volume\n${at(1)},10,11,9,10.1,1\n${at(2)},10,12,9,11,2\n${at(3)},11,11,11,11,0\n`);
    expect(importCandles(store, overlap, 'BTC_USDT')).toEqual({ added: 1, changed: 1, unchanged: 1 });
    const bad = file('c.csv', `time,open,high,low,close\n${at(4)},5,5,5,5\n${at(5)},5,5,5,x\n`);
    expect(() => importCandles(store, bad, 'BTC_USDT')).toThrow(`${bad}:3:5: close: expected a decimal > 0, found "x"`);
    const got = store.candles.closed('BTC_USDT', '1m', 10).map((c) => [(c.openMs - T0) / MIN, c.high.toFixed(), c.close.toFixed(), c.volume?.toFixed()]);
    expect(got).toEqual([[0, '11', '10', '1'], [1, '11', '10.1', '1'], [2, '12', '11', '2'], [3, '11', '11', '0']]);
    expect(store.candles.closed('BTC_USDT', '5m', 1).map((c) => [c.open.toFixed(), c.high.toFixed(), c.close.toFixed(), c.volume?.toFixed(), c.minutes])).toEqual([['10', '12', '11', '4', 4]]);
    store.close();
  });
});
