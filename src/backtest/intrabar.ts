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

/** One move of the path: its span and the price it ends at (the market's price while it is matched). */
export type Leg = PriceSpan & { at: Decimal };

/** The legs of one candle: the open itself, then each move along the path. */
export function candleLegs(c: Candle, close: Decimal, tick: Decimal, touch: FillModel['touch']): Leg[] {
  const [p0, p1, p2, p3] = candlePath(c, close);
  const leg = (a: Decimal, b: Decimal): Leg => {
    // Built field by field: spreading the span into a new object cost more than the span itself.
    const { low, high, jumped } = legSpan(a, b, tick, touch);
    return { low, high, jumped, at: b };
  };
  return [leg(p0, p0), leg(p0, p1), leg(p1, p2), leg(p2, p3)];
}
