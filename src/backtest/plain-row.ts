/**
 * The run's reading of a price row whose cells are plainly good (price-check.ts): each decimal is
 * built once, straight from its cell, and the full parser's checks (price-csv.ts parseRow: a price
 * above zero, a candle's high and low bounding it) are made on those decimals. Any other row is
 * left to the full parser, which accepts it or names what is wrong. So a row passes here only if
 * the full parser accepts it, and as the same row.
 */
import { Decimal } from '../core/decimal.js';
import { MARKET_RE } from '../core/market-names.js';
import { isPlain, parseTime, type ColumnIndex } from './price-check.js';
import type { Candle, PriceRow } from './price-csv.js';

function plainDecimal(cell: string | undefined): Decimal | undefined {
  return cell !== undefined && isPlain(cell) ? decimalOfPlain(cell) : undefined;
}

/** decimal.js's digit words are base 10^7. */
const WORD_DIGITS = 7;

/**
 * `new Decimal(cell)` for a plain cell (digits, at most one `.` with digits on both sides:
 * isPlain), built from its characters at once: the same sign, exponent and digit words as
 * decimal.js's own reading (parseDecimal), without its passes over copies of the text (the five
 * decimals of a candle row were most of a price step). decimal.js keeps a value as its sign `s`,
 * its base-10 exponent `e` and its significant digits in words of seven (`d`): the first word
 * holds the digits down to the units of a multiple of seven places, each further word seven
 * digits, the last one padded with zeros; no leading or trailing zero word.
 */
export function decimalOfPlain(cell: string): Decimal {
  const n = cell.length;
  let dot = cell.indexOf('.');
  if (dot === -1) dot = n;
  let first = 0;
  while (first < n && (cell.charCodeAt(first) === ZERO_CODE || first === dot)) first++;
  if (first === n) return new Decimal(0);
  let last = n - 1;
  while (cell.charCodeAt(last) === ZERO_CODE || last === dot) last--;
  // The first significant digit's place: units are place 0.
  const e = first < dot ? dot - first - 1 : dot - first;
  // A small whole number takes decimal.js's own shortest path; its exponent and words are then set.
  const x = new Decimal(1) as unknown as { e: number; d: number[] };
  x.e = e;
  x.d = wordsOf(cell, first, last, dot, e);
  return x as unknown as Decimal;
}

/** The digit words of `cell[first..last]` (the `.` at `dot` skipped), whose first digit is at place `e`. */
function wordsOf(cell: string, first: number, last: number, dot: number, e: number): number[] {
  let width = (e + 1) % WORD_DIGITS;
  if (width <= 0) width += WORD_DIGITS;
  const words: number[] = [];
  let word = 0;
  let filled = 0;
  for (let i = first; i <= last; i++) {
    if (i === dot) continue;
    word = word * 10 + (cell.charCodeAt(i) - ZERO_CODE);
    if (++filled === width) {
      words.push(word);
      word = 0;
      filled = 0;
      width = WORD_DIGITS;
    }
  }
  if (filled > 0) {
    for (; filled < width; filled++) word *= 10;
    words.push(word);
  }
  return words;
}

const ZERO_CODE = 48;

function positive(cell: string | undefined): Decimal | undefined {
  const d = plainDecimal(cell);
  return d === undefined || d.isZero() ? undefined : d;
}

/** The candle of the row and its close, when each is positive and the high and the low bound them. */
function candleOf(cells: string[], c: NonNullable<ColumnIndex['candle']>): (Candle & { close: Decimal }) | undefined {
  const [open, high, low, close] = [positive(cells[c.open]), positive(cells[c.high]), positive(cells[c.low]), positive(cells[c.close])];
  if (open === undefined || high === undefined || low === undefined || close === undefined) return undefined;
  if (high.lt(open) || high.lt(close) || high.lt(low) || low.gt(open) || low.gt(close)) return undefined;
  return { open, high, low, close };
}

/** The row of `cells` and its market when every cell is plainly good; undefined for the full parser (its time's order still to check). */
export function plainPriceRow(cells: string[], cols: ColumnIndex, defaultMarket: string | null): { market: string; row: PriceRow } | undefined {
  if (cells.length < cols.count) return undefined;
  const timeMs = parseTime(cells[cols.time] as string);
  if (timeMs === undefined) return undefined;
  const market = cols.market === undefined ? defaultMarket : (cells[cols.market] as string);
  if (market === null || (cols.market !== undefined && !MARKET_RE.test(market))) return undefined;
  const volume = cols.volume === undefined ? null : plainDecimal(cells[cols.volume]);
  if (volume === undefined) return undefined;
  if (cols.candle === undefined) {
    const price = positive(cells[cols.price as number]);
    return price === undefined ? undefined : { market, row: { timeMs, price, volume } };
  }
  const c = candleOf(cells, cols.candle);
  return c === undefined ? undefined : { market, row: { timeMs, price: c.close, volume, candle: { open: c.open, high: c.high, low: c.low } } };
}
