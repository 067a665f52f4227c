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
  const ms = cell.length === 20 ? secondsOfDay(cell) : new Date(cell).getTime();
  return Number.isNaN(ms) ? undefined : ms;
}

/** The last day read (`YYYY-MM-DD`) and its midnight, ms: a file's rows share a day for hours. */
let lastDay = '';
let lastDayMs = Number.NaN;

/**
 * `YYYY-MM-DDTHH:MM:SSZ` as `new Date(cell)` reads it: the day's midnight by the same parser (read
 * once per day), plus the time of day when it is a plain one (hours < 24, minutes and seconds < 60);
 * any other time (24:00, a leap second) is left to the parser itself.
 */
function secondsOfDay(cell: string): number {
  const h = Number(cell.slice(11, 13));
  const m = Number(cell.slice(14, 16));
  const sec = Number(cell.slice(17, 19));
  if (h > 23 || m > 59 || sec > 59) return new Date(cell).getTime();
  const day = cell.slice(0, 10);
  if (day !== lastDay) {
    lastDay = day;
    lastDayMs = new Date(`${day}T00:00:00Z`).getTime();
  }
  return lastDayMs + ((h * 60 + m) * 60 + sec) * 1000;
}

/*
 * A plain non-negative decimal (a subset of what the full parser takes): digits, then optionally a
 * `.` and more digits, i.e. /^(\d+)(?:\.(\d+))?$/ (PLAIN below).
 */

/** Integer digits without leading zeros and fraction digits without trailing zeros: equal values, equal parts. */
interface Plain {
  int: string;
  frac: string;
}

/** `cell` as a Plain when it matches PLAIN: read by index (regular expressions were most of a year file's check). */
function plain(cell: string | undefined): Plain | undefined {
  if (cell === undefined) return undefined;
  const dot = plainDot(cell);
  if (dot === undefined) return undefined;
  const intEnd = dot === -1 ? cell.length : dot;
  let a = 0;
  while (a < intEnd && cell.charCodeAt(a) === ZERO) a++;
  let b = cell.length;
  if (dot !== -1) while (b > dot + 1 && cell.charCodeAt(b - 1) === ZERO) b--;
  return { int: cell.slice(a, intEnd), frac: dot === -1 ? '' : cell.slice(dot + 1, b) };
}

const ZERO = 48;
const NINE = 57;
const DOT = 46;

/** Where the one `.` of a PLAIN cell is (-1: none), undefined when the cell does not match PLAIN. */
function plainDot(cell: string): number | undefined {
  let dot = -1;
  for (let i = 0; i < cell.length; i++) {
    const c = cell.charCodeAt(i);
    if (c === DOT && dot === -1) dot = i;
    else if (c < ZERO || c > NINE) return undefined;
  }
  // Digits before the dot, and after it when there is one.
  const ok = dot === -1 ? cell.length > 0 : dot > 0 && dot < cell.length - 1;
  return ok ? dot : undefined;
}

/** True when `cell` is a plain non-negative decimal (PLAIN above). */
export function isPlain(cell: string): boolean {
  return plainDot(cell) !== undefined;
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
  return plainCells(text.split(','), cols, defaultMarket);
}

/** plainRow() of a line already split into its cells. */
export function plainCells(cells: string[], cols: ColumnIndex, defaultMarket: string | null): { timeMs: number; market: string } | undefined {
  if (cells.length < cols.count) return undefined;
  const timeMs = parseTime(cells[cols.time] as string);
  if (timeMs === undefined) return undefined;
  if (cols.candle !== undefined ? !candleOk(cells, cols.candle) : positive(cells, cols.price as number) === undefined) return undefined;
  if (cols.volume !== undefined && plain(cells[cols.volume]) === undefined) return undefined;
  const market = cols.market === undefined ? defaultMarket : (cells[cols.market] as string);
  if (market === null || (cols.market !== undefined && !MARKET_RE.test(market))) return undefined;
  return { timeMs, market };
}
