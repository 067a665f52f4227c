/**
 * The backtest's fill model (docs/backtesting.md § Fill model), on top of the simulator's matching
 * (src/simulator/matching.ts: one price per market per step, no order book):
 * - a resting limit order fills at its own price (maker) when a step's price trades THROUGH it:
 *   a buy when the price is strictly below its limit, a sell when strictly above. `touch: 'at'`
 *   lets a price equal to the limit fill it too. Stop legs trigger the same way.
 * - an order that crosses the current price when placed takes at that price (taker);
 * - each step caps what resting orders can fill together: `volumeShare` × the CSV row's volume,
 *   or `volumePerStep` when the file has no volume column (partial fills follow);
 * - fees: `makerFee` / `takerFee` × quote amount, charged in the quote asset.
 */
import { truncateToStep, type Decimal } from '../core/decimal.js';
import type { PriceSpan } from '../simulator/types.js';

export interface FillModel {
  touch: 'through' | 'at';
  volumeShare: Decimal;
  volumePerStep: Decimal;
  makerFee: Decimal;
  takerFee: Decimal;
}

/** The settings as the result records them (strings, fixed key order). */
export function describeFillModel(m: FillModel, stepMs: number): Record<string, string> {
  return {
    touch: m.touch,
    volumeShare: m.volumeShare.toFixed(),
    volumePerStep: m.volumePerStep.toFixed(),
    makerFee: m.makerFee.toFixed(),
    takerFee: m.takerFee.toFixed(),
    stepMs: String(stepMs),
  };
}

/**
 * The span resting orders are matched against for one step at `price`. Matching fills a buy when
 * its limit ≥ span.low and a sell when its limit ≤ span.high; moving both by one tick turns that
 * into "strictly through" on the tick grid.
 */
export function matchSpan(price: Decimal, tick: Decimal, touch: FillModel['touch']): PriceSpan {
  if (touch === 'at') return { low: price, high: price, jumped: false };
  return { low: price.plus(tick), high: price.minus(tick), jumped: false };
}

/** What resting orders may fill in one step: a share of the traded volume, else the fixed amount. */
export function stepVolume(traded: Decimal | null, m: FillModel, amountStep: Decimal): Decimal {
  const v = traded === null ? m.volumePerStep : traded.mul(m.volumeShare);
  return truncateToStep(v, amountStep);
}
