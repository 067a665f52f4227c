/**
 * The simulator's internal records. Money is Decimal; times are ms of the simulator clock.
 * Venue words (stock, money, left, deal*) are used on purpose: this is the venue's own model.
 */
import type { Decimal } from '../core/decimal.js';
import type { Side } from '../core/orders.js';

export type OrderStatus = 'NEW' | 'PARTIALLY_FILLED' | 'FILLED' | 'CANCELLED';
export type PositionSide = 'LONG' | 'SHORT' | 'BOTH';

/** An order (spot limit, collateral limit, or an OCO leg). */
export interface SimOrder {
  orderId: number;
  clientOrderId: string;
  market: string;
  side: Side;
  /** `limit`, or `stop limit` for the stop leg of an OCO. */
  type: 'limit' | 'stop limit';
  /** Spot orders move balances; collateral orders open and reduce positions. */
  kind: 'spot' | 'collateral';
  createdMs: number;
  mtimeMs: number;
  amount: Decimal;
  price: Decimal;
  left: Decimal;
  dealStock: Decimal;
  dealMoney: Decimal;
  dealFee: Decimal;
  postOnly: boolean;
  ioc: boolean;
  rpi: boolean;
  status: OrderStatus;
  /** Collateral orders only. */
  positionSide?: PositionSide;
  /** Asset held for this order and how much of it is still held. */
  lockAsset: string;
  locked: Decimal;
  /** Held per unit of amount (exact: rounded up to 18 places at placement). */
  lockPerUnit: Decimal;
  oto?: { otoId: number; stopLoss?: Decimal; takeProfit?: Decimal };
  /** Set on OCO legs: they live in the conditional listing, not among open orders. */
  ocoId?: number;
  activationPrice?: Decimal;
  activationCondition?: 'gte' | 'lte';
  activated?: number;
}

/**
 * The prices a market went through since orders were last matched: one price after a step, the
 * lowest and highest point of the path after a jump over idle time (`jumped`).
 */
export interface PriceSpan {
  low: Decimal;
  high: Decimal;
  jumped: boolean;
}

/** One execution of an order. */
export interface Deal {
  id: number;
  orderId: number;
  clientOrderId: string;
  market: string;
  side: Side;
  /** 1 maker, 2 taker. */
  role: 1 | 2;
  amount: Decimal;
  price: Decimal;
  /** amount * price, money. */
  deal: Decimal;
  fee: Decimal;
  feeAsset: string;
  timeMs: number;
}

/**
 * Where an account's older deals go when they leave memory (a backtest's spill file,
 * src/backtest/deal-archive.ts): every archived deal is older than every deal still held, so the
 * archive and `Account.deals` together are the whole history in order.
 */
export interface DealArchive {
  /** Takes deals, oldest first, each newer than every deal it holds. */
  add(deals: readonly Deal[]): void;
  /** Archived deals of one clientOrderId, oldest first. */
  ofClientOrder(clientOrderId: string): Deal[];
  /** Archived deals at or after `fromMs`, oldest first. */
  since(fromMs: number): Deal[];
  /** Every archived deal, oldest first, read a few at a time. */
  all(): Iterable<Deal>;
  readonly count: number;
}

/** A collateral position. `amount` is signed: positive long, negative short. */
export interface Position {
  market: string;
  positionSide: PositionSide;
  amount: Decimal;
  /** Entry cost of the open amount (money, positive): average entry price = cost / |amount|. */
  cost: Decimal;
  /** Margin held from the money balance for the open amount. */
  margin: Decimal;
  realisedPnl: Decimal;
}

/** OTO: collateral parent resting with its stop-loss / take-profit prices. */
export interface OtoRecord {
  type: 'oto';
  id: number;
  parentOrderId: number;
  stopLoss?: Decimal;
  takeProfit?: Decimal;
  active: boolean;
}

/** OCO: the protective pair created when the OTO parent filled. */
export interface OcoRecord {
  type: 'oco';
  id: number;
  market: string;
  otoId: number;
  stopLossOrderId?: number;
  takeProfitOrderId?: number;
  active: boolean;
}

export type ConditionalRecord = OtoRecord | OcoRecord;

export interface FlexInvestment {
  planId: string;
  investmentId: string;
  currency: string;
  amount: Decimal;
  dailyRate: Decimal;
  status: string;
}

/** A flex ledger row (api-v4 2.7). */
export interface FlexRecord {
  createdMs: number;
  planId: string;
  investmentId: string;
  currency: string;
  amount: Decimal;
  transactionId: string;
  actionType: number;
}
