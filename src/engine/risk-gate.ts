/**
 * The risk gate (docs/architecture.md §3): a pure function from an order and plain data (market
 * rules, open orders, positions, budget, trading state, equity) to "pass" or a refusal with a
 * stable reason code. It runs on every order intent after the strategy runner truncated the
 * amount to the step and rounded the price to the tick; it checks them again anyway, because an
 * order that is off-step must never leave even if a caller forgot to round.
 *
 * Orders of one intent are checked in sequence against a running tally, so a bulk of twenty
 * orders cannot each pass a limit that the twenty together break.
 */
import { Decimal, ZERO, isMultipleOf } from '../core/decimal.js';
import type { Side } from '../core/orders.js';

export type TradingState = 'ACTIVE' | 'REDUCE_ONLY' | 'HALTED';

/** Stable reason codes of refusals (metrics label values). */
export type RefusalCode =
  | 'STRATEGY_QUARANTINED'
  | 'TRADING_HALTED'
  | 'DRAWDOWN_HALT'
  | 'MARKET_UNKNOWN'
  | 'AMOUNT_OFF_STEP'
  | 'PRICE_OFF_TICK'
  | 'AMOUNT_BELOW_MIN'
  | 'TOTAL_BELOW_MIN'
  | 'NOTIONAL_ABOVE_MAX'
  | 'REDUCE_ONLY'
  | 'EXIT_NOT_REDUCING'
  | 'MAX_OPEN_ORDERS'
  | 'MAX_POSITION'
  | 'BUDGET_EXCEEDED';

/** A market's rules and per-market limits. */
export interface MarketRules {
  /** Price increment, quote. */
  tick: Decimal;
  /** Amount increment, base. */
  step: Decimal;
  /** Smallest amount, base. */
  minAmount: Decimal;
  /** Smallest amount × price, quote. */
  minTotalQuote: Decimal;
  /** Largest absolute worst-case position of the whole bot, base. */
  maxPositionBase: Decimal;
  /** Largest number of the bot's open orders. */
  maxOpenOrders: number;
}

/** Bot-wide limits. */
export interface RiskLimits {
  /** Largest amount × price of one order, quote. */
  maxNotionalPerOrderQuote: Decimal;
  /** Equity below peak by more than this percentage halts trading. */
  maxDrawdownPct: Decimal;
}

/** The bot's exposure in one market (all strategies). */
export interface MarketExposure {
  /** Net position, signed base (> 0 long). */
  positionBase: Decimal;
  /** Remaining base of open buy orders. */
  openBuyBase: Decimal;
  /** Remaining base of open sell orders. */
  openSellBase: Decimal;
  /** Number of open (not final) orders. */
  openOrders: number;
}

/** The strategy instance asking. */
export interface StrategyExposure {
  id: string;
  quarantined: boolean;
  /** Most quote this instance may commit. */
  budgetQuote: Decimal;
  /** Quote committed now: open orders' remaining × price plus |position| × price. */
  committedQuote: Decimal;
  /** This instance's own net position per market, signed base. */
  positionBase: Readonly<Record<string, Decimal>>;
}

/** Everything the gate looks at. Plain data: the caller assembles it from the store. */
export interface RiskSnapshot {
  tradingState: TradingState;
  markets: Readonly<Record<string, MarketRules>>;
  limits: RiskLimits;
  exposure: Readonly<Record<string, MarketExposure>>;
  strategy: StrategyExposure;
  /** Equity and its peak in the equity asset; null while unknown (no check then). */
  equity: { currentQuote: Decimal; peakQuote: Decimal } | null;
}

/** An order as the gate sees it. */
export interface GateOrder {
  market: string;
  side: Side;
  /** Base, already truncated to step. */
  amount: Decimal;
  /** Quote per base, already rounded to tick. */
  price: Decimal;
  /** An exit of the instance's own position (collateral exits). */
  exit?: boolean;
}

export type GateDecision = { ok: true } | { ok: false; code: RefusalCode; detail: string };

const refuse = (code: RefusalCode, detail: string): GateDecision => ({ ok: false, code, detail });

/** Far below the rounding of a 60-digit division (core/decimal.ts), far above that of the products. */
const MARGIN = new Decimal('1e-40');

/**
 * True when equity is below its peak by more than the limit. The 60-digit division costs more
 * than the rest of an order's checks: for a positive peak, drop % > limit ⟺ (peak − current) ×
 * 100 > limit × peak, so products decide a drop clearly within the limit, and one closer to it
 * than the margin is left to the division (the same answer either way).
 */
export function drawdownBreached(equity: RiskSnapshot['equity'], limits: RiskLimits): boolean {
  if (equity === null || equity.peakQuote.lte(0)) return false;
  const limit = limits.maxDrawdownPct.mul(equity.peakQuote);
  if (equity.peakQuote.minus(equity.currentQuote).mul(100).lt(limit.minus(limit.abs().mul(MARGIN)))) return false;
  const drop = equity.peakQuote.minus(equity.currentQuote).div(equity.peakQuote).mul(100);
  return drop.gt(limits.maxDrawdownPct);
}

/** Decisions that do not depend on the order: quarantine, halt, kill switch. */
export function checkStanding(snap: RiskSnapshot, action: 'order' | 'cancel' | 'closeFlex'): GateDecision {
  if (snap.strategy.quarantined) return refuse('STRATEGY_QUARANTINED', `strategy ${snap.strategy.id} is quarantined`);
  if (action === 'cancel') return { ok: true };
  if (snap.tradingState === 'HALTED') return refuse('TRADING_HALTED', 'trading is halted: cancels only');
  if (action === 'order' && drawdownBreached(snap.equity, snap.limits)) {
    return refuse('DRAWDOWN_HALT', `equity below peak by more than ${snap.limits.maxDrawdownPct.toFixed()} %`);
  }
  return { ok: true };
}

function emptyExposure(): MarketExposure {
  return { positionBase: ZERO, openBuyBase: ZERO, openSellBase: ZERO, openOrders: 0 };
}

/** Market known, amount and price on the grid, minimums and the per-order notional cap (`notional`: amount × price). */
function checkShape(o: GateOrder, rules: MarketRules | undefined, limits: RiskLimits, notional: Decimal): GateDecision {
  if (rules === undefined) return refuse('MARKET_UNKNOWN', `market ${o.market} is not configured`);
  if (!isMultipleOf(o.amount, rules.step)) return refuse('AMOUNT_OFF_STEP', `amount ${o.amount.toFixed()} is not a multiple of ${rules.step.toFixed()}`);
  if (!isMultipleOf(o.price, rules.tick)) return refuse('PRICE_OFF_TICK', `price ${o.price.toFixed()} is not a multiple of ${rules.tick.toFixed()}`);
  if (o.amount.lte(0) || o.amount.lt(rules.minAmount)) return refuse('AMOUNT_BELOW_MIN', `amount ${o.amount.toFixed()} below ${rules.minAmount.toFixed()}`);
  if (notional.lt(rules.minTotalQuote)) return refuse('TOTAL_BELOW_MIN', `total ${notional.toFixed()} below ${rules.minTotalQuote.toFixed()}`);
  if (notional.gt(limits.maxNotionalPerOrderQuote)) {
    return refuse('NOTIONAL_ABOVE_MAX', `total ${notional.toFixed()} above ${limits.maxNotionalPerOrderQuote.toFixed()}`);
  }
  return { ok: true };
}

const signedAmount = (o: GateOrder): Decimal => (o.side === 'buy' ? o.amount : o.amount.neg());

/** The running tally of one batch: what the orders accepted so far add to the snapshot. */
class Tally {
  private readonly exposure = new Map<string, MarketExposure>();
  private readonly own: Map<string, Decimal>;
  private readonly reducingAccepted = new Map<string, Decimal>();
  committed: Decimal;

  constructor(private readonly snap: RiskSnapshot) {
    this.own = new Map(Object.entries(snap.strategy.positionBase));
    this.committed = snap.strategy.committedQuote;
  }

  /** Read only: `accept` replaces a market's entry, it never changes one. */
  exposureOf(market: string): MarketExposure {
    return this.exposure.get(market) ?? this.snap.exposure[market] ?? emptyExposure();
  }

  ownPosition(market: string): Decimal {
    return this.own.get(market) ?? ZERO;
  }

  /**
   * Reducing: against the bot's net position, and no larger than what is left of it after the
   * reducing orders already accepted in this batch.
   */
  reduces(o: GateOrder, ex: MarketExposure): boolean {
    const already = this.reducingAccepted.get(o.market) ?? ZERO;
    const against = ex.positionBase.isNeg() !== signedAmount(o).isNeg();
    return !ex.positionBase.isZero() && against && o.amount.plus(already).lte(ex.positionBase.abs());
  }

  accept(o: GateOrder, ex: MarketExposure, reducing: boolean, notional: Decimal): void {
    if (reducing) this.reducingAccepted.set(o.market, (this.reducingAccepted.get(o.market) ?? ZERO).plus(o.amount));
    else this.committed = this.committed.plus(notional);
    this.exposure.set(o.market, {
      ...ex,
      openOrders: ex.openOrders + 1,
      openBuyBase: o.side === 'buy' ? ex.openBuyBase.plus(o.amount) : ex.openBuyBase,
      openSellBase: o.side === 'sell' ? ex.openSellBase.plus(o.amount) : ex.openSellBase,
    });
    if (o.exit === true) this.own.set(o.market, this.ownPosition(o.market).plus(signedAmount(o)));
  }
}

function checkExit(o: GateOrder, tally: Tally): GateDecision {
  const mine = tally.ownPosition(o.market);
  if (mine.isZero() || mine.isNeg() === signedAmount(o).isNeg() || o.amount.gt(mine.abs())) {
    return refuse('EXIT_NOT_REDUCING', `exit of ${o.amount.toFixed()} does not reduce the position of ${mine.toFixed()}`);
  }
  return { ok: true };
}

/**
 * The position limit is a hard bound on the venue position: the worst case, where every open
 * order and protective leg on this side fills too, stays within it. Reducing orders included: a
 * reducing exit whose position closed meanwhile (a leg executed) would otherwise open the
 * opposite one.
 */
function checkPosition(o: GateOrder, ex: MarketExposure, rules: MarketRules): GateDecision {
  const worst = o.side === 'buy' ? ex.positionBase.plus(ex.openBuyBase).plus(o.amount) : ex.positionBase.minus(ex.openSellBase).minus(o.amount);
  if (worst.abs().gt(rules.maxPositionBase)) {
    return refuse('MAX_POSITION', `worst-case position ${worst.toFixed()} beyond ${rules.maxPositionBase.toFixed()} in ${o.market}`);
  }
  return { ok: true };
}

/** The strategy's budget: what it commits with orders that do not reduce a position. */
function checkBudget(snap: RiskSnapshot, tally: Tally, notional: Decimal): GateDecision {
  const committed = tally.committed.plus(notional);
  if (committed.gt(snap.strategy.budgetQuote)) {
    return refuse('BUDGET_EXCEEDED', `committed ${committed.toFixed()} above budget ${snap.strategy.budgetQuote.toFixed()}`);
  }
  return { ok: true };
}

/** `more`: another order of the batch follows (only it reads what this one adds to the tally). */
function checkOne(o: GateOrder, snap: RiskSnapshot, tally: Tally, more: boolean): GateDecision {
  const rules = snap.markets[o.market];
  const notional = o.amount.mul(o.price);
  const shape = checkShape(o, rules, snap.limits, notional);
  if (!shape.ok || rules === undefined) return shape;
  const ex = tally.exposureOf(o.market);
  const reducing = tally.reduces(o, ex);
  if (snap.tradingState === 'REDUCE_ONLY' && !reducing) return refuse('REDUCE_ONLY', 'trading is reduce-only and this order would not reduce a position');
  const exit = o.exit === true ? checkExit(o, tally) : { ok: true as const };
  if (!exit.ok) return exit;
  if (ex.openOrders + 1 > rules.maxOpenOrders) return refuse('MAX_OPEN_ORDERS', `${ex.openOrders} open orders in ${o.market} (max ${rules.maxOpenOrders})`);
  const position = checkPosition(o, ex, rules);
  if (!position.ok) return position;
  const budget = reducing ? { ok: true as const } : checkBudget(snap, tally, notional);
  if (!budget.ok) return budget;
  if (more) tally.accept(o, ex, reducing, notional);
  return { ok: true };
}

/**
 * Checks `orders` in sequence; each accepted order is added to the tally the next one sees.
 * Returns one decision per order, in order.
 */
export function checkOrders(orders: readonly GateOrder[], snap: RiskSnapshot): GateDecision[] {
  // The standing does not depend on the order: decided once for the batch.
  const standing = checkStanding(snap, 'order');
  if (!standing.ok) return orders.map(() => standing);
  const tally = new Tally(snap);
  return orders.map((o, i) => checkOne(o, snap, tally, i < orders.length - 1));
}
