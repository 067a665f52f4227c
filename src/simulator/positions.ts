/**
 * Collateral positions. A fill either opens (adds to) or reduces a position:
 * - opening holds margin = amount * price / leverage (per-unit margin rounded up to 18 places) from
 *   the money balance and adds amount * price to the entry cost;
 * - reducing releases the proportional margin and entry cost (18 places) and realises
 *   PnL = closed * price - released cost (long) or released cost - closed * price (short),
 *   both paid to the money balance. Closing the whole position releases everything exactly.
 * One-way mode (positionSide BOTH): a fill larger than the position flips it. Hedge mode
 * (`_PERP` with hedgeMode): LONG and SHORT are separate; the part of a reducing fill beyond the
 * position is not applied to any position (documented limitation: the venue would refuse it).
 * Not modelled: liquidation, funding payments, mark price (the one market price is used).
 */
import { Decimal } from '../core/decimal.js';
import type { Account } from './account.js';
import type { Market } from './market.js';
import type { Side } from '../core/orders.js';
import type { Position, PositionSide } from './types.js';

/** Margin per unit at `price`, rounded up to 18 places so products stay exact. */
export function marginPerUnit(market: Market, price: Decimal): Decimal {
  return price.div(market.leverage).toDecimalPlaces(18, Decimal.ROUND_UP);
}

/** Applies a collateral fill to the account's position; returns nothing, moves money itself. */
export function applyPositionFill(
  account: Account,
  market: Market,
  positionSide: PositionSide,
  side: Side,
  amount: Decimal,
  price: Decimal,
): void {
  const pos = account.position(market.name, positionSide);
  const signed = side === 'buy' ? amount : amount.neg();
  const hedgeReduce = (positionSide === 'LONG' && side === 'sell') || (positionSide === 'SHORT' && side === 'buy');
  const reducing = hedgeReduce || (!pos.amount.isZero() && pos.amount.isNeg() !== signed.isNeg());
  if (!reducing) return openPosition(account, market, pos, side, amount, price);
  const closed = Decimal.min(pos.amount.abs(), amount);
  if (closed.gt(0)) reducePosition(account, market, pos, closed, price);
  // One-way mode flips with the rest; in hedge mode the rest is not applied (see the header).
  if (positionSide === 'BOTH') openPosition(account, market, pos, side, amount.minus(closed), price);
}

/** Closes `closed` (≤ the position's size) at `price`: releases margin and cost, pays the PnL. */
function reducePosition(account: Account, market: Market, pos: Position, closed: Decimal, price: Decimal): void {
  const size = pos.amount.abs();
  const whole = closed.eq(size);
  const costReleased = whole ? pos.cost : pos.cost.mul(closed).div(size).toDecimalPlaces(18, Decimal.ROUND_HALF_EVEN);
  const marginReleased = whole ? pos.margin : pos.margin.mul(closed).div(size).toDecimalPlaces(18, Decimal.ROUND_DOWN);
  const value = closed.mul(price);
  const pnl = pos.amount.isPos() ? value.minus(costReleased) : costReleased.minus(value);
  pos.cost = pos.cost.minus(costReleased);
  pos.margin = pos.margin.minus(marginReleased);
  pos.amount = pos.amount.isPos() ? pos.amount.minus(closed) : pos.amount.plus(closed);
  pos.realisedPnl = pos.realisedPnl.plus(pnl);
  account.credit(market.money, marginReleased.plus(pnl));
}

/** Opens (adds to) the position by `amount` at `price`, holding its margin from the money balance. */
function openPosition(account: Account, market: Market, pos: Position, side: Side, amount: Decimal, price: Decimal): void {
  if (!amount.gt(0)) return;
  const margin = amount.mul(marginPerUnit(market, price));
  account.credit(market.money, margin.neg());
  pos.margin = pos.margin.plus(margin);
  pos.cost = pos.cost.plus(amount.mul(price));
  pos.amount = side === 'buy' ? pos.amount.plus(amount) : pos.amount.minus(amount);
}
