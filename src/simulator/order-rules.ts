/**
 * The venue's checks on a limit order request (api-v4 4.3 and 4.4), in the order the venue
 * applies them, and what it holds for an accepted one. They change nothing: a refusal is a
 * thrown error answer.
 */
import { Decimal, isMultipleOf } from '../core/decimal.js';
import type { Account } from './account.js';
import { business, validation } from './errors.js';
import type { Market } from './market.js';
import { crosses } from './matching.js';
import { marginPerUnit } from './positions.js';
import type { PositionSide } from './types.js';
import type { PlaceInput } from './venue.js';

/** Market kind, flag combinations, amount and price steps, minimums, then the protection prices. */
export function checkPlacement(m: Market, input: PlaceInput): void {
  if (input.kind === 'spot' && m.isPerp) throw validation({ market: ['Market is not available'] }, 31);
  if (input.rpi && input.ioc) throw validation({ rpi: ['RPI order cannot be used with IOC.'] }, 37);
  if (input.postOnly && input.ioc) throw validation({ ioc: ['ioc cannot be used together with postOnly.'] }, 37);
  if (!isMultipleOf(input.amount, m.step)) throw validation({ amount: [`Amount must be a multiple of ${m.step.toFixed()}.`] }, 32);
  if (input.amount.lt(m.minAmount)) throw validation({ amount: [`Amount must be greater than or equal to ${m.minAmount.toFixed()}.`] }, 32);
  if (!isMultipleOf(input.price, m.tick)) throw validation({ price: [`Price must be a multiple of ${m.tick.toFixed()}.`] }, 33);
  if (input.amount.mul(input.price).lt(m.minTotal)) {
    throw validation({ total: [`Total (amount * price) is less than ${m.minTotal.toFixed()}`] });
  }
  checkProtection(m, input);
}

/** Stop-loss below a buy's price (above a sell's), take-profit the other way, both on the tick. */
function checkProtection(m: Market, input: PlaceInput): void {
  const errors: Record<string, string[]> = {};
  const { stopLoss, takeProfit } = input;
  const buy = input.side === 'buy';
  if (stopLoss !== undefined) {
    if (!isMultipleOf(stopLoss, m.tick)) throw validation({ stopLoss: [`Price must be a multiple of ${m.tick.toFixed()}.`] }, 33);
    if (buy ? stopLoss.gte(input.price) : stopLoss.lte(input.price)) {
      errors['stopLoss'] = [`Stop loss must be ${buy ? 'lower' : 'higher'} than the order price.`];
    }
  }
  if (takeProfit !== undefined) {
    if (!isMultipleOf(takeProfit, m.tick)) throw validation({ takeProfit: [`Price must be a multiple of ${m.tick.toFixed()}.`] }, 33);
    if (buy ? takeProfit.lte(input.price) : takeProfit.gte(input.price)) {
      errors['takeProfit'] = [`Take profit must be ${buy ? 'higher' : 'lower'} than the order price.`];
    }
  }
  if (Object.keys(errors).length > 0) throw validation(errors);
}

/** The position side of a collateral order (undefined for spot); hedge mode only on a `_PERP` market. */
export function positionSideFor(hedgeMode: boolean, m: Market, input: PlaceInput): PositionSide | undefined {
  if (input.kind === 'spot') return undefined;
  const hedge = hedgeMode && m.isPerp;
  const given = input.positionSide;
  if (!hedge) {
    if (given !== undefined && given !== 'BOTH') throw validation({ positionSide: ['Position side must be BOTH in one-way mode.'] });
    return 'BOTH';
  }
  if (given === 'BOTH') throw validation({ positionSide: ['Position side must be LONG or SHORT in hedge mode.'] });
  // Hedge mode without positionSide: the side opens (buy → LONG, sell → SHORT).
  return given ?? (input.side === 'buy' ? 'LONG' : 'SHORT');
}

/** The checks that depend on the account and the price now: a clientOrderId not in use, a post-only that would rest. */
export function checkAgainstState(account: Account, m: Market, input: PlaceInput): void {
  if (input.clientOrderId !== '' && account.openOrdersOn(m.name).some((o) => o.clientOrderId === input.clientOrderId)) {
    throw validation({ clientOrderId: ['This client order id is already used by the current account.'] }, 36);
  }
  if ((input.postOnly || input.rpi) && crosses(input, m.price)) throw business(13, { postOnly: ['Post only order would be executed immediately.'] });
}

/**
 * What an order holds per unit of amount, at the worst fee: a collateral order its margin plus
 * the fee in money, a spot buy its price plus the fee in money, a spot sell the stock itself.
 */
export function lockFor(m: Market, input: PlaceInput): { lockAsset: string; lockPerUnit: Decimal } {
  const maxFee = Decimal.max(m.makerFee, m.takerFee);
  if (input.kind === 'collateral') return { lockAsset: m.money, lockPerUnit: marginPerUnit(m, input.price).plus(input.price.mul(maxFee)) };
  if (input.side === 'buy') return { lockAsset: m.money, lockPerUnit: input.price.mul(maxFee.plus(1)) };
  return { lockAsset: m.stock, lockPerUnit: new Decimal(1) };
}
