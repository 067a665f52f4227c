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
 * the simulator's own state). The rule is two steps: `planEquity` orders the inputs without the
 * prices (each part's assets sorted, the markets it looks up) and `priceEquity` values that plan at
 * the prices; `equityOf` is both. A caller whose inputs stand still keeps the plan and re-prices it.
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

/** Margin plus unrealised PnL at `mark` (margin only without a mark), in the position's settlement asset. */
export function positionValue(p: CollateralPosition, mark: Decimal | undefined): Decimal {
  return markedValue(p, mark) ?? p.margin;
}

/** `positionValue` when it is margin plus PnL (a mark and an amount), a sum rounded to the precision; else undefined. */
function markedValue(p: CollateralPosition, mark: Decimal | undefined): Decimal | undefined {
  if (mark === undefined || p.amount.isZero()) return undefined;
  // cost is Σ |amount| × entry: a long paid it, a short received it.
  const signedCost = p.amount.isNeg() ? p.cost.neg() : p.cost;
  return p.margin.plus(p.amount.mul(mark).minus(signedCost));
}

/**
 * `a.plus(b)` for two results of decimal.js arithmetic (already rounded to the precision): a zero
 * added to a non-zero value gives that value, which `plus` would copy and round to the same digits.
 * Two zeros go through `plus` for its sign of zero. Saves the rule's additions to an empty sum.
 */
function plusRounded(a: Decimal, b: Decimal): Decimal {
  if (b.isZero()) return a.isZero() ? a.plus(b) : a;
  return a.isZero() ? b : a.plus(b);
}

/** An amount the rule values, with the index of its price in `EquityPlan.markets` (-1: the equity asset, at 1). */
interface PlannedAmount {
  asset: string;
  amount: Decimal;
  price: number;
  /** The equity asset's: its value (the amount times 1), the same at every price. */
  atOne?: Decimal;
}

/** A position the rule values: its settlement asset's price index and its mark's (`markets`). */
interface PlannedPosition {
  position: CollateralPosition;
  settle: { asset: string; price: number };
  mark: number;
  name: string;
}

/**
 * The rule's inputs without the prices, in the order it values them: each part's assets sorted
 * (a zero amount left out: it adds zero), and every market whose price it looks up, once each.
 * A pure function of the inputs, so a caller whose inputs stand still (equity-reader.ts
 * KeptValuation) keeps it and re-prices it alone: what no price moves is worked out here once.
 */
export interface EquityPlan {
  readonly equityAsset: string;
  /** The markets the rule looks up for these inputs, in the order it first looks each up. */
  readonly markets: readonly string[];
  readonly positions: readonly PlannedPosition[];
  readonly balances: readonly PlannedAmount[];
  readonly held: readonly PlannedAmount[];
  readonly flex: readonly PlannedAmount[];
}

/** Plans the rule for inputs without prices (`equityOf` is `priceEquity(planEquity(i), …)`). */
export function planEquity(i: Omit<EquityInputs, 'prices'>): EquityPlan {
  const markets: string[] = [];
  const index = new Map<string, number>();
  const priceOf = (market: string): number => {
    let n = index.get(market);
    if (n === undefined) index.set(market, (n = markets.push(market) - 1));
    return n;
  };
  const of = (asset: string): number => (asset === i.equityAsset ? -1 : priceOf(pairName(asset, i.equityAsset)));
  const positions = i.positions.map((p) => ({
    position: p,
    mark: priceOf(p.market),
    settle: { asset: p.settleAsset, price: of(p.settleAsset) },
    name: `${p.market}|${p.positionSide}`,
  }));
  // A zero amount adds zero (it is never priced nor named unvalued): left out, its market unpriced.
  const part = (amounts: AssetAmounts): PlannedAmount[] => {
    const out: PlannedAmount[] = [];
    for (const asset of Object.keys(amounts).sort()) {
      const amount = amounts[asset] as Decimal;
      if (amount.isZero()) continue;
      const price = of(asset);
      out.push(price < 0 ? { asset, amount, price, atOne: amount.mul(ONE) } : { asset, amount, price });
    }
    return out;
  };
  return { equityAsset: i.equityAsset, markets, positions, balances: part(i.balances), held: part(i.held), flex: part(i.flex) };
}

/** Values planned amounts at `prices` (indexed as the plan's markets), naming those without one. */
class Valuer {
  readonly unvalued: Record<string, Decimal> = {};
  constructor(private readonly prices: readonly (Decimal | undefined)[]) {}

  value(asset: string, price: number, amount: Decimal): Decimal {
    if (amount.isZero()) return ZERO;
    const p = price < 0 ? ONE : this.prices[price];
    if (p !== undefined) return amount.mul(p);
    this.unvalued[asset] = (this.unvalued[asset] ?? ZERO).plus(amount);
    return ZERO;
  }

  sum(amounts: readonly PlannedAmount[]): Decimal {
    let total = ZERO;
    for (const a of amounts) total = plusRounded(total, a.atOne ?? this.value(a.asset, a.price, a.amount));
    return total;
  }
}

/**
 * Values a plan at the last price of each of its markets (`prices[k]` of `plan.markets[k]`,
 * undefined: none known). The same products and sums, in the same order, as `equityOf`; an addition
 * of zero to a sum, or a product by 1 of a sum, is left out where its result is the other operand.
 */
export function priceEquity(plan: EquityPlan, prices: readonly (Decimal | undefined)[]): Equity {
  const v = new Valuer(prices);
  const unmarked: string[] = [];
  let positions = ZERO;
  for (const p of plan.positions) {
    const mark = prices[p.mark];
    if (mark === undefined && !p.position.amount.isZero()) unmarked.push(p.name);
    const marked = markedValue(p.position, mark);
    // Margin plus PnL is already rounded: in the equity asset, times 1 is itself (no `mul`).
    const atOne = marked !== undefined && p.settle.price < 0 && !marked.isZero();
    positions = plusRounded(positions, atOne ? marked : v.value(p.settle.asset, p.settle.price, marked ?? p.position.margin));
  }
  const parts = { balances: v.sum(plan.balances), held: v.sum(plan.held), positions, flex: v.sum(plan.flex) };
  const total = plusRounded(plusRounded(plusRounded(parts.balances, parts.held), parts.positions), parts.flex);
  return { equityAsset: plan.equityAsset, total, parts, unvalued: v.unvalued, unmarked };
}

/** Values the account by the one rule. */
export function equityOf(i: EquityInputs): Equity {
  const plan = planEquity(i);
  return priceEquity(plan, plan.markets.map((m) => i.prices[m]));
}
