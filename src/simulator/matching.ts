/**
 * Matching without a book: one price per market. A limit order that crosses the current price at
 * placement takes at that price (taker, up to the market's taker depth); otherwise it rests
 * (maker) and fills at its own price when a later step's price crosses it, at most the step's
 * remaining volume, in order-id order across accounts. Fill amounts are multiples of the market
 * step and the last fill takes exactly what is left, so an order's fills sum exactly to its amount.
 * Fees are charged in the money currency: deal * rate (maker or taker), exact.
 * After a jump over idle time (see `Venue.catchUp`) an order rests until the lowest (buy) or
 * highest (sell) price of the jumped path reaches it, and the volume is the jump's total.
 */
import { Decimal } from '../core/decimal.js';
import type { Account } from './account.js';
import type { Market } from './market.js';
import { nearSign, type NearSpan } from './near.js';
import { applyPositionFill } from './positions.js';
import type { Deal, PriceSpan, SimOrder } from './types.js';

/** What matching needs from the venue. */
export interface MatchContext {
  nextId(): number;
  nowMs(): number;
  /** Called once when an order reaches FILLED or CANCELLED. */
  onTerminal(account: Account, order: SimOrder): void;
}

/** True when a limit order at `order.price` would take at the market's current price. */
export function crosses(order: Pick<SimOrder, 'side' | 'price'>, price: Decimal): boolean {
  return order.side === 'buy' ? order.price.gte(price) : order.price.lte(price);
}

/** True when a resting limit order was reached somewhere in `span` (a buy by its low, a sell by its high). */
export function reached(order: Pick<SimOrder, 'side' | 'price'>, span: PriceSpan): boolean {
  return order.side === 'buy' ? order.price.gte(span.low) : order.price.lte(span.high);
}

/** `reached(order, span)` told from the span's ends in doubles (near.ts); undefined when they cannot tell. */
export function nearReached(order: Pick<SimOrder, 'side' | 'price'>, near: NearSpan): boolean | undefined {
  // A buy is reached when low ≤ price, a sell when high ≥ price.
  const sign = order.side === 'buy' ? -nearSign(near.low, near.lowErr, order.price) : nearSign(near.high, near.highErr, order.price);
  return sign === 0 ? undefined : sign > 0;
}

/** Executes `amount` of `order` at `price`; updates balances, positions, the order and the deals. */
export function applyFill(
  ctx: MatchContext,
  account: Account,
  market: Market,
  order: SimOrder,
  amount: Decimal,
  price: Decimal,
  role: 1 | 2,
  timeMs: number,
): Deal {
  const last = amount.eq(order.left);
  const dealMoney = amount.mul(price);
  const fee = dealMoney.mul(role === 1 ? market.makerFee : market.takerFee);
  const share = last ? order.locked : amount.mul(order.lockPerUnit);
  if (share.gt(0)) {
    account.release(order.lockAsset, share);
    order.locked = order.locked.minus(share);
  }
  if (order.kind === 'spot') {
    if (order.side === 'buy') {
      account.credit(market.money, dealMoney.plus(fee).neg());
      account.credit(market.stock, amount);
    } else {
      account.credit(market.stock, amount.neg());
      account.credit(market.money, dealMoney.minus(fee));
    }
  } else {
    applyPositionFill(account, market, order.positionSide ?? 'BOTH', order.side, amount, price);
    account.credit(market.money, fee.neg());
  }
  order.left = order.left.minus(amount);
  order.dealStock = order.dealStock.plus(amount);
  order.dealMoney = order.dealMoney.plus(dealMoney);
  order.dealFee = order.dealFee.plus(fee);
  order.mtimeMs = timeMs;
  order.status = order.left.isZero() ? 'FILLED' : 'PARTIALLY_FILLED';
  const deal: Deal = {
    id: ctx.nextId(),
    orderId: order.orderId,
    clientOrderId: order.clientOrderId,
    market: market.name,
    side: order.side,
    role,
    // A deal stays to the end of the run: its amounts as copies, whose digit arrays are cut to
    // size (a computed Decimal's array carries spare room, most of a kept deal's memory).
    amount: new Decimal(amount),
    price: new Decimal(price),
    deal: new Decimal(dealMoney),
    fee: new Decimal(fee),
    feeAsset: market.money,
    timeMs,
  };
  account.deals.push(deal);
  account.changed();
  market.recordTrade(amount, price);
  if (order.status === 'FILLED') ctx.onTerminal(account, order);
  return deal;
}

/** Cancels the unfilled rest of an open order and releases what it held. */
export function cancelRest(ctx: MatchContext, account: Account, order: SimOrder, timeMs: number): void {
  if (order.locked.gt(0)) account.release(order.lockAsset, order.locked);
  order.locked = new Decimal(0);
  order.status = 'CANCELLED';
  order.mtimeMs = timeMs;
  // An OTO's parent is listed inside its OTO record (a plain order is not in the listing).
  if (order.oto !== undefined || order.ocoId !== undefined) account.changed();
  ctx.onTerminal(account, order);
}

/** Taker part at placement: fills up to the taker depth at the current price. */
export function takeAtPlacement(ctx: MatchContext, account: Account, market: Market, order: SimOrder): void {
  if (!crosses(order, market.price)) return;
  const depth = market.takerDepth ?? order.left;
  const amount = Decimal.min(order.left, depth.div(market.step).floor().mul(market.step));
  if (amount.gt(0)) applyFill(ctx, account, market, order, amount, market.price, 2, ctx.nowMs());
}

/**
 * Maker fills of one step or jump for the resting orders of `market` (all accounts, order-id
 * order). `near`, the span's ends as doubles when the market offers them, decides which orders
 * are reached where it can (the span's exact ends, which a candle's leg works out when first
 * read, are then not read).
 */
export function fillResting(ctx: MatchContext, accounts: Iterable<Account>, market: Market, span: PriceSpan, timeMs: number, near?: NearSpan): void {
  if (market.volumeLeft.lte(0)) return;
  // Only the reached orders are sorted: a step usually reaches few of many resting orders.
  const reachedOrders: { account: Account; order: SimOrder }[] = [];
  for (const account of accounts) {
    for (const order of account.openOrdersOn(market.name)) {
      if ((near === undefined ? undefined : nearReached(order, near)) ?? reached(order, span)) reachedOrders.push({ account, order });
    }
  }
  reachedOrders.sort((a, b) => a.order.orderId - b.order.orderId);
  for (const { account, order } of reachedOrders) {
    if (market.volumeLeft.lte(0)) break;
    const amount = Decimal.min(order.left, market.volumeLeft);
    market.volumeLeft = market.volumeLeft.minus(amount);
    applyFill(ctx, account, market, order, amount, order.price, 1, timeMs);
  }
}
