/**
 * Loading `--prices`: a directory of `<MARKET>.csv` files, or one CSV file (with a `market`
 * column, or named `<MARKET>.csv`). Files are read in sorted order and hashed for the result's
 * inputs, so the same files give the same result byte for byte.
 *
 * Streaming: loading reads each file once, line by line, to check every row (a bad cell fails
 * before the run, named by file, line and column), hash it and learn each market's first row,
 * last time and smallest interval; the rows themselves are read again, line by line, as the run
 * reaches them (`PriceSeries.rows`). Memory does not grow with the file. The check builds no
 * decimals for a row whose cells are plainly good (price-check.ts), so the file's decimals are
 * built once, by the run, and only for the rows it reaches.
 */
import { createHash } from 'node:crypto';
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { ConfigError } from '../core/errors.js';
import { MARKET_RE } from '../core/market-names.js';
import { fileLines } from './line-reader.js';
import { PriceCsvParser, PriceFileError, type PriceRow } from './price-csv.js';
import { SharedRows } from './shared-rows.js';

/** One market's rows in one file, read on demand. */
export class PriceSeries {
  constructor(
    readonly market: string,
    readonly file: string,
    private readonly defaultMarket: string | null,
    /** The first row, the last row's time and the smallest interval between two rows (ms). */
    readonly first: PriceRow,
    readonly lastMs: number,
    readonly minStepMs: number,
    readonly count: number,
  ) {}

  /** Set on a copy for one run: its readers share one reading (shared-rows.ts). */
  private sharing: SharedRows | undefined;

  /** The rows, oldest first, parsed as they are read. */
  rows(): Generator<PriceRow> {
    return this.sharing?.reader() ?? this.read();
  }

  /** A copy of this series whose readers share one reading of the file; seal `rows` once they have all joined. */
  sharedCopy(): { series: PriceSeries; rows: SharedRows } {
    const copy = new PriceSeries(this.market, this.file, this.defaultMarket, this.first, this.lastMs, this.minStepMs, this.count);
    copy.sharing = new SharedRows(() => this.read());
    return { series: copy, rows: copy.sharing };
  }

  /** The rows of this market in the file, each checked as it is parsed. */
  private *read(): Generator<PriceRow> {
    const parser = new PriceCsvParser(this.file, this.defaultMarket);
    for (const { text, lineNo } of fileLines(this.file)) {
      if (lineNo === 1) parser.header(text);
      else if (text.trim() !== '') {
        const { market, row } = parser.row(text, lineNo);
        if (market === this.market) yield row;
      }
    }
  }
}

export interface PriceSet {
  series: Map<string, PriceSeries>;
  /** Each file as given (joined to the directory) and the SHA-256 of its bytes, sorted by name. */
  files: Array<{ file: string; sha256: string }>;
}

function marketOfFile(file: string): string | null {
  const base = path.basename(file, path.extname(file));
  return MARKET_RE.test(base) ? base : null;
}

/** The price files of `given`: the file itself, or a directory's `*.csv` sorted by name (none is an error). */
export function priceFilesOf(given: string): string[] {
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

interface Summary {
  first: PriceRow;
  lastMs: number;
  minStepMs: number;
  count: number;
}

/**
 * One pass over a file: checks every row (price-check.ts: without building its decimals unless
 * it must), hashes the bytes and sums up each market; returns its SHA-256.
 */
function scanFile(file: string, defaultMarket: string | null, out: Map<string, Summary>): string {
  const hash = createHash('sha256');
  const parser = new PriceCsvParser(file, defaultMarket);
  let lines = 1;
  for (const { text, lineNo } of fileLines(file, (chunk) => hash.update(chunk))) {
    lines = lineNo;
    if (lineNo === 1) {
      parser.header(text);
      continue;
    }
    if (text.trim() === '') continue;
    const { market, timeMs } = parser.check(text, lineNo);
    const s = out.get(market);
    if (s === undefined) out.set(market, { first: parser.parse(text, lineNo).row, lastMs: timeMs, minStepMs: Number.POSITIVE_INFINITY, count: 1 });
    else {
      s.minStepMs = Math.min(s.minStepMs, timeMs - s.lastMs);
      s.lastMs = timeMs;
      s.count++;
    }
  }
  if (out.size === 0) throw new PriceFileError(file, Math.max(1, lines), null, 'expected at least one price row, found none');
  return hash.digest('hex');
}

export function loadPrices(given: string): PriceSet {
  const series = new Map<string, PriceSeries>();
  const files: PriceSet['files'] = [];
  for (const file of priceFilesOf(given)) {
    const defaultMarket = marketOfFile(file);
    const markets = new Map<string, Summary>();
    files.push({ file, sha256: scanFile(file, defaultMarket, markets) });
    for (const [market, s] of markets) {
      if (series.has(market)) throw new PriceFileError(file, 1, null, `market ${market}: expected its prices in one file only, found them again`);
      series.set(market, new PriceSeries(market, file, defaultMarket, s.first, s.lastMs, s.minStepMs, s.count));
    }
  }
  return { series, files };
}
