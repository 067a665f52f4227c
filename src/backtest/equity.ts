/**
 * The account's value at one instant, read from the simulator's own state (the truth, not the
 * bot's view) and valued by the daemon's one equity rule (src/engine/equity.ts `equityOf`,
 * docs/equity.md): available balances, what open orders hold (the simulator's locked amounts),
 * open positions at margin plus unrealised PnL at the market price, and active flex investments.
 * The parts, the valuation of each and the prices are the daemon's; only the source differs.
 */
import { Decimal, ZERO } from '../core/decimal.js';
import { equityOf, positionValue, type Equity, type EquityInputs } from '../engine/equity.js';
import type { Account } from '../simulator/account.js';
import type { Venue } from '../simulator/venue.js';

/** The equity rule's inputs from the simulator's state of `account`. */
export function truthInputs(venue: Venue, account: Account, equityAsset: string): EquityInputs {
  const flex: Record<string, Decimal> = {};
  for (const f of account.flex) if (f.status === 'ACTIVE') flex[f.currency] = (flex[f.currency] ?? ZERO).plus(f.amount);
  const positions = [...account.positions.values()].map((p) => ({
    market: p.market,
    positionSide: p.positionSide,
    amount: p.amount,
    cost: p.cost,
    margin: p.margin,
    settleAsset: venue.markets.get(p.market)?.money ?? equityAsset,
  }));
  return {
    equityAsset,
    balances: Object.fromEntries(account.balances),
    held: Object.fromEntries(account.locked),
    positions,
    flex,
    prices: Object.fromEntries([...venue.markets.values()].map((m) => [m.name, m.price])),
  };
}

/** The account's equity with its parts, by the daemon's rule. */
export function accountEquityParts(venue: Venue, account: Account, equityAsset: string): Equity {
  return equityOf(truthInputs(venue, account, equityAsset));
}

const ONE = new Decimal(1);

/**
 * The total of `accountEquityParts`, taken from the simulator's maps as they stand (the run loop
 * asks at every price step): the same products and sums in the same order as `equityOf`, without
 * building its inputs and parts. An amount without a price counts nothing there and here.
 */
export function accountEquity(venue: Venue, account: Account, equityAsset: string): Decimal {
  const priceOf = (market: string): Decimal | undefined => venue.markets.get(market)?.price;
  const value = (asset: string, amount: Decimal): Decimal => {
    if (amount.isZero()) return ZERO;
    const price = asset === equityAsset ? ONE : priceOf(`${asset}_${equityAsset}`);
    return price === undefined ? ZERO : amount.mul(price);
  };
  const sum = (amounts: ReadonlyMap<string, Decimal>): Decimal => {
    let total = ZERO;
    for (const asset of [...amounts.keys()].sort()) total = total.plus(value(asset, amounts.get(asset) as Decimal));
    return total;
  };
  let positions = ZERO;
  for (const p of account.positions.values()) {
    positions = positions.plus(value(venue.markets.get(p.market)?.money ?? equityAsset, positionValue(p, priceOf(p.market))));
  }
  const flex = new Map<string, Decimal>();
  for (const f of account.flex) if (f.status === 'ACTIVE') flex.set(f.currency, (flex.get(f.currency) ?? ZERO).plus(f.amount));
  return sum(account.balances).plus(sum(account.locked)).plus(positions).plus(sum(flex));
}
