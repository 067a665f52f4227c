/**
 * The run's reading of a price row whose cells are plainly good: the cells are checked as the
 * load's check does (price-check.ts plainCells: plain decimals, a positive price, a candle's high
 * and low bounding its open and close, without building a decimal), then each decimal is built
 * straight from its cell. Any other row is left to the full parser, which accepts it or names
 * what is wrong. So a row passes here only if the full parser accepts it, and as the same row.
 *
 * A candle's open and a row's volume are built when first read: a price step reads neither unless
 * it matches resting orders along the candle's legs (its open) or fills them (its volume), so most
 * rows never build them. The close, high and low are read at every step (the price and the 24 h
 * range) and are built at once.
 */
import { Decimal } from '../core/decimal.js';
import { plainCells, type ColumnIndex } from './price-check.js';
import type { Candle, PriceRow } from './price-csv.js';

/** A candle whose open is built from its cell when first read. */
class PlainCandle implements Candle {
  private built: Decimal | undefined;

  constructor(
    private readonly openCell: string,
    readonly high: Decimal,
    readonly low: Decimal,
  ) {}

  get open(): Decimal {
    this.built ??= new Decimal(this.openCell);
    return this.built;
  }
}

/** A row whose volume is built from its cell when first read (null: the file has no volume column). */
class PlainRow implements PriceRow {
  private built: Decimal | undefined;
  readonly candle?: Candle;

  constructor(
    readonly timeMs: number,
    readonly price: Decimal,
    private readonly volumeCell: string | null,
    candle: Candle | undefined,
  ) {
    if (candle !== undefined) this.candle = candle;
  }

  get volume(): Decimal | null {
    if (this.volumeCell === null) return null;
    this.built ??= new Decimal(this.volumeCell);
    return this.built;
  }
}

/** The row of `cells` and its market when every cell is plainly good; undefined for the full parser (its time's order still to check). */
export function plainPriceRow(cells: string[], cols: ColumnIndex, defaultMarket: string | null): { market: string; row: PriceRow } | undefined {
  const ok = plainCells(cells, cols, defaultMarket);
  if (ok === undefined) return undefined;
  const volume = cols.volume === undefined ? null : (cells[cols.volume] as string);
  const c = cols.candle;
  if (c === undefined) return { market: ok.market, row: new PlainRow(ok.timeMs, new Decimal(cells[cols.price as number] as string), volume, undefined) };
  const candle = new PlainCandle(cells[c.open] as string, new Decimal(cells[c.high] as string), new Decimal(cells[c.low] as string));
  return { market: ok.market, row: new PlainRow(ok.timeMs, new Decimal(cells[c.close] as string), volume, candle) };
}
