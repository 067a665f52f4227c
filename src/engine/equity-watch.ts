/**
 * The drawdown kill switch (docs/failure-modes.md: a strategy that bleeds must stop itself;
 * docs/equity.md). It watches the equity of the one equity rule (equity.ts): balances, what open
 * orders hold, collateral positions at the mark and flex investments, so resting orders are never
 * mistaken for a loss. The peak is persisted in the store, so a restart does not forget a loss;
 * when equity falls below the peak by more than `maxDrawdownPct`, `onBreach` runs.
 */
import { Decimal } from '../core/decimal.js';
import type { Store } from '../store/index.js';
import type { Equity } from './equity.js';
import { drawdownBreached, type RiskLimits, type RiskSnapshot } from './risk-gate.js';

export const EQUITY_PEAK_KEY = 'equity.peakQuote';

/**
 * `a.eq(b)`; the very same decimal (a kept total, the peak it raised) without comparing digits:
 * it equals itself unless it is NaN.
 */
function same(a: Decimal, b: Decimal): boolean {
  return a === b ? !a.isNaN() : a.eq(b);
}

/** `a.gte(b)`, with the same shortcut for the very same decimal as `same`. */
function atLeast(a: Decimal, b: Decimal): boolean {
  return a === b ? !a.isNaN() : a.gte(b);
}

export type EquitySnapshot = NonNullable<RiskSnapshot['equity']>;

export interface EquityWatchDeps {
  store: Pick<Store, 'meta'>;
  limits: RiskLimits;
  /** Called with a human-readable reason on every check that finds the limit breached. */
  onBreach: (reason: string) => void;
}

export class EquityWatch {
  private latest: EquitySnapshot | null = null;
  private latestEquity: Equity | null = null;
  /**
   * The persisted peak. This watch is the key's only writer, so the value it last read or wrote is
   * kept; `null`: not known, read the store.
   */
  private kept: { peak: Decimal | undefined } | null = null;
  /** The last check: the total and peak it was made for and its breach reason (null: within the limit). */
  private decided: { total: Decimal; peak: Decimal; breach: string | null } | null = null;
  /**
   * The lowest total found within the limit against this peak. Against a fixed peak the decision
   * is monotone in the total (risk-gate.ts drawdownBreached: every step, the subtraction from the
   * peak, the product, the division by the positive peak, rounds monotonically), so any total at or
   * above it is within the limit too, and the drawdown need not be worked out again.
   */
  private within: { peak: Decimal; total: Decimal } | null = null;

  constructor(private readonly deps: EquityWatchDeps) {}

  /** The last computed equity and peak; null before the first update. */
  get current(): EquitySnapshot | null {
    return this.latest;
  }

  /** The last equity with its parts; null before the first update. */
  get equity(): Equity | null {
    return this.latestEquity;
  }

  /** Takes a fresh equity (equity.ts `equityOf`), raises the persisted peak, checks the limit. */
  update(equity: Equity): EquitySnapshot {
    const { limits } = this.deps;
    const total = equity.total;
    const storedPeak = this.storedPeak();
    const d = this.decided;
    // The same total against the same peak (equity did not move): the same snapshot and decision.
    if (d !== null && this.latest !== null && this.unmoved(d, total, storedPeak)) {
      this.latestEquity = equity;
      if (d.breach !== null) this.deps.onBreach(d.breach);
      return this.latest;
    }
    // The greater of the two (Decimal.max's value, without its copy: decimals are immutable).
    const peak = storedPeak === undefined || total.gt(storedPeak) ? total : storedPeak;
    if (storedPeak === undefined || !same(peak, storedPeak)) this.persistPeak(peak);
    this.latest = { currentQuote: total, peakQuote: peak };
    this.latestEquity = equity;
    const breach = this.breachOf(this.latest, limits);
    this.decided = { total, peak, breach };
    if (breach !== null) this.deps.onBreach(breach);
    return this.latest;
  }

  private unmoved(d: { total: Decimal; peak: Decimal }, total: Decimal, storedPeak: Decimal | undefined): boolean {
    return storedPeak !== undefined && same(storedPeak, d.peak) && same(total, d.total);
  }

  /** The breach reason of a snapshot, null when within the limit. */
  private breachOf(s: EquitySnapshot, limits: RiskLimits): string | null {
    const { currentQuote: total, peakQuote: peak } = s;
    const w = this.within;
    if (w !== null && same(w.peak, peak) && atLeast(total, w.total)) return null;
    if (!drawdownBreached(s, limits)) {
      this.within = { peak, total };
      return null;
    }
    return `drawdown: equity ${total.toFixed(2)} below peak ${peak.toFixed(2)} by more than ${limits.maxDrawdownPct.toFixed()} %`;
  }

  private storedPeak(): Decimal | undefined {
    if (this.kept === null) {
      const stored = this.deps.store.meta.get(EQUITY_PEAK_KEY);
      this.kept = { peak: stored === undefined ? undefined : new Decimal(stored) };
    }
    return this.kept.peak;
  }

  private persistPeak(peak: Decimal): void {
    this.kept = null;
    this.deps.store.meta.set(EQUITY_PEAK_KEY, peak.toFixed());
    this.kept = { peak };
  }

  /**
   * Forgets the persisted peak (operator `--resume-trading`): a drawdown halt would otherwise
   * re-trip at once against the old peak. The next update starts a new peak.
   */
  resetPeak(): void {
    this.kept = null;
    this.deps.store.meta.delete(EQUITY_PEAK_KEY);
    this.kept = { peak: undefined };
    this.latest = null;
    this.latestEquity = null;
    this.decided = null;
    this.within = null;
  }
}
