/**
 * Loading `--prices`: a directory of `<MARKET>.csv` files, or one CSV file (with a `market`
 * column, or named `<MARKET>.csv`). Files are read in sorted order and hashed for the result's
 * inputs, so the same files give the same result byte for byte.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { ConfigError } from '../core/errors.js';
import { MARKET_RE } from '../core/market-names.js';
import { parsePriceCsv, PriceFileError, type PriceRow } from './price-csv.js';

export interface PriceSet {
  /** Rows per market, oldest first. */
  series: Map<string, PriceRow[]>;
  /** Each file as given (joined to the directory) and the SHA-256 of its bytes, sorted by name. */
  files: Array<{ file: string; sha256: string }>;
}

function marketOfFile(file: string): string | null {
  const base = path.basename(file, path.extname(file));
  return MARKET_RE.test(base) ? base : null;
}

function filesOf(given: string): string[] {
  let st;
  try {
    st = statSync(given);
  } catch {
    throw new ConfigError(`--prices: expected a CSV file or a directory of <MARKET>.csv files, found nothing at ${given}`);
  }
  if (!st.isDirectory()) return [given];
  const files = readdirSync(given)
    .filter((f) => f.endsWith('.csv'))
    .sort()
    .map((f) => path.join(given, f));
  if (files.length === 0) throw new ConfigError(`--prices: expected <MARKET>.csv files in ${given}, found none`);
  return files;
}

export function loadPrices(given: string): PriceSet {
  const series = new Map<string, PriceRow[]>();
  const files: PriceSet['files'] = [];
  for (const file of filesOf(given)) {
    const bytes = readFileSync(file);
    files.push({ file, sha256: createHash('sha256').update(bytes).digest('hex') });
    for (const [market, rows] of parsePriceCsv(file, bytes.toString('utf8'), marketOfFile(file))) {
      if (series.has(market)) throw new PriceFileError(file, 1, null, `market ${market}: expected its prices in one file only, found them again`);
      series.set(market, rows);
    }
  }
  return { series, files };
}
