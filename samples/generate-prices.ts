/**
 * Rebuilds samples/prices/ (the sample data of README § Backtesting and the tests): three days of
 * synthetic one-minute BTC_USDT OHLCV candles (`time,open,high,low,close,volume`) from a fixed seed. BTC_PERP follows the same file (a spot
 * market and its perpetual share one price path: docs/backtesting.md).
 *
 *   npx tsx samples/generate-prices.ts
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { syntheticCsv } from '../src/backtest/synthetic-prices.js';

const file = fileURLToPath(new URL('./prices/BTC_USDT.csv', import.meta.url));
const csv = syntheticCsv({ startMs: Date.UTC(2024, 0, 1), minutes: 3 * 1440, seed: 20240101, startPrice: '60000', volatility: '0.0008', tick: '0.01', ohlcv: true });
writeFileSync(file, csv);
process.stdout.write(`wrote ${file}\n`);
