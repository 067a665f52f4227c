/**
 * A simulator market whose price path is a price CSV instead of the random walk. The venue calls
 * `advance()` once per step (src/simulator/venue.ts); step k ends at `startMs + k·stepMs`, and the
 * step takes the last CSV price at or before that time and the sum of the rows' volumes since the
 * previous step. A step with no row keeps the price and fills nothing (no trade happened). A
 * candle row (OHLCV) is matched along its intrabar path (intrabar.ts). Rows are pulled from the
 * file as the steps reach them (load-prices.ts): the market holds only the next one.
 */
import { Decimal } from '../core/decimal.js';
import { Market } from '../simulator/market.js';
import type { MarketOptions } from '../simulator/options.js';
import type { PriceSpan } from '../simulator/types.js';
import { matchSpan, stepVolume, type FillModel } from './fill-model.js';
import { candleLegs, type Leg } from './intrabar.js';
import type { PriceRow } from './price-csv.js';

export interface CsvPath {
  rows: Iterable<PriceRow>;
  startMs: number;
  stepMs: number;
  model: FillModel;
}

export class CsvMarket extends Market {
  private readonly rows: Iterator<PriceRow>;
  private next: PriceRow | undefined;
  private stepNo = 0;
  /** The current step's legs when it held candles. */
  private legs: Leg[] = [];

  constructor(
    opts: MarketOptions,
    seed: number,
    private readonly path: CsvPath,
  ) {
    super(opts, seed);
    this.rows = path.rows[Symbol.iterator]();
    this.pull();
    let start: PriceRow | undefined;
    while (this.next !== undefined && this.next.timeMs <= path.startMs) start = this.take();
    this.setPrice((start ?? this.next ?? { price: this.price }).price);
    this.resetDay();
    this.volumeLeft = new Decimal(0);
  }

  private pull(): void {
    const r = this.rows.next();
    this.next = r.done === true ? undefined : r.value;
  }

  private take(): PriceRow {
    const row = this.next as PriceRow;
    this.pull();
    return row;
  }

  override advance(): PriceSpan {
    this.stepNo++;
    const endMs = this.path.startMs + this.stepNo * this.path.stepMs;
    const { model } = this.path;
    let moved = false;
    let traded: Decimal | null = null;
    this.legs = [];
    while (this.next !== undefined && this.next.timeMs <= endMs) {
      const row = this.take();
      if (row.candle !== undefined) this.legs.push(...candleLegs(row.candle, row.price, this.tick, model.touch));
      this.setPrice(row.price);
      moved = true;
      if (row.volume !== null) traded = traded === null ? row.volume : traded.plus(row.volume);
    }
    this.volumeLeft = moved ? stepVolume(traded, model, this.step) : new Decimal(0);
    return matchSpan(this.price, this.tick, model.touch);
  }

  /** Closes the file the rows come from (a run may end before the file does). */
  close(): void {
    this.rows.return?.();
  }

  override pathOf(span: PriceSpan): readonly PriceSpan[] {
    return this.legs.length === 0 ? [span] : this.legs;
  }

  override enterLeg(leg: PriceSpan): void {
    // A stop triggered on this leg takes at the leg's price, not at the candle's close.
    if ('at' in leg) this.setPrice((leg as Leg).at);
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
