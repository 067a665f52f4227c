/**
 * Collateral positions from the journal's fills, by the venue's position rule (the simulator's
 * src/simulator/positions.ts, docs/equity.md "Collateral positions"), so the equity rule values a
 * position as the venue holds it:
 * - an opening fill holds margin = amount × (price / leverage, rounded up to 18 places) and adds
 *   amount × price to the entry cost;
 * - a reducing fill releases the proportional margin (18 places, down) and cost (18 places, half
 *   even); closing the whole position releases everything;
 * - one-way mode (BOTH) flips with the rest of a larger fill; in hedge mode (LONG / SHORT) the part
 *   of a reducing fill beyond the position is not applied.
 * This is an average-cost book, unlike the FIFO lots of positions.ts (the PnL the operator reads):
 * equity must follow what the venue credits, and the venue credits average-cost PnL.
 */
import { Decimal, ZERO } from '../core/decimal.js';
import type { Side } from '../core/orders.js';
import type { PositionSide } from '../model/venue-orders.js';
import { marginPerUnit } from './order-holds.js';

/** The venue's position side of a collateral order (`BOTH` in one-way mode). */
export type CollateralSide = PositionSide;

/** One collateral fill (a fill of a collateral order or of one of its protective legs). */
export interface CollateralFill {
  market: string;
  positionSide: CollateralSide;
  side: Side;
  amount: Decimal;
  price: Decimal;
}

/** A collateral position as the venue holds it. */
export interface CollateralPosition {
  market: string;
  positionSide: CollateralSide;
  /** Signed base: long > 0, short < 0. */
  amount: Decimal;
  /** Entry cost of the open amount (Σ amount × price, average-cost on reduction), in the settlement asset. */
  cost: Decimal;
  /** Margin held for it, in the settlement asset. */
  margin: Decimal;
}

function reduce(pos: CollateralPosition, closed: Decimal): void {
  const size = pos.amount.abs();
  const whole = closed.eq(size);
  const cost = whole ? pos.cost : pos.cost.mul(closed).div(size).toDecimalPlaces(18, Decimal.ROUND_HALF_EVEN);
  const margin = whole ? pos.margin : pos.margin.mul(closed).div(size).toDecimalPlaces(18, Decimal.ROUND_DOWN);
  pos.cost = pos.cost.minus(cost);
  pos.margin = pos.margin.minus(margin);
  pos.amount = pos.amount.isPos() ? pos.amount.minus(closed) : pos.amount.plus(closed);
}

function open(pos: CollateralPosition, side: Side, amount: Decimal, price: Decimal, leverage: Decimal): void {
  if (!amount.gt(0)) return;
  pos.margin = pos.margin.plus(amount.mul(marginPerUnit(price, leverage)));
  pos.cost = pos.cost.plus(amount.mul(price));
  pos.amount = side === 'buy' ? pos.amount.plus(amount) : pos.amount.minus(amount);
}

function apply(pos: CollateralPosition, f: CollateralFill, leverage: Decimal): void {
  const buying = f.side === 'buy';
  const hedgeReduce = (f.positionSide === 'LONG' && !buying) || (f.positionSide === 'SHORT' && buying);
  const reducing = hedgeReduce || (!pos.amount.isZero() && pos.amount.isNeg() === buying);
  if (!reducing) return open(pos, f.side, f.amount, f.price, leverage);
  const closed = Decimal.min(pos.amount.abs(), f.amount);
  if (closed.gt(0)) reduce(pos, closed);
  if (f.positionSide === 'BOTH') open(pos, f.side, f.amount.minus(closed), f.price, leverage);
}

/**
 * Collateral positions kept current fill by fill (oldest first), one per market and position
 * side. `leverageOf` gives a market's leverage; fills of a market without one are skipped and the
 * market is named in `unruled`.
 */
export class CollateralBook {
  private readonly book = new Map<string, CollateralPosition>();
  private readonly unruledMarkets = new Set<string>();

  constructor(private readonly leverageOf: (market: string) => Decimal | undefined) {}

  apply(f: CollateralFill): void {
    const leverage = this.leverageOf(f.market);
    if (leverage === undefined) {
      this.unruledMarkets.add(f.market);
      return;
    }
    const key = `${f.market}|${f.positionSide}`;
    let pos = this.book.get(key);
    if (pos === undefined) {
      pos = { market: f.market, positionSide: f.positionSide, amount: ZERO, cost: ZERO, margin: ZERO };
      this.book.set(key, pos);
    }
    apply(pos, f, leverage);
  }

  /** Open positions (flat ones left out) as copies, and the markets without a rule. */
  result(): { positions: CollateralPosition[]; unruled: string[] } {
    const positions = [...this.book.values()].filter((p) => !p.amount.isZero() || !p.margin.isZero()).map((p) => ({ ...p }));
    return { positions: positions.sort((a, b) => (a.market + a.positionSide < b.market + b.positionSide ? -1 : 1)), unruled: [...this.unruledMarkets].sort() };
  }
}

/** Folds collateral fills (oldest first) into positions: CollateralBook over all of them. */
export function collateralPositions(
  fills: readonly CollateralFill[],
  leverageOf: (market: string) => Decimal | undefined,
): { positions: CollateralPosition[]; unruled: string[] } {
  const book = new CollateralBook(leverageOf);
  for (const f of fills) book.apply(f);
  return book.result();
}
