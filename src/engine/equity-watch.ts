/**
 * Equity and the drawdown kill switch (docs/failure-modes.md: a strategy that bleeds must stop itself).
 *
 * Equity is the sum of the main balances valued in one asset: the asset itself at 1, every other
 * asset at the last price of `ASSET_<equityAsset>`. Assets without such a price are left out
 * (docs/configuration.md, `risk.equityAsset`). The peak is persisted in the store, so a restart does not forget a
 * loss; when equity falls below the peak by more than `maxDrawdownPct`, `onBreach` runs.
 */
import { Decimal, ZERO } from '../core/decimal.js';
import type { Store } from '../store/index.js';
import { drawdownBreached, type RiskLimits, type RiskSnapshot } from './risk-gate.js';

export const EQUITY_PEAK_KEY = 'equity.peakQuote';

export type EquitySnapshot = NonNullable<RiskSnapshot['equity']>;

export interface EquityWatchDeps {
  store: Pick<Store, 'meta'>;
  equityAsset: string;
  limits: RiskLimits;
  /** Called with a human-readable reason on every check that finds the limit breached. */
  onBreach: (reason: string) => void;
}

/** Values balances in the equity asset. Prices are keyed `BASE_QUOTE` and carry `last`. */
export function equityOf(
  balances: Readonly<Record<string, Decimal>>,
  prices: Readonly<Record<string, { last: Decimal }>>,
  equityAsset: string,
): Decimal {
  let total = ZERO;
  for (const [asset, amount] of Object.entries(balances)) {
    if (asset === equityAsset) total = total.plus(amount);
    else {
      const p = prices[`${asset}_${equityAsset}`];
      if (p !== undefined) total = total.plus(amount.mul(p.last));
    }
  }
  return total;
}

export class EquityWatch {
  private latest: EquitySnapshot | null = null;

  constructor(private readonly deps: EquityWatchDeps) {}

  /** The last computed equity and peak; null before the first update. */
  get current(): EquitySnapshot | null {
    return this.latest;
  }

  /** Recomputes equity from fresh venue data, raises the persisted peak, checks the limit. */
  update(balances: Readonly<Record<string, Decimal>>, prices: Readonly<Record<string, { last: Decimal }>>): EquitySnapshot {
    const { store, equityAsset, limits } = this.deps;
    const total = equityOf(balances, prices, equityAsset);
    const stored = store.meta.get(EQUITY_PEAK_KEY);
    const storedPeak = stored === undefined ? undefined : new Decimal(stored);
    const peak = storedPeak === undefined ? total : Decimal.max(storedPeak, total);
    if (storedPeak === undefined || !peak.eq(storedPeak)) store.meta.set(EQUITY_PEAK_KEY, peak.toFixed());
    this.latest = { currentQuote: total, peakQuote: peak };
    if (drawdownBreached(this.latest, limits)) {
      this.deps.onBreach(`drawdown: equity ${total.toFixed(2)} below peak ${peak.toFixed(2)} by more than ${limits.maxDrawdownPct.toFixed()} %`);
    }
    return this.latest;
  }

  /**
   * Forgets the persisted peak (operator `--resume-trading`): a drawdown halt would otherwise
   * re-trip at once against the old peak. The next update starts a new peak.
   */
  resetPeak(): void {
    this.deps.store.meta.delete(EQUITY_PEAK_KEY);
    this.latest = null;
  }
}
