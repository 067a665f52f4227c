/**
 * A simulator market whose price path is a price CSV instead of the random walk. The venue calls
 * `advance()` once per step (src/simulator/venue.ts); step k ends at `startMs + k·stepMs`, and the
 * step takes the last CSV price at or before that time and the sum of the rows' volumes since the
 * previous step. A step with no row keeps the price and fills nothing (no trade happened).
 */
import { Decimal } from '../core/decimal.js';
import { Market } from '../simulator/market.js';
import type { MarketOptions } from '../simulator/options.js';
import type { PriceSpan } from '../simulator/types.js';
import { matchSpan, stepVolume, type FillModel } from './fill-model.js';
import type { PriceRow } from './price-csv.js';

export interface CsvPath {
  rows: readonly PriceRow[];
  startMs: number;
  stepMs: number;
  model: FillModel;
}

export class CsvMarket extends Market {
  private index = 0;
  private stepNo = 0;

  constructor(
    opts: MarketOptions,
    seed: number,
    private readonly path: CsvPath,
  ) {
    super(opts, seed);
    const { rows, startMs } = path;
    while (this.index < rows.length && (rows[this.index] as PriceRow).timeMs <= startMs) this.index++;
    this.setPrice((rows[Math.max(0, this.index - 1)] as PriceRow).price);
    this.resetDay();
    this.volumeLeft = new Decimal(0);
  }

  override advance(): PriceSpan {
    this.stepNo++;
    const endMs = this.path.startMs + this.stepNo * this.path.stepMs;
    const { rows, model } = this.path;
    let moved = false;
    let traded: Decimal | null = null;
    for (; this.index < rows.length && (rows[this.index] as PriceRow).timeMs <= endMs; this.index++) {
      const row = rows[this.index] as PriceRow;
      this.setPrice(row.price);
      moved = true;
      if (row.volume !== null) traded = (traded ?? new Decimal(0)).plus(row.volume);
    }
    this.volumeLeft = moved ? stepVolume(traded, model, this.step) : new Decimal(0);
    return matchSpan(this.price, this.tick, model.touch);
  }

  /** Several steps at once, step by step: the CSV already holds every price on the way. */
  override jump(steps: number): PriceSpan {
    let low = this.price;
    let high = this.price;
    let volume = new Decimal(0);
    for (let i = 0; i < steps; i++) {
      const span = this.advance();
      low = Decimal.min(low, span.low);
      high = Decimal.max(high, span.high);
      volume = volume.plus(this.volumeLeft);
    }
    this.volumeLeft = volume;
    return { low, high, jumped: true };
  }

  override endJump(): void {
    // The jump's volume was the sum of its steps; nothing is left over for the next step.
    this.volumeLeft = new Decimal(0);
  }
}
