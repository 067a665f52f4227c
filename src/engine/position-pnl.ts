/**
 * A position's PnL as the operator sees it, one rule for `npm run status` and the dashboard:
 * realised before and after fees, fees valued in the quote asset, and unrealised PnL marked at a
 * given price (status: the account snapshot of the last equity check, src/engine/status-records.ts;
 * the dashboard: the market-data cache). Everything stays Decimal; the caller turns it into strings.
 */
import { ZERO, type Decimal } from '../core/decimal.js';
import type { Position } from '../engine/positions.js';

/**
 * The asset a market's PnL is counted in: the second ticker of `BASE_QUOTE`; a perpetual
 * (`BTC_PERP`) has no quote ticker in its name and is counted in the equity asset.
 */
export function quoteOf(market: string, equityAsset: string): string {
  const quote = market.split('_')[1] ?? '';
  return quote === 'PERP' ? equityAsset : quote;
}

export interface PositionPnl {
  position: Position;
  quote: string;
  /** Last price used to mark the position, or null when the daemon has not recorded one. */
  mark: Decimal | null;
  /** base × mark − cost of the open lots (signed); null without a mark. Zero when flat. */
  unrealised: Decimal | null;
  /** Fees converted to the quote asset: quote fees as they are, base fees at the mark. */
  feesInQuote: Decimal;
  /** Fees in an asset that could not be valued (no mark, another asset, or unnamed). */
  feesNotValued: Record<string, Decimal>;
  /** Realised PnL after subtracting `feesInQuote`. */
  realisedNet: Decimal;
}

/** Unrealised PnL of the open lots at `mark`; zero when flat, null without a mark. */
export function unrealisedAt(p: Position, mark: Decimal | null | undefined): Decimal | null {
  if (p.base.isZero()) return ZERO;
  if (mark === null || mark === undefined) return null;
  // openCost is Σ |lot| × price: a long paid it, a short received it.
  return p.base.gt(0) ? p.base.mul(mark).minus(p.openCost) : p.openCost.plus(p.base.mul(mark));
}

export function positionPnl(p: Position, prices: Readonly<Record<string, Decimal>>, equityAsset: string): PositionPnl {
  const quote = quoteOf(p.market, equityAsset);
  const base = p.market.split('_')[0] ?? '';
  const mark = prices[p.market] ?? null;
  let feesInQuote = ZERO;
  const feesNotValued: Record<string, Decimal> = {};
  for (const [asset, fee] of Object.entries(p.fees)) {
    if (asset === quote) feesInQuote = feesInQuote.plus(fee);
    else if (asset === base && mark !== null) feesInQuote = feesInQuote.plus(fee.mul(mark));
    else feesNotValued[asset === '' ? '(unnamed)' : asset] = fee;
  }
  return { position: p, quote, mark, unrealised: unrealisedAt(p, mark), feesInQuote, feesNotValued, realisedNet: p.realisedPnl.minus(feesInQuote) };
}

export interface PnlTotals {
  realisedGross: Decimal;
  fees: Decimal;
  realisedNet: Decimal;
  /** null when some open position has no mark. */
  unrealised: Decimal | null;
}

/** Sums per quote asset (PnL of different quote assets is never added together). */
export function pnlTotals(rows: readonly PositionPnl[]): Record<string, PnlTotals> {
  const out: Record<string, PnlTotals> = {};
  for (const r of rows) {
    const t = (out[r.quote] ??= { realisedGross: ZERO, fees: ZERO, realisedNet: ZERO, unrealised: ZERO });
    t.realisedGross = t.realisedGross.plus(r.position.realisedPnl);
    t.fees = t.fees.plus(r.feesInQuote);
    t.realisedNet = t.realisedNet.plus(r.realisedNet);
    t.unrealised = t.unrealised === null || r.unrealised === null ? null : t.unrealised.plus(r.unrealised);
  }
  return out;
}
