/**
 * OHLCV candle files (docs/market-data.md § Importing candles), in either layout:
 *
 * - our CSV: a header `time,open,high,low,close[,volume]` (any order), `time` as in the price CSV
 *   (ISO-8601 UTC or Unix seconds/milliseconds, price-csv.ts); an empty volume cell is "unknown";
 * - the kline CSV exchanges publish in bulk: open time, open, high, low, close, volume, then
 *   columns ignored here (close time, quote volume, trades, ...); with or without a header line.
 *   The open time is Unix milliseconds, or microseconds in newer files (16 digits and more).
 *
 * Rows are yielded as they are read; a bad cell is a `PriceFileError` naming the file, line and
 * column (`file:line:col: field: expected ..., found "..."`). Times strictly increase, and each is
 * the start of a bucket of the file's timeframe.
 */
import { Decimal, isDecimalString } from '../core/decimal.js';
import type { Ohlcv } from '../model/candles.js';
import { PriceFileError, parseTime } from './price-csv.js';

/** One row of a candle file; `volume` is null when the file leaves it empty or has no volume column. */
export type CandleRow = Ohlcv;

const FIELDS = ['time', 'open', 'high', 'low', 'close', 'volume'] as const;
type Field = (typeof FIELDS)[number];
type Layout = { kind: 'ours' | 'kline'; cols: Map<Field, number>; firstRow: number };

/** Kline open times from this value on are microseconds (16 digits), below it milliseconds. */
const MICROS_FROM = 1e15;
const KLINE_COLS = new Map<Field, number>(FIELDS.map((f, i) => [f, i]));
const KLINE_HEADER = /^"?open[ _]?time"?$/i;

function oursHeader(file: string, line: string): Layout {
  const cols = new Map<Field, number>();
  line.split(',').forEach((raw, i) => {
    const name = raw.trim().toLowerCase();
    if (!(FIELDS as readonly string[]).includes(name)) {
      throw new PriceFileError(file, 1, i + 1, `header: expected the columns time, open, high, low, close and optional volume, found "${raw.trim().slice(0, 30)}"`);
    }
    if (cols.has(name as Field)) throw new PriceFileError(file, 1, i + 1, `header: column ${name} appears twice`);
    cols.set(name as Field, i);
  });
  for (const need of FIELDS.slice(0, 5)) {
    if (!cols.has(need)) throw new PriceFileError(file, 1, null, `header: expected a "${need}" column, found "${line.slice(0, 60)}"`);
  }
  return { kind: 'ours', cols, firstRow: 1 };
}

/** Tells the layout from the first line: digits first is a kline row, `open_time` a kline header, else our header. */
function layoutOf(file: string, first: string): Layout {
  const cell = (first.split(',')[0] ?? '').trim();
  if (/^\d+$/.test(cell)) return { kind: 'kline', cols: KLINE_COLS, firstRow: 0 };
  if (KLINE_HEADER.test(cell)) return { kind: 'kline', cols: KLINE_COLS, firstRow: 1 };
  return oursHeader(file, first);
}

interface Cursor {
  file: string;
  line: number;
  cells: string[];
  layout: Layout;
}

function cellOf(c: Cursor, field: Field): { value: string; column: number } | undefined {
  const i = c.layout.cols.get(field);
  if (i === undefined) return undefined;
  const value = c.cells[i];
  if (value === undefined) throw new PriceFileError(c.file, c.line, i + 1, `${field}: expected a value in column ${i + 1}, found ${c.cells.length} columns`);
  return { value: value.trim(), column: i + 1 };
}

function klineTime(value: string): number | undefined {
  if (!/^\d{1,19}$/.test(value)) return undefined;
  const n = Number(value);
  return n >= MICROS_FROM ? Math.floor(n / 1000) : n;
}

function timeOf(c: Cursor): number {
  const t = cellOf(c, 'time') as { value: string; column: number };
  const ms = c.layout.kind === 'kline' ? klineTime(t.value) : parseTime(t.value);
  if (ms === undefined) {
    const expected = c.layout.kind === 'kline' ? 'Unix milliseconds or microseconds' : 'ISO-8601 UTC (2024-01-01T00:00:00Z) or Unix seconds/milliseconds';
    throw new PriceFileError(c.file, c.line, t.column, `time: expected ${expected}, found "${t.value.slice(0, 40)}"`);
  }
  return ms;
}

function priceOf(c: Cursor, field: 'open' | 'high' | 'low' | 'close'): Decimal {
  const { value, column } = cellOf(c, field) as { value: string; column: number };
  const d = isDecimalString(value) ? new Decimal(value) : undefined;
  if (d === undefined || !d.gt(0)) throw new PriceFileError(c.file, c.line, column, `${field}: expected a decimal > 0, found "${value.slice(0, 40)}"`);
  return d;
}

function volumeOf(c: Cursor): Decimal | null {
  const cell = cellOf(c, 'volume');
  if (cell === undefined || (cell.value === '' && c.layout.kind === 'ours')) return null;
  const d = isDecimalString(cell.value) ? new Decimal(cell.value) : undefined;
  if (d === undefined || d.lt(0)) throw new PriceFileError(c.file, c.line, cell.column, `volume: expected a decimal >= 0${c.layout.kind === 'ours' ? ' or nothing' : ''}, found "${cell.value.slice(0, 40)}"`);
  return d;
}

function rowOf(c: Cursor): CandleRow {
  const openMs = timeOf(c);
  const [open, high, low, close] = [priceOf(c, 'open'), priceOf(c, 'high'), priceOf(c, 'low'), priceOf(c, 'close')];
  const col = (f: Field): number => (c.layout.cols.get(f) as number) + 1;
  if (high.lt(Decimal.max(open, close, low))) {
    throw new PriceFileError(c.file, c.line, col('high'), `high: expected at least open, low and close (${Decimal.max(open, close, low).toFixed()}), found "${high.toFixed()}"`);
  }
  if (low.gt(Decimal.min(open, close))) throw new PriceFileError(c.file, c.line, col('low'), `low: expected at most open and close (${Decimal.min(open, close).toFixed()}), found "${low.toFixed()}"`);
  return { openMs, open, high, low, close, volume: volumeOf(c) };
}

/**
 * Parses a candle file's text; `bucketMs` is the length of its timeframe (every time must start
 * a bucket). Yields rows oldest first; throws `PriceFileError` at the first bad cell.
 */
export function* parseCandleCsv(file: string, text: string, bucketMs: number): Generator<CandleRow> {
  const lines = text.split(/\r?\n/);
  if ((lines[0] ?? '').trim() === '') throw new PriceFileError(file, 1, null, 'expected a header line or a kline row, found an empty line');
  const layout = layoutOf(file, lines[0] as string);
  let last: number | undefined;
  let rows = 0;
  for (let i = layout.firstRow; i < lines.length; i++) {
    const line = lines[i] as string;
    if (line.trim() === '') continue;
    const c: Cursor = { file, line: i + 1, cells: line.split(','), layout };
    const row = rowOf(c);
    const column = (layout.cols.get('time') as number) + 1;
    if (row.openMs % bucketMs !== 0) throw new PriceFileError(file, i + 1, column, `time: expected the start of a ${bucketMs / 60_000}-minute candle, found ${new Date(row.openMs).toISOString()}`);
    if (last !== undefined && row.openMs <= last) {
      throw new PriceFileError(file, i + 1, column, `time: expected times to increase, found ${new Date(row.openMs).toISOString()} after ${new Date(last).toISOString()}`);
    }
    last = row.openMs;
    rows += 1;
    yield row;
  }
  if (rows === 0) throw new PriceFileError(file, lines.length, null, 'expected at least one candle row, found none');
}
