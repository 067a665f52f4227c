/**
 * `npm run prices -- import`: loads an OHLCV file (candle-csv.ts) into the store as closed
 * one-minute candles of one market, all or nothing (one transaction: a bad row imports nothing).
 * Re-importing the same rows changes nothing; overlapping rows replace what differs.
 */
import { readFileSync } from 'node:fs';
import type { Store, UpsertCounts } from '../store/index.js';
import { parseCandleCsv } from './candle-csv.js';

const MINUTE_MS = 60_000;

export function importCandles(store: Pick<Store, 'tx' | 'candles'>, file: string, market: string): UpsertCounts {
  const text = readFileSync(file, 'utf8');
  return store.tx(() => {
    const rows = parseCandleCsv(file, text, MINUTE_MS);
    return store.candles.upsert((function* () {
      for (const r of rows) yield { market, ...r };
    })());
  });
}
