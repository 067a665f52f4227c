/**
 * A simulator market whose price path is a price CSV instead of the random walk. The venue calls
 * `advance()` once per step (src/simulator/venue.ts); step k ends at `startMs + k·stepMs`, and the
 * step takes the last CSV price at or before that time and the sum of the rows' volumes since the
 * previous step. A step with no row keeps the price and fills nothing (no trade happened). A
 * candle row (OHLCV) is matched along its intrabar path (intrabar.ts). Rows are pulled from the
 * file as the steps reach them (load-prices.ts): the market holds only the next one.
 *
 * Most steps reach no resting order: the venue then passes the step (Market.canPass) and nothing
 * the matching alone needs is built: not the candle's legs, not the step's span at its close,
 * not its fillable volume (worked out when first read, Market.deferVolume). In a step that does
 * reach one, a leg that reaches none is entered without being matched, its span never built.
 */
import { Decimal } from '../core/decimal.js';
import { Market } from '../simulator/market.js';
import { nearEnds, shortDouble, type NearSpan } from '../simulator/near.js';
import type { MarketOptions } from '../simulator/options.js';
import type { PriceSpan } from '../simulator/types.js';
import { matchSpan, stepVolume, type FillModel } from './fill-model.js';
import { candleLegs, legSpan, type Leg } from './intrabar.js';
import type { Candle, PriceRow } from './price-csv.js';

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
  /** The current step's candles (with their close), oldest first; none for a step of price rows. */
  private candles: Array<{ candle: Candle; close: Decimal }> = [];
  /** Their legs, built when the step is matched. */
  private legs: Leg[] | undefined;
  /** The tick as its double (near.ts), undefined when it has none. */
  private readonly tickNear: number | undefined;

  constructor(
    opts: MarketOptions,
    seed: number,
    private readonly path: CsvPath,
  ) {
    super(opts, seed);
    this.tickNear = shortDouble(this.tick);
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
    const taken: PriceRow[] = [];
    this.candles = [];
    this.legs = undefined;
    while (this.next !== undefined && this.next.timeMs <= endMs) {
      const row = this.take();
      if (row.candle !== undefined) this.candles.push({ candle: row.candle, close: row.price });
      this.setPrice(row.price);
      taken.push(row);
    }
    // The rows' volumes are read (a plain row builds its volume then: plain-row.ts) only when the step's volume is.
    if (taken.length > 0) this.deferVolume(() => stepVolume(tradedOf(taken), model, this.step));
    else this.volumeLeft = new Decimal(0);
    return new CloseSpan(this.price, this.tick, model.touch);
  }

  /** Closes the file the rows come from (a run may end before the file does). */
  close(): void {
    this.rows.return?.();
  }

  override pathOf(span: PriceSpan): readonly PriceSpan[] {
    if (this.candles.length === 0) return [span];
    this.legs ??= this.candles.flatMap((c) => candleLegs(c.candle, c.close, this.tick, this.path.model.touch, this.tickNear));
    return this.legs;
  }

  /** A candle's leg carries its ends as doubles (intrabar.ts); the close's span of a step of price rows has none. */
  override nearLegOf(leg: PriceSpan): NearSpan | undefined {
    return (leg as Partial<Leg>).near;
  }

  override canPass(): boolean {
    return true;
  }

  /** The legs of a candle lie between its low and its high (the legs' spans: intrabar.ts legSpan). */
  override reachOf(span: PriceSpan): PriceSpan {
    const first = this.candles[0];
    if (first === undefined) return span;
    let { low, high } = first.candle;
    // The first candle's ends are the start: only the others are compared with them.
    for (let i = 1; i < this.candles.length; i++) {
      const { candle } = this.candles[i] as { candle: Candle };
      if (candle.low.lt(low)) low = candle.low;
      if (candle.high.gt(high)) high = candle.high;
    }
    return legSpan(low, high, this.tick, this.path.model.touch);
  }

  /**
   * `reachOf(span)` in doubles: the lowest low and highest high are the doubles of the lowest and
   * highest decimals (rounding to the nearest double keeps their order), ordered and moved one
   * tick inside as legSpan does; a step of price rows reaches its close's span (matchSpan).
   */
  override nearReachOf(span: PriceSpan): NearSpan | undefined {
    const shift = this.path.model.touch === 'at' ? 0 : this.tickNear;
    if (this.candles.length === 0) {
      if (!(span instanceof CloseSpan)) return undefined;
      const at = shortDouble(span.price);
      return nearEnds(at, at, shift);
    }
    let low = Number.POSITIVE_INFINITY;
    let high = Number.NEGATIVE_INFINITY;
    for (const { candle } of this.candles) {
      const l = shortDouble(candle.low);
      const h = shortDouble(candle.high);
      if (l === undefined || h === undefined) return undefined;
      low = Math.min(low, l);
      high = Math.max(high, h);
    }
    return nearEnds(Math.min(low, high), Math.max(low, high), shift);
  }

  /**
   * Entering the legs moves the range to each candle's high and low (the range's ends are prices
   * this market held: Market.passThrough); the price is already the last close.
   */
  override passPath(): void {
    for (const { candle } of this.candles) {
      this.passThrough(candle.high);
      this.passThrough(candle.low);
    }
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

/** The sum of the rows' volumes, in their order; null when none has one. */
function tradedOf(rows: readonly PriceRow[]): Decimal | null {
  let traded: Decimal | null = null;
  for (const { volume } of rows) if (volume !== null) traded = traded === null ? volume : traded.plus(volume);
  return traded;
}

/** The span of a step at its closing price (fill-model.ts matchSpan), built when first read: a candle's step reads its legs instead. */
class CloseSpan implements PriceSpan {
  readonly jumped = false;
  private span: PriceSpan | undefined;

  constructor(
    readonly price: Decimal,
    private readonly tick: Decimal,
    private readonly touch: FillModel['touch'],
  ) {}

  get low(): Decimal {
    this.span ??= matchSpan(this.price, this.tick, this.touch);
    return this.span.low;
  }

  get high(): Decimal {
    this.span ??= matchSpan(this.price, this.tick, this.touch);
    return this.span.high;
  }
}
