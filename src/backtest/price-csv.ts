/**
 * The price CSV (docs/backtesting.md): a header line naming the columns `time`, then `price` or
 * the candle's `open`, `high`, `low`, `close` (OHLCV), optional `volume` and, in a single file
 * holding several markets, `market`; then one row per price or candle.
 * `time` is ISO-8601 in UTC (`2024-01-01T00:00:00Z`, seconds and milliseconds optional) or a Unix
 * integer: 10 digits or fewer are seconds, more are milliseconds. Prices and volumes are decimals
 * (never JS numbers); times strictly increase within a market. A bad cell is a `PriceFileError`
 * naming the file, line, column and what was expected.
 */
import { ConfigError } from '../core/errors.js';
import { Decimal, isDecimalString } from '../core/decimal.js';
import { MARKET_RE } from '../core/market-names.js';
import { parseTime, plainRow, type ColumnIndex } from './price-check.js';
import { plainPriceRow } from './plain-row.js';

export interface PriceRow {
  timeMs: number;
  /** The price, or a candle's close. */
  price: Decimal;
  /** An OHLCV row's open, high and low (its close is `price`); absent for a `time,price` row. */
  candle?: Candle;
  /** Traded base volume of the step, when the file has a `volume` column. */
  volume: Decimal | null;
}

export interface Candle {
  open: Decimal;
  high: Decimal;
  low: Decimal;
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

const COLUMNS = ['time', 'price', 'open', 'high', 'low', 'close', 'volume', 'market'] as const;
const CANDLE = ['open', 'high', 'low', 'close'] as const;
type Column = (typeof COLUMNS)[number];

export { parseTime };

function parseHeader(file: string, line: string): Map<Column, number> {
  const cols = new Map<Column, number>();
  line.split(',').forEach((raw, i) => {
    const name = raw.trim().toLowerCase();
    if (!(COLUMNS as readonly string[]).includes(name)) {
      throw new PriceFileError(file, 1, i + 1, `expected a header of columns time, price (or open, high, low, close), optional volume and market, found "${raw.trim().slice(0, 30)}"`);
    }
    if (cols.has(name as Column)) throw new PriceFileError(file, 1, i + 1, `column ${name} appears twice`);
    cols.set(name as Column, i);
  });
  const candle = CANDLE.some((c) => cols.has(c));
  if (candle && cols.has('price')) throw new PriceFileError(file, 1, (cols.get('price') as number) + 1, 'expected either a price column or open, high, low, close, found both');
  for (const need of candle ? (['time', ...CANDLE] as const) : (['time', 'price'] as const)) {
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
  const candle = c.cols.has('close') ? parseCandle(c) : undefined;
  const price = candle?.close ?? priceCell(c, 'price');
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
  const row = { timeMs, price, volume, market };
  return candle === undefined ? row : { ...row, candle: { open: candle.open, high: candle.high, low: candle.low } };
}

function priceCell(c: Cursor, name: Column): Decimal {
  const p = cell(c, name);
  const price = positiveDecimal(p.value, false);
  if (price === undefined) throw new PriceFileError(c.file, c.line, p.column, `${name}: expected a decimal > 0, found "${p.value.slice(0, 40)}"`);
  return price;
}

/** A candle's four prices; the high and the low must bound the open and the close. */
function parseCandle(c: Cursor): Candle & { close: Decimal } {
  const [open, high, low, close] = CANDLE.map((name) => priceCell(c, name)) as [Decimal, Decimal, Decimal, Decimal];
  const col = (name: Column): number => (c.cols.get(name) as number) + 1;
  if (high.lt(Decimal.max(open, close, low))) throw new PriceFileError(c.file, c.line, col('high'), `high: expected at least the open, close and low, found ${high.toFixed()}`);
  if (low.gt(Decimal.min(open, close))) throw new PriceFileError(c.file, c.line, col('low'), `low: expected at most the open and close, found ${low.toFixed()}`);
  return { open, high, low, close };
}

/** The header's columns as price-check.ts reads them. */
function columnIndex(cols: Map<Column, number>): ColumnIndex {
  const at = (name: Column): number => cols.get(name) as number;
  const index: ColumnIndex = { time: at('time'), count: cols.size };
  if (cols.has('close')) index.candle = { open: at('open'), high: at('high'), low: at('low'), close: at('close') };
  else index.price = at('price');
  if (cols.has('volume')) index.volume = at('volume');
  if (cols.has('market')) index.market = at('market');
  return index;
}

/**
 * Reads one file line by line: `header` first, then `row` for each further line (blank lines are
 * skipped by the caller). Times must increase within each market.
 */
export class PriceCsvParser {
  private cols: Map<Column, number> | undefined;
  private index: ColumnIndex | undefined;
  private readonly lastMs = new Map<string, number>();

  constructor(
    readonly file: string,
    private readonly defaultMarket: string | null,
  ) {}

  header(line: string): void {
    if (line.trim() === '') throw new PriceFileError(this.file, 1, null, 'expected a header line (time,price[,volume] or time,open,high,low,close[,volume]), found an empty line');
    const cols = parseHeader(this.file, line);
    if (!cols.has('market') && this.defaultMarket === null) {
      throw new PriceFileError(this.file, 1, null, 'expected a "market" column (or name the file <MARKET>.csv, e.g. BTC_USDT.csv)');
    }
    this.cols = cols;
  }

  /**
   * Checks the row of line `lineNo` as row() does, without building its decimals when its cells
   * are plainly good (price-check.ts); anything else goes through fullRow(), which refuses it.
   */
  check(text: string, lineNo: number): { market: string; timeMs: number } {
    this.index ??= columnIndex(this.cols as Map<Column, number>);
    const ok = plainRow(text, this.index, this.defaultMarket);
    const last = ok === undefined ? undefined : this.lastMs.get(ok.market);
    if (ok === undefined || (last !== undefined && ok.timeMs <= last)) {
      const { market, row } = this.fullRow(text, lineNo);
      return { market, timeMs: row.timeMs };
    }
    this.lastMs.set(ok.market, ok.timeMs);
    return ok;
  }

  /**
   * The row of line `lineNo` (1-based) and its market. A row whose cells are plainly good
   * (plain-row.ts) and whose time is in order has its decimals built straight from its cells;
   * any other goes through fullRow(), which accepts it or names what is wrong.
   */
  row(text: string, lineNo: number): { market: string; row: PriceRow } {
    this.index ??= columnIndex(this.cols as Map<Column, number>);
    const plain = plainPriceRow(text.split(','), this.index, this.defaultMarket);
    const before = plain === undefined ? undefined : this.lastMs.get(plain.market);
    if (plain === undefined || (before !== undefined && plain.row.timeMs <= before)) return this.fullRow(text, lineNo);
    this.lastMs.set(plain.market, plain.row.timeMs);
    return plain;
  }

  /** row() by the full parser alone: every cell checked with its decimal built, then the time's order. */
  fullRow(text: string, lineNo: number): { market: string; row: PriceRow } {
    const cols = this.cols as Map<Column, number>;
    const { market, row } = this.parse(text, lineNo);
    const last = this.lastMs.get(market);
    if (last !== undefined && row.timeMs <= last) {
      const at = (ms: number): string => new Date(ms).toISOString();
      throw new PriceFileError(this.file, lineNo, (cols.get('time') as number) + 1, `time: expected times to increase within ${market}, found ${at(row.timeMs)} after ${at(last)}`);
    }
    this.lastMs.set(market, row.timeMs);
    return { market, row };
  }

  /** The row of line `lineNo` and its market, its cells checked but not its time's order. */
  parse(text: string, lineNo: number): { market: string; row: PriceRow } {
    const { market: named, ...row } = parseRow({ file: this.file, line: lineNo, cells: text.split(','), cols: this.cols as Map<Column, number> });
    return { market: named ?? (this.defaultMarket as string), row };
  }
}

/**
 * Parses one file's text into rows per market. `defaultMarket` names the market of a file without
 * a `market` column (its file name); null when the file must carry the column.
 */
export function parsePriceCsv(file: string, text: string, defaultMarket: string | null): Map<string, PriceRow[]> {
  const lines = text.split(/\r?\n/);
  const parser = new PriceCsvParser(file, defaultMarket);
  parser.header(lines[0] ?? '');
  const out = new Map<string, PriceRow[]>();
  for (let i = 1; i < lines.length; i++) {
    const text = lines[i] as string;
    if (text.trim() === '') continue;
    const { market, row } = parser.row(text, i + 1);
    const rows = out.get(market) ?? [];
    rows.push(row);
    out.set(market, rows);
  }
  if (out.size === 0) throw new PriceFileError(file, lines.length, null, 'expected at least one price row, found none');
  return out;
}
