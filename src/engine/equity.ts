/**
 * The one equity rule (docs/equity.md): what the account is worth in the equity asset. Used by the
 * drawdown kill switch (equity-watch.ts), `npm run status`, the dashboard, the notifications and
 * the backtest, so none of them can disagree on what a loss is.
 *
 * Equity = the sum of four parts, each valued in the equity asset:
 * - `balances`: the available main balances;
 * - `held`: what open orders hold at the venue (order-holds.ts): the main balance leaves it out;
 * - `positions`: collateral positions at the mark, margin plus unrealised PnL (collateral-book.ts);
 *   the mark is the market's last price (the venue's single price; no separate mark price);
 * - `flex`: active flex investments.
 * An asset is valued at 1 when it is the equity asset, else at the last price of
 * `<ASSET>_<equityAsset>`; an asset without that price is left out of the total and named in
 * `unvalued`. A position without a price for its market counts its margin only and is named in
 * `unmarked`.
 *
 * Pure: the caller gathers the inputs (the daemon from the venue and the journal, the backtest from
 * the simulator's own state).
 */
import { Decimal, ZERO } from '../core/decimal.js';
import { pairName } from '../model/markets.js';
import type { CollateralPosition } from './collateral-book.js';

/** Amounts per asset. */
export type AssetAmounts = Readonly<Record<string, Decimal>>;

export interface EquityInputs {
  equityAsset: string;
  /** Available main balances. */
  balances: AssetAmounts;
  /** Held by open orders, per asset. */
  held: AssetAmounts;
  /** Open collateral positions, each with the asset its margin and PnL settle in. */
  positions: readonly (CollateralPosition & { settleAsset: string })[];
  /** Active flex investments, per currency. */
  flex: AssetAmounts;
  /** Last price by market name (`BASE_QUOTE`, tickers). */
  prices: Readonly<Record<string, Decimal>>;
}

export type EquityPartName = 'balances' | 'held' | 'positions' | 'flex';
export const EQUITY_PARTS: readonly EquityPartName[] = ['balances', 'held', 'positions', 'flex'];

export interface Equity {
  equityAsset: string;
  total: Decimal;
  /** Each part valued in the equity asset; they sum to `total`. */
  parts: Record<EquityPartName, Decimal>;
  /** Amounts left out for want of a price, per asset (all parts together). */
  unvalued: Record<string, Decimal>;
  /** Positions (`MARKET|SIDE`) without a price for their market, counted at their margin only. */
  unmarked: string[];
}

const ONE = new Decimal(1);


/** The price of one unit of `asset` in the equity asset, or undefined when none is known. */
export function assetPrice(asset: string, equityAsset: string, prices: EquityInputs['prices']): Decimal | undefined {
  if (asset === equityAsset) return ONE;
  return prices[pairName(asset, equityAsset)];
}

/** Margin plus unrealised PnL at `mark` (margin only without a mark), in the position's settlement asset. */
export function positionValue(p: CollateralPosition, mark: Decimal | undefined): Decimal {
  if (mark === undefined || p.amount.isZero()) return p.margin;
  // cost is Σ |amount| × entry: a long paid it, a short received it.
  const signedCost = p.amount.isNeg() ? p.cost.neg() : p.cost;
  return p.margin.plus(p.amount.mul(mark).minus(signedCost));
}

class Valuer {
  readonly unvalued: Record<string, Decimal> = {};
  constructor(private readonly i: EquityInputs) {}

  value(asset: string, amount: Decimal): Decimal {
    if (amount.isZero()) return ZERO;
    const price = assetPrice(asset, this.i.equityAsset, this.i.prices);
    if (price !== undefined) return amount.mul(price);
    this.unvalued[asset] = (this.unvalued[asset] ?? ZERO).plus(amount);
    return ZERO;
  }

  sum(amounts: AssetAmounts): Decimal {
    let total = ZERO;
    for (const asset of Object.keys(amounts).sort()) total = total.plus(this.value(asset, amounts[asset] as Decimal));
    return total;
  }
}

/** Values the account by the one rule. */
export function equityOf(i: EquityInputs): Equity {
  const v = new Valuer(i);
  const unmarked: string[] = [];
  let positions = ZERO;
  for (const p of i.positions) {
    const mark = i.prices[p.market];
    if (mark === undefined && !p.amount.isZero()) unmarked.push(`${p.market}|${p.positionSide}`);
    positions = positions.plus(v.value(p.settleAsset, positionValue(p, mark)));
  }
  const parts = { balances: v.sum(i.balances), held: v.sum(i.held), positions, flex: v.sum(i.flex) };
  const total = parts.balances.plus(parts.held).plus(parts.positions).plus(parts.flex);
  return { equityAsset: i.equityAsset, total, parts, unvalued: v.unvalued, unmarked };
}
