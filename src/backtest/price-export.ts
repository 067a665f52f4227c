/**
 * `npm run prices -- export`: the recorded futures-listing prices (src/daemon/price-recorder.ts)
 * as price CSV (price-csv.ts format). Into a directory: one `<MARKET>.csv` per market
 * (`time,price`); into a file or stdout: one file with a `market` column.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { toWire } from '../core/decimal.js';
import type { PriceSample } from '../store/index.js';

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

/** One CSV with a market column. */
export function singleCsv(samples: Iterable<PriceSample>): string {
  const lines = ['time,market,price'];
  for (const s of samples) lines.push(`${iso(s.timeMs)},${s.market},${toWire(s.price)}`);
  return `${lines.join('\n')}\n`;
}

/** One `<MARKET>.csv` per market into `dir`; returns the files written, sorted. */
export function writeMarketFiles(dir: string, samples: Iterable<PriceSample>): string[] {
  const byMarket = new Map<string, string[]>();
  for (const s of samples) {
    const lines = byMarket.get(s.market) ?? ['time,price'];
    lines.push(`${iso(s.timeMs)},${toWire(s.price)}`);
    byMarket.set(s.market, lines);
  }
  mkdirSync(dir, { recursive: true });
  const files: string[] = [];
  for (const [market, lines] of [...byMarket].sort(([a], [b]) => a.localeCompare(b))) {
    const file = path.join(dir, `${market}.csv`);
    writeFileSync(file, `${lines.join('\n')}\n`);
    files.push(file);
  }
  return files;
}
