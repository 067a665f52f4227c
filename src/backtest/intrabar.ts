/**
 * A candle replayed as a path (as NautilusTrader's bar execution does): open, then the nearer of
 * the high and the low, then the other, then the close. Resting orders and stop / take-profit legs
 * are matched leg by leg along it, so two levels inside one candle resolve in a defined order. The
 * nearer extreme is the one closer to the open; at equal distance the low comes first (a stop
 * below a long is then hit before a take-profit above it: the cautious reading).
 *
 * What the path cannot know: the real order of the high and the low inside the candle, whether
 * the price crossed a level more than once, and how much traded at each price (the candle's
 * volume caps the fills of the whole candle, docs/backtesting.md).
 */
import type { Decimal } from '../core/decimal.js';
import { nearEnds, shortDouble, type NearSpan } from '../simulator/near.js';
import type { PriceSpan } from '../simulator/types.js';
import type { FillModel } from './fill-model.js';
import type { Candle } from './price-csv.js';

/** The four points of a candle's path. */
export function candlePath(c: Candle, close: Decimal): [Decimal, Decimal, Decimal, Decimal] {
  const highFirst = c.high.minus(c.open).lt(c.open.minus(c.low));
  return highFirst ? [c.open, c.high, c.low, close] : [c.open, c.low, c.high, close];
}

/**
 * The span of a move from `a` to `b` for matching: a buy is reached when its limit ≥ low, a sell
 * when ≤ high; `through` moves both ends by one tick (strictly through, on the tick grid).
 */
export function legSpan(a: Decimal, b: Decimal, tick: Decimal, touch: FillModel['touch']): PriceSpan {
  // The ends themselves, not copies (Decimal.min/max build a new Decimal): Decimals are immutable.
  const ordered = a.lte(b);
  const low = ordered ? a : b;
  const high = ordered ? b : a;
  return touch === 'at' ? { low, high, jumped: false } : { low: low.plus(tick), high: high.minus(tick), jumped: false };
}

/**
 * One move of the path: its span, the price it ends at (the market's price while it is matched)
 * and its span's ends as doubles (near.ts; undefined when an end has none).
 */
export interface Leg extends PriceSpan {
  readonly at: Decimal;
  readonly near: NearSpan | undefined;
}

/**
 * A leg from `from` to `at` whose exact span (a comparison and, under `through`, two decimal sums)
 * is worked out when first read: the venue matches only the legs that reach a resting order or an
 * OCO leg, told from `near` where the doubles can (Venue.walkStep), and most legs reach none.
 */
class PathLeg implements Leg {
  readonly jumped = false;
  private span: PriceSpan | undefined;

  constructor(
    private readonly from: Decimal,
    readonly at: Decimal,
    private readonly tick: Decimal,
    private readonly touch: FillModel['touch'],
    readonly near: NearSpan | undefined,
  ) {}

  get low(): Decimal {
    return this.exact().low;
  }

  get high(): Decimal {
    return this.exact().high;
  }

  private exact(): PriceSpan {
    this.span ??= legSpan(this.from, this.at, this.tick, this.touch);
    return this.span;
  }
}

/**
 * The legs of one candle: the open itself, then each move along the path. `tickNear` is the
 * tick's double (shortDouble), which the caller may have at hand.
 */
export function candleLegs(c: Candle, close: Decimal, tick: Decimal, touch: FillModel['touch'], tickNear = shortDouble(tick)): Leg[] {
  const points = candlePath(c, close);
  const doubles = points.map(shortDouble);
  const shift = touch === 'at' ? 0 : tickNear;
  const leg = (i: number, j: number): Leg => {
    const a = doubles[i];
    const b = doubles[j];
    // Rounding to the nearest double keeps the order: the lower end's double is the lower double.
    const near = a === undefined || b === undefined ? undefined : nearEnds(Math.min(a, b), Math.max(a, b), shift);
    return new PathLeg(points[i] as Decimal, points[j] as Decimal, tick, touch, near);
  };
  return [leg(0, 0), leg(0, 1), leg(1, 2), leg(2, 3)];
}
