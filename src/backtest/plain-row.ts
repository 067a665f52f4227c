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
  return cell !== undefined && isPlain(cell) ? new Decimal(cell) : undefined;
}

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
