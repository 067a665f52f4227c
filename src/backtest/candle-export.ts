/**
 * `npm run prices -- export --candles TIMEFRAME`: the store's closed candles as OHLCV CSV
 * (candle-csv.ts, our layout; an unknown volume is an empty cell). Into a directory: one
 * `<MARKET>.csv` per market, which `npm run prices -- import` reads back; into a file or stdout:
 * one file with a `market` column.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { toWire } from '../core/decimal.js';
import type { Candle, CandlesRepository, Timeframe } from '../store/index.js';

function cells(c: Candle): string {
  return `${toWire(c.open)},${toWire(c.high)},${toWire(c.low)},${toWire(c.close)},${c.volume === null ? '' : toWire(c.volume)}`;
}

/** Closed candles per market whose bucket starts at or after `fromMs` and ends at or before `toMs`. */
export function candlesByMarket(repo: CandlesRepository, timeframe: Timeframe, fromMs = 0, toMs = Number.MAX_SAFE_INTEGER): Map<string, Candle[]> {
  const out = new Map<string, Candle[]>();
  for (const market of repo.markets()) {
    const candles = repo.closed(market, timeframe, Number.MAX_SAFE_INTEGER, toMs).filter((c) => c.openMs >= fromMs);
    if (candles.length > 0) out.set(market, candles);
  }
  return out;
}

/** One CSV with a market column. */
export function singleCandleCsv(byMarket: Map<string, Candle[]>): string {
  const lines = ['time,market,open,high,low,close,volume'];
  for (const [market, candles] of byMarket) for (const c of candles) lines.push(`${new Date(c.openMs).toISOString()},${market},${cells(c)}`);
  return `${lines.join('\n')}\n`;
}

/** One `<MARKET>.csv` per market into `dir`; returns the files written, sorted. */
export function writeCandleFiles(dir: string, byMarket: Map<string, Candle[]>): string[] {
  mkdirSync(dir, { recursive: true });
  const files: string[] = [];
  for (const [market, candles] of byMarket) {
    const lines = ['time,open,high,low,close,volume', ...candles.map((c) => `${new Date(c.openMs).toISOString()},${cells(c)}`)];
    const file = path.join(dir, `${market}.csv`);
    writeFileSync(file, `${lines.join('\n')}\n`);
    files.push(file);
  }
  return files;
}
