/**
 * The price CSV loader: accepted time formats, one file per market or one file with a market
 * column, and a bad file as a PriceFileError naming file, line, column and what was expected.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadPrices } from '../../../src/backtest/load-prices.js';
import { parsePriceCsv, parseTime, PriceFileError } from '../../../src/backtest/price-csv.js';
import { ConfigError } from '../../../src/core/errors.js';
import { tempDir } from '../../support/temp-dir.js';

function errorOf(text: string, market: string | null = 'BTC_USDT'): PriceFileError {
  try {
    parsePriceCsv('p.csv', text, market);
  } catch (err) {
    expect(err).toBeInstanceOf(PriceFileError);
    expect(err).toBeInstanceOf(ConfigError);
    return err as PriceFileError;
  }
  throw new Error('expected a PriceFileError');
}

describe('price CSV', () => {
  it('reads ISO-8601 UTC, Unix seconds and Unix milliseconds as the same instant', () => {
    expect(parseTime('2024-01-01T00:00:00Z')).toBe(1_704_067_200_000);
    expect(parseTime('2024-01-01T00:00Z')).toBe(1_704_067_200_000);
    expect(parseTime('1704067200')).toBe(1_704_067_200_000);
    expect(parseTime('1704067200000')).toBe(1_704_067_200_000);
    expect(parseTime('2024-01-01T00:00:00+01:00')).toBeUndefined();
    expect(parseTime('2024-01-01 00:00:00')).toBeUndefined();
  });

  it('parses prices and volumes as exact decimals, columns in any order', () => {
    const rows = parsePriceCsv('p.csv', 'volume,price,time\n0.5,60000.1,1704067200\n1.25,60000.3,1704067260\n', 'BTC_USDT').get('BTC_USDT');
    expect(rows?.map((r) => [r.timeMs, r.price.toFixed(), r.volume?.toFixed()])).toEqual([
      [1_704_067_200_000, '60000.1', '0.5'],
      [1_704_067_260_000, '60000.3', '1.25'],
    ]);
  });

  it('splits a file with a market column by market', () => {
    const m = parsePriceCsv('all.csv', 'time,market,price\n1704067200,BTC_PERP,1\n1704067200,ETH_PERP,2\n1704067260,BTC_PERP,3\n', null);
    expect([...m.keys()]).toEqual(['BTC_PERP', 'ETH_PERP']);
    expect(m.get('BTC_PERP')?.length).toBe(2);
  });

  it('names line, column and expectation for each kind of bad cell', () => {
    expect(errorOf('time,price\n2024-01-01T00:00:00Z,abc\n').message).toBe('p.csv:2:2: price: expected a decimal > 0, found "abc"');
    expect(errorOf('time,price\n2024-01-01T00:00:00Z,1\nyesterday,2\n').message).toMatch(/^p\.csv:3:1: time: expected ISO-8601 UTC/);
    expect(errorOf('time,price,volume\n1704067200,1,-3\n').message).toBe('p.csv:2:3: volume: expected a decimal >= 0, found "-3"');
    expect(errorOf('time,price\n1704067200,0\n').message).toBe('p.csv:2:2: price: expected a decimal > 0, found "0"');
    expect(errorOf('time,price\n1704067260,1\n1704067200,2\n').message).toMatch(/^p\.csv:3:1: time: expected times to increase within BTC_USDT/);
    expect(errorOf('time,price\n1704067200\n').message).toBe('p.csv:2:2: expected 2 columns, found 1');
    expect(errorOf('time,cost\n1,2\n').message).toMatch(/^p\.csv:1:2: expected a header of columns time, price/);
    expect(errorOf('time,volume\n1,2\n').message).toBe('p.csv:1: expected a header with a "price" column, found "time,volume"');
    expect(errorOf('time,price\n1704067200,1\n', null).message).toMatch(/^p\.csv:1: expected a "market" column/);
    expect(errorOf('time,market,price\n1704067200,btc,1\n', null).message).toMatch(/^p\.csv:2:2: market: expected a market name/);
    const e = errorOf('time,price\n\n1704067200,x\n');
    expect([e.file, e.line, e.column]).toEqual(['p.csv', 3, 2]);
  });

  it('loads a directory of <MARKET>.csv files in name order, with the hash of each', () => {
    const dir = tempDir('v4bot-csv-');
    writeFileSync(path.join(dir, 'ETH_USDT.csv'), 'time,price\n1704067200,3000\n1704067260,3001\n');
    writeFileSync(path.join(dir, 'BTC_USDT.csv'), 'time,price\n1704067200,60000\n1704067260,60001\n');
    writeFileSync(path.join(dir, 'notes.txt'), 'ignored');
    const set = loadPrices(dir);
    expect([...set.series.keys()]).toEqual(['BTC_USDT', 'ETH_USDT']);
    expect(set.files.map((f) => path.basename(f.file))).toEqual(['BTC_USDT.csv', 'ETH_USDT.csv']);
    expect(set.files[0]?.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(() => loadPrices(path.join(dir, 'missing'))).toThrow(/--prices: expected a CSV file or a directory/);
  });

  it('refuses a market given twice across files', () => {
    const dir = tempDir('v4bot-csv-');
    writeFileSync(path.join(dir, 'BTC_USDT.csv'), 'time,price\n1704067200,60000\n');
    writeFileSync(path.join(dir, 'all.csv'), 'time,market,price\n1704067200,BTC_USDT,1\n');
    expect(() => loadPrices(dir)).toThrow(/market BTC_USDT: expected its prices in one file only/);
  });

  it('reads OHLCV candles: the close is the price, open, high and low beside it, exact', () => {
    const rows = parsePriceCsv('c.csv', 'time,open,high,low,close,volume\n1704067200,100,101.5,99.25,100.75,3\n', 'BTC_USDT').get('BTC_USDT');
    const r = rows?.[0];
    expect([r?.price.toFixed(), r?.candle?.open.toFixed(), r?.candle?.high.toFixed(), r?.candle?.low.toFixed(), r?.volume?.toFixed()]).toEqual(['100.75', '100', '101.5', '99.25', '3']);
  });

  it('names a bad candle by line and column: a high below the close, a low above the open, a missing column, price beside candles', () => {
    const head = 'time,open,high,low,close\n';
    expect(errorOf(`${head}1704067200,100,101,99,100\n1704067260,100,100.5,99,101\n`).message).toBe('p.csv:3:3: high: expected at least the open, close and low, found 100.5');
    expect(errorOf(`${head}1704067200,100,101,100.5,101\n`).message).toBe('p.csv:2:4: low: expected at most the open and close, found 100.5');
    expect(errorOf(`${head}1704067200,100,101,x,100\n`).message).toBe('p.csv:2:4: low: expected a decimal > 0, found "x"');
    expect(errorOf('time,open,high,close\n1704067200,1,2,1\n').message).toBe('p.csv:1: expected a header with a "low" column, found "time,open,high,close"');
    expect(errorOf('time,price,open,high,low,close\n').message).toBe('p.csv:1:2: expected either a price column or open, high, low, close, found both');
  });

  it('the streamed loader names a bad row by line and column too, before any run', () => {
    const dir = tempDir('prices-');
    writeFileSync(path.join(dir, 'BTC_USDT.csv'), 'time,open,high,low,close\r\n1704067200,100,101,99,100\r\n1704067260,100,101,99,oops\r\n');
    expect(() => loadPrices(dir)).toThrow('BTC_USDT.csv:3:5: close: expected a decimal > 0, found "oops"');
  });
});

