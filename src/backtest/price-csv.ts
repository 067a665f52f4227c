/**
 * The price CSV (docs/backtesting.md): a header line naming the columns `time`, `price`, optional
 * `volume` and, in a single file holding several markets, `market`; then one row per price.
 * `time` is ISO-8601 in UTC (`2024-01-01T00:00:00Z`, seconds and milliseconds optional) or a Unix
 * integer: 10 digits or fewer are seconds, more are milliseconds. Prices and volumes are decimals
 * (never JS numbers); times strictly increase within a market. A bad cell is a `PriceFileError`
 * naming the file, line, column and what was expected.
 */
import { ConfigError } from '../core/errors.js';
import { Decimal, isDecimalString } from '../core/decimal.js';
import { MARKET_RE } from '../core/market-names.js';

export interface PriceRow {
  timeMs: number;
  price: Decimal;
  /** Traded base volume of the step, when the file has a `volume` column. */
  volume: Decimal | null;
}

/** A bad price file: exit code 2 in the CLI, like any other bad input. */
export class PriceFileError extends ConfigError {
  constructor(
    readonly file: string,
    readonly line: number,
    readonly column: number | null,
    detail: string,
  ) {
    super(`${file}:${line}${column === null ? '' : `:${column}`}: ${detail}`);
  }
}

const COLUMNS = ['time', 'price', 'volume', 'market'] as const;
type Column = (typeof COLUMNS)[number];

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?Z$/;

/** Unix seconds below this are seconds; from it on, milliseconds (10-digit seconds reach year 2286). */
const MS_FROM = 10_000_000_000;

export function parseTime(cell: string): number | undefined {
  if (/^\d{1,16}$/.test(cell)) {
    const n = Number(cell);
    return n < MS_FROM ? n * 1000 : n;
  }
  if (!ISO_UTC.test(cell)) return undefined;
  const ms = new Date(cell).getTime();
  return Number.isNaN(ms) ? undefined : ms;
}

function parseHeader(file: string, line: string): Map<Column, number> {
  const cols = new Map<Column, number>();
  line.split(',').forEach((raw, i) => {
    const name = raw.trim().toLowerCase();
    if (!(COLUMNS as readonly string[]).includes(name)) {
      throw new PriceFileError(file, 1, i + 1, `expected a header of columns time, price, optional volume and market, found "${raw.trim().slice(0, 30)}"`);
    }
    if (cols.has(name as Column)) throw new PriceFileError(file, 1, i + 1, `column ${name} appears twice`);
    cols.set(name as Column, i);
  });
  for (const need of ['time', 'price'] as const) {
    if (!cols.has(need)) throw new PriceFileError(file, 1, null, `expected a header with a "${need}" column, found "${line.slice(0, 60)}"`);
  }
  return cols;
}

function positiveDecimal(cell: string, allowZero: boolean): Decimal | undefined {
  if (!isDecimalString(cell) || cell.startsWith('-')) return undefined;
  const d = new Decimal(cell);
  return d.gt(0) || (allowZero && d.isZero()) ? d : undefined;
}

interface Cursor {
  file: string;
  line: number;
  cells: string[];
  cols: Map<Column, number>;
}

function cell(c: Cursor, name: Column): { value: string; column: number } {
  const i = c.cols.get(name) as number;
  const value = c.cells[i];
  if (value === undefined) throw new PriceFileError(c.file, c.line, i + 1, `expected ${c.cols.size} columns, found ${c.cells.length}`);
  return { value: value.trim(), column: i + 1 };
}

function parseRow(c: Cursor): PriceRow & { market: string | null } {
  const t = cell(c, 'time');
  const timeMs = parseTime(t.value);
  if (timeMs === undefined) {
    throw new PriceFileError(c.file, c.line, t.column, `time: expected ISO-8601 UTC (2024-01-01T00:00:00Z) or Unix seconds/milliseconds, found "${t.value.slice(0, 40)}"`);
  }
  const p = cell(c, 'price');
  const price = positiveDecimal(p.value, false);
  if (price === undefined) throw new PriceFileError(c.file, c.line, p.column, `price: expected a decimal > 0, found "${p.value.slice(0, 40)}"`);
  let volume: Decimal | null = null;
  if (c.cols.has('volume')) {
    const v = cell(c, 'volume');
    volume = positiveDecimal(v.value, true) ?? null;
    if (volume === null) throw new PriceFileError(c.file, c.line, v.column, `volume: expected a decimal >= 0, found "${v.value.slice(0, 40)}"`);
  }
  let market: string | null = null;
  if (c.cols.has('market')) {
    const m = cell(c, 'market');
    if (!MARKET_RE.test(m.value)) throw new PriceFileError(c.file, c.line, m.column, `market: expected a market name like BTC_USDT, found "${m.value.slice(0, 40)}"`);
    market = m.value;
  }
  return { timeMs, price, volume, market };
}

/**
 * Parses one file's text into rows per market. `defaultMarket` names the market of a file without
 * a `market` column (its file name); null when the file must carry the column.
 */
export function parsePriceCsv(file: string, text: string, defaultMarket: string | null): Map<string, PriceRow[]> {
  const lines = text.split(/\r?\n/);
  const header = lines[0] ?? '';
  if (header.trim() === '') throw new PriceFileError(file, 1, null, 'expected a header line (time,price[,volume]), found an empty line');
  const cols = parseHeader(file, header);
  if (!cols.has('market') && defaultMarket === null) {
    throw new PriceFileError(file, 1, null, 'expected a "market" column (or name the file <MARKET>.csv, e.g. BTC_USDT.csv)');
  }
  const out = new Map<string, PriceRow[]>();
  for (let i = 1; i < lines.length; i++) {
    const text = lines[i] as string;
    if (text.trim() === '') continue;
    const row = parseRow({ file, line: i + 1, cells: text.split(','), cols });
    const market = row.market ?? (defaultMarket as string);
    const rows = out.get(market) ?? [];
    const last = rows.at(-1);
    if (last !== undefined && row.timeMs <= last.timeMs) {
      throw new PriceFileError(file, i + 1, (cols.get('time') as number) + 1, `time: expected times to increase within ${market}, found ${new Date(row.timeMs).toISOString()} after ${new Date(last.timeMs).toISOString()}`);
    }
    rows.push({ timeMs: row.timeMs, price: row.price, volume: row.volume });
    out.set(market, rows);
  }
  if (out.size === 0) throw new PriceFileError(file, lines.length, null, 'expected at least one price row, found none');
  return out;
}
