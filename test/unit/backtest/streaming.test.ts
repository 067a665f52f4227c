/**
 * The price input is a stream: loading a candle file keeps a summary per market, not its rows,
 * and a CSV market replaying it holds only the next row. Measured as heap bytes after a forced
 * garbage collection, on one run: after 20 000 candles and after 80 000 the heap is the same to
 * within a small margin, where keeping the rows would add megabytes (the control below keeps
 * them and grows by more than the margin).
 */
import path from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { beforeAll, describe, expect, it } from 'vitest';
import { writeCandles } from '../../../src/backtest/candles-from-prices.js';
import { CsvMarket } from '../../../src/backtest/csv-market.js';
import { loadPrices, type PriceSeries } from '../../../src/backtest/load-prices.js';
import type { PriceRow } from '../../../src/backtest/price-csv.js';
import { dec } from '../../../src/core/decimal.js';
import { tempDir } from '../../support/temp-dir.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const T0 = Date.UTC(2024, 0, 1);
const MIN = 60_000;
const CANDLES = 80_000;
const MARGIN = 1_000_000;
const OPTS = { name: 'BTC_USDT', startPrice: '60000', tick: '0.01', step: '0.000001', minAmount: '0.00001', minTotal: '5', volatility: '0', makerFee: '0', takerFee: '0' };
const MODEL = { touch: 'through' as const, volumeShare: dec('0.1'), volumePerStep: dec('0.5'), makerFee: dec('0'), takerFee: dec('0') };

const dir = tempDir('bt-stream-');
let series: PriceSeries;

function heap(): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

beforeAll(async () => {
  const sample = [...((loadPrices('samples/prices/BTC_USDT.csv').series.get('BTC_USDT') as PriceSeries).rows())];
  await writeCandles(path.join(dir, 'BTC_USDT.csv'), sample, { startMs: T0, candles: CANDLES, tick: '0.01' });
  series = loadPrices(dir).series.get('BTC_USDT') as PriceSeries;
}, 120_000);


describe('streaming price input', () => {
  it('loading summarises the file: first row, last time, smallest interval, count', () => {
    expect(series.count).toBe(CANDLES);
    expect(series.first.timeMs).toBe(T0);
    expect(series.lastMs).toBe(T0 + (CANDLES - 1) * MIN);
    expect(series.minStepMs).toBe(MIN);
    expect(series.first.candle).toBeDefined();
  });

  it('a market replaying 80 000 candles: the heap after all of them is the one after the first 20 000', () => {
    const market = new CsvMarket(OPTS, 1, { rows: series.rows(), startMs: T0, stepMs: MIN, model: MODEL });
    for (let i = 0; i < CANDLES / 4; i++) market.advance();
    const early = heap();
    for (let i = CANDLES / 4; i < CANDLES - 1; i++) market.advance();
    const late = heap();
    expect(market.price.toFixed()).not.toBe(series.first.price.toFixed());
    expect(late - early).toBeLessThan(MARGIN);
    market.close();
  }, 120_000);

  it('control: keeping the rows instead grows the heap by more than the margin', () => {
    const kept: PriceRow[] = [];
    const rows = series.rows();
    for (let i = 0; i < CANDLES / 4; i++) kept.push(rows.next().value as PriceRow);
    const early = heap();
    for (let i = CANDLES / 4; i < CANDLES; i++) kept.push(rows.next().value as PriceRow);
    const late = heap();
    expect(kept).toHaveLength(CANDLES);
    expect(late - early).toBeGreaterThan(MARGIN);
  }, 120_000);
});
