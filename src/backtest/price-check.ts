/**
 * The check of a price row without building its decimals: loading a price file checks every row
 * before the run, and the run parses the rows it reaches (price-csv.ts); building five Decimals a
 * row twice was ~6 s of a year's file. A row this check cannot pass plainly (any cell of another
 * shape, a time out of order, a candle whose high or low does not bound it) goes to the full
 * parser, which refuses it with the file, line, column and reason, or accepts it. So a row passes
 * here only if the full parser accepts it too.
 */
import { MARKET_RE } from '../core/market-names.js';

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?Z$/;

/** Unix seconds below this are seconds; from it on, milliseconds (10-digit seconds reach year 2286). */
const MS_FROM = 10_000_000_000;

/** A price file's time cell (docs/backtesting.md): ISO-8601 UTC, or Unix seconds or milliseconds. */
export function parseTime(cell: string): number | undefined {
  if (/^\d{1,16}$/.test(cell)) {
    const n = Number(cell);
    return n < MS_FROM ? n * 1000 : n;
  }
  if (!ISO_UTC.test(cell)) return undefined;
  const ms = new Date(cell).getTime();
  return Number.isNaN(ms) ? undefined : ms;
}

/** A plain non-negative decimal (a subset of what the full parser takes): digits, an optional fraction. */
const PLAIN = /^(\d+)(?:\.(\d+))?$/;

/** Integer digits without leading zeros and fraction digits without trailing zeros: equal values, equal parts. */
interface Plain {
  int: string;
  frac: string;
}

function plain(cell: string | undefined): Plain | undefined {
  const m = cell === undefined ? null : PLAIN.exec(cell);
  if (m === null) return undefined;
  return { int: (m[1] as string).replace(/^0+/, ''), frac: (m[2] ?? '').replace(/0+$/, '') };
}

/** Compares two plain decimals exactly: negative, zero or positive as a <, =, > b. */
export function comparePlain(a: Plain, b: Plain): number {
  if (a.int.length !== b.int.length) return a.int.length - b.int.length;
  if (a.int !== b.int) return a.int < b.int ? -1 : 1;
  if (a.frac === b.frac) return 0;
  // Trailing zeros stripped: the shorter prefix is the smaller fraction.
  return a.frac < b.frac ? -1 : 1;
}

const isZero = (p: Plain): boolean => p.int === '' && p.frac === '';

/** Where a file's columns are (0-based), as its header named them. */
export interface ColumnIndex {
  time: number;
  price?: number;
  candle?: { open: number; high: number; low: number; close: number };
  volume?: number;
  market?: number;
  count: number;
}

/** A positive plain decimal in `cells[i]`, or undefined. */
function positive(cells: string[], i: number): Plain | undefined {
  const p = plain(cells[i]);
  return p === undefined || isZero(p) ? undefined : p;
}

function candleOk(cells: string[], c: NonNullable<ColumnIndex['candle']>): boolean {
  const [open, high, low, close] = [c.open, c.high, c.low, c.close].map((i) => positive(cells, i));
  if (open === undefined || high === undefined || low === undefined || close === undefined) return false;
  const highOk = comparePlain(high, open) >= 0 && comparePlain(high, close) >= 0 && comparePlain(high, low) >= 0;
  return highOk && comparePlain(low, open) <= 0 && comparePlain(low, close) <= 0;
}

/**
 * The row's time and market when every cell is plainly good (the time still to be checked for
 * order by the caller); undefined when the full parser must look at it.
 */
export function plainRow(text: string, cols: ColumnIndex, defaultMarket: string | null): { timeMs: number; market: string } | undefined {
  const cells = text.split(',');
  if (cells.length < cols.count) return undefined;
  const timeMs = parseTime(cells[cols.time] as string);
  if (timeMs === undefined) return undefined;
  if (cols.candle !== undefined ? !candleOk(cells, cols.candle) : positive(cells, cols.price as number) === undefined) return undefined;
  if (cols.volume !== undefined && plain(cells[cols.volume]) === undefined) return undefined;
  const market = cols.market === undefined ? defaultMarket : (cells[cols.market] as string);
  if (market === null || (cols.market !== undefined && !MARKET_RE.test(market))) return undefined;
  return { timeMs, market };
}
