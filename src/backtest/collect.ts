/**
 * The result (result.ts) from a finished run: the bot's own fills as its store recorded them
 * (attributed to strategies by the engine), each strategy's book replayed over the price path,
 * the metrics of each and of the whole account, and the venue's own deals beside them (the
 * simulator's truth, to check the engine's view against).
 */
import { Decimal } from '../core/decimal.js';
import type { FillRecord } from '../model/fills.js';
import { replayBook } from './ledger.js';
import { keptIndexes } from './downsample.js';
import { EquityCurve } from './metrics.js';
import { computeMetrics, roundTrips } from './output.js';
import type { BacktestFill, BacktestMetrics, BacktestResult, EquityPoint, PricePoint } from './result.js';
import type { RunState } from './run.js';
import type { DecimalColumn, Samples } from './samples.js';
import type { WarmUp } from './candle-input.js';

/** Points kept per series in the result (the report draws them; metrics use every step). */
const SERIES_MAX = 2000;

export interface ResultInputs {
  configFile: string;
  configSha256: string;
  prices: Array<{ file: string; sha256: string }>;
  fromMs: number;
  toMs: number;
  fillModel: Record<string, string>;
  /** When strategies declare candles: the span the input's first candles filled their windows. */
  warmUp?: WarmUp;
}

/** The venue's deals in the result's fill shape (strategy from the clientOrderId prefix). */
export type TruthFill = Omit<BacktestFill, 'strategy'> & { dealId: number; clientOrderId: string };

function fillOf(f: FillRecord): BacktestFill {
  return {
    timeMs: f.timeMs,
    strategy: f.strategyId ?? 'unattributed',
    market: f.market,
    side: f.side,
    price: f.price.toFixed(),
    amount: f.amount.toFixed(),
    fee: f.fee.toFixed(),
    orderId: String(f.orderId),
  };
}

function flexEarnings(state: RunState): Decimal {
  let sum = new Decimal(0);
  for (const r of state.wired.store.flex.all()) if (r.actionType === 'DAILY_EARNING') sum = sum.plus(r.amount);
  return sum;
}

function metricsOf(state: RunState, inputs: ResultInputs, fills: BacktestFill[], start: Decimal, orders: number, flex: Decimal): BacktestMetrics {
  const book = replayBook(fills, state.samples, start);
  return computeMetrics({
    equity: book.equity,
    fills,
    trades: roundTrips(fills),
    flexEarnings: flex.toFixed(),
    unrealisedPnl: book.unrealisedPnl.toFixed(),
    orders,
    positionSpans: book.positionSpans,
    fromMs: inputs.fromMs,
    toMs: inputs.toMs,
  });
}

export function truthFills(state: RunState): TruthFill[] {
  return state.venue.account.deals.map((d) => ({
    dealId: d.id,
    timeMs: d.timeMs,
    market: d.market,
    side: d.side,
    price: d.price.toFixed(),
    amount: d.amount.toFixed(),
    fee: d.fee.toFixed(),
    orderId: String(d.orderId),
    clientOrderId: d.clientOrderId,
  }));
}

function strategyMetrics(
  state: RunState,
  inputs: ResultInputs,
  fills: BacktestFill[],
  sent: ReadonlyMap<string, number>,
): Record<string, BacktestMetrics> {
  const { config } = state.wired.b;
  const out: Record<string, BacktestMetrics> = {};
  for (const s of [...config.strategies].sort((a, b) => a.id.localeCompare(b.id))) {
    if (!s.enabled) continue;
    const own = fills.filter((f) => f.strategy === s.id);
    out[s.id] = metricsOf(state, inputs, own, s.budgetQuote, sent.get(s.id) ?? 0, new Decimal(0));
  }
  return out;
}

/** The account's curve: its figures from every sampled equity. */
function accountCurve(samples: Samples): EquityCurve {
  const curve = new EquityCurve();
  for (let i = 0; i < samples.length; i++) curve.add(samples.timeAt(i), samples.equity.at(i));
  return curve;
}

/** A sampled column thinned for the report (downsample.ts), as the result's points. */
function thinned<T>(samples: Samples, column: DecimalColumn, point: (timeMs: number, value: string) => T): T[] {
  return keptIndexes(column.length, SERIES_MAX, (i) => column.at(i)).map((i) => point(samples.timeAt(i), column.at(i).toFixed()));
}

export function buildResult(state: RunState, inputs: ResultInputs): BacktestResult {
  const { store } = state.wired;
  const fills = store.fills
    .all()
    .sort((a, b) => a.timeMs - b.timeMs || a.dealId - b.dealId)
    .map(fillOf);
  // Counted in SQL: reading every order of a long run into records only to count them was the
  // result's largest allocation (a year holds hundreds of thousands of orders).
  const sentBy = store.orders.sentCounts();
  const sent = [...sentBy.values()].reduce((a, b) => a + b, 0);
  const { samples } = state;
  const startEquity = samples.length === 0 ? new Decimal(0) : samples.equity.at(0);
  const totalBook = replayBook(fills, samples, startEquity);
  const total = computeMetrics({
    equity: accountCurve(samples),
    fills,
    trades: roundTrips(fills),
    flexEarnings: flexEarnings(state).toFixed(),
    unrealisedPnl: totalBook.unrealisedPnl.toFixed(),
    orders: sent,
    positionSpans: totalBook.positionSpans,
    fromMs: inputs.fromMs,
    toMs: inputs.toMs,
  });
  const prices: Record<string, PricePoint[]> = {};
  for (const [market, column] of samples.prices) prices[market] = thinned(samples, column, (timeMs, price): PricePoint => ({ timeMs, price }));
  return {
    version: 1,
    inputs: {
      config: inputs.configFile,
      configSha256: inputs.configSha256,
      prices: inputs.prices,
      fromMs: inputs.fromMs,
      toMs: inputs.toMs,
      fillModel: inputs.fillModel,
      ...(inputs.warmUp === undefined ? {} : { warmUp: inputs.warmUp }),
    },
    total,
    strategies: strategyMetrics(state, inputs, fills, sentBy),
    equity: thinned(samples, samples.equity, (timeMs, equity): EquityPoint => ({ timeMs, equity })),
    prices,
    fills,
    trades: roundTrips(fills),
  };
}
