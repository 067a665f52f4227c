/**
 * PnL per strategy for the dashboard, from the derived positions (docs/architecture.md §8.8),
 * valued by the same rule as `npm run status` (src/engine/position-pnl.ts): realised gross of
 * fees (FIFO), the fees valued in quote, realised net of fees, and unrealised at the last price.
 * Fees and net are null while a fee cannot be valued (a base fee with no price yet, or another
 * asset). Exact decimals throughout.
 */
import { ZERO, type Decimal } from '../core/decimal.js';
import { positionPnl } from '../engine/position-pnl.js';
import type { Position } from '../engine/positions.js';

export interface MarketPrice {
  last: Decimal;
  /** The listing ticker the price comes from (`BTC_PERP` for `BTC_USDT`), when known. */
  ticker?: string;
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
export function pnlByStrategy(positions: readonly Position[], prices: Readonly<Record<string, MarketPrice>>, equityAsset: string): StrategyPnl[] {
  const marks = Object.fromEntries(Object.entries(prices).map(([market, p]) => [market, p.last]));
  const out = new Map<string | null, StrategyPnl>();
  for (const p of positions) {
    const r = positionPnl(p, marks, equityAsset);
    const fees = Object.values(r.feesNotValued).some((f) => !f.isZero()) ? null : r.feesInQuote;
    const row = out.get(p.strategyId) ?? { strategyId: p.strategyId, realisedGross: ZERO, fees: ZERO, realisedNet: ZERO, unrealised: ZERO, fills: 0 };
    row.realisedGross = row.realisedGross.plus(p.realisedPnl);
    row.fees = addOrNull(row.fees, fees);
    row.realisedNet = addOrNull(row.realisedNet, fees === null ? null : r.realisedNet);
    row.unrealised = addOrNull(row.unrealised, r.unrealised);
    row.fills += p.fillCount;
    out.set(p.strategyId, row);
  }
  return [...out.values()];
}
