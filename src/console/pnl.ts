/**
 * PnL per strategy for the dashboard, from the derived positions (docs/architecture.md §8.8):
 * realised gross of fees (FIFO, `Position.realisedPnl`), the fees valued in quote, realised net of
 * fees, and unrealised at the last price. Fees in the market's base asset are valued at the last
 * price; any other fee asset is taken as quote (the venue charges fees in the market's money
 * asset, src/simulator/matching.ts does the same). Exact decimals throughout.
 */
import { ZERO, type Decimal } from '../core/decimal.js';
import type { Position } from '../engine/positions.js';

export interface MarketPrice {
  base: string;
  last: Decimal;
}

/** Fees of a position valued in its quote asset; null when a base fee has no price. */
export function feesInQuote(p: Position, price: MarketPrice | undefined): Decimal | null {
  let total = ZERO;
  for (const [asset, fee] of Object.entries(p.fees)) {
    if (price !== undefined && asset === price.base) total = total.plus(fee.mul(price.last));
    else if (price === undefined && fee.gt(0) && p.market.startsWith(`${asset}_`)) return null;
    else total = total.plus(fee);
  }
  return total;
}

/** Unrealised PnL of the open lots at `last`: long Σ(last − entry)·lot, short Σ(entry − last)·lot. */
export function unrealised(p: Position, last: Decimal | undefined): Decimal | null {
  if (p.base.isZero()) return ZERO;
  if (last === undefined) return null;
  const value = p.base.abs().mul(last);
  return p.base.gt(0) ? value.minus(p.openCost) : p.openCost.minus(value);
}

export interface StrategyPnl {
  strategyId: string | null;
  realisedGross: Decimal;
  fees: Decimal | null;
  realisedNet: Decimal | null;
  unrealised: Decimal | null;
  fills: number;
}

const addOrNull = (a: Decimal | null, b: Decimal | null): Decimal | null => (a === null || b === null ? null : a.plus(b));

/** Sums positions per strategy (all markets; the markets of one bot share a quote asset in practice). */
export function pnlByStrategy(positions: readonly Position[], prices: Readonly<Record<string, MarketPrice>>): StrategyPnl[] {
  const out = new Map<string | null, StrategyPnl>();
  for (const p of positions) {
    const price = prices[p.market];
    const fees = feesInQuote(p, price);
    const row = out.get(p.strategyId) ?? { strategyId: p.strategyId, realisedGross: ZERO, fees: ZERO, realisedNet: ZERO, unrealised: ZERO, fills: 0 };
    row.realisedGross = row.realisedGross.plus(p.realisedPnl);
    row.fees = addOrNull(row.fees, fees);
    row.realisedNet = addOrNull(row.realisedNet, fees === null ? null : p.realisedPnl.minus(fees));
    row.unrealised = addOrNull(row.unrealised, unrealised(p, price?.last));
    row.fills += p.fillCount;
    out.set(p.strategyId, row);
  }
  return [...out.values()];
}
