/**
 * Credit-line check: records the loan and its LTVs; "no active loan" is a normal state.
 *
 * Hysteresis: LTV ≥ `reduceOnlyFraction` × marginCallLtv switches ACTIVE → REDUCE_ONLY; only when
 * LTV falls below `resumeFraction` × marginCallLtv (and the job itself set REDUCE_ONLY) does it go
 * back to ACTIVE, so an LTV hovering at the threshold does not flap. A HALTED state, or a
 * REDUCE_ONLY set by someone else, is never overridden.
 */
import type { Clock } from '../core/clock.js';
import { Decimal } from '../core/decimal.js';
import { AuthError } from '../core/errors.js';
import type { ExchangeGateway } from '../exchange/gateway.js';
import type { Logger } from '../observability/logger.js';
import type { Store } from '../store/index.js';
import type { TradingStateController } from './trading-state.js';

export interface CreditJobOptions {
  /** Fraction of marginCallLtv at which trading becomes REDUCE_ONLY. Default 0.8. */
  reduceOnlyFraction?: Decimal;
  /** Fraction of marginCallLtv below which the job lifts its own REDUCE_ONLY. Default 0.7. */
  resumeFraction?: Decimal;
  /**
   * Default true: every check records a snapshot (the credit history `npm run status` and the
   * dashboard read). False (a backtest's throwaway store, daemon/engine.ts EngineOptions): a check
   * that finds no active loan after one this job already recorded as such records nothing; a loan,
   * or the first check, is recorded as always, so the newest snapshot says the same.
   */
  recordEveryCheck?: boolean;
}

/** `disabled`: the credit line is not enabled for this key (HTTP 404); the job stopped asking. */
export type CreditRunReport =
  | { active: false; disabled?: true }
  | { active: true; currentLtv: Decimal; marginCallLtv: Decimal; ratio: Decimal; action: 'none' | 'reduce_only' | 'resumed' };

const REASON_PREFIX = 'credit:';

export class CreditJob {
  private disabled = false;
  private readonly reduceAt: Decimal;
  private readonly resumeBelow: Decimal;
  private readonly recordEveryCheck: boolean;
  /** The last snapshot this job recorded was of no active loan. */
  private recordedInactive = false;

  constructor(
    private readonly deps: { store: Store; gateway: ExchangeGateway; clock: Clock; logger: Logger; tradingState: TradingStateController },
    options: CreditJobOptions = {},
  ) {
    this.reduceAt = options.reduceOnlyFraction ?? new Decimal('0.8');
    this.resumeBelow = options.resumeFraction ?? new Decimal('0.7');
    if (this.resumeBelow.gt(this.reduceAt)) throw new RangeError('resumeFraction must be ≤ reduceOnlyFraction');
    this.recordEveryCheck = options.recordEveryCheck ?? true;
  }

  runOnce(): Promise<CreditRunReport> {
    // A gateway that knows "no active loan" without a request (in process): the same report and
    // writes at once, without the request's async turns (the backtest's check at every candle).
    // A failure is the returned promise's, as the async path's is.
    try {
      const known = this.disabled ? undefined : this.deps.gateway.creditLineKnown?.();
      if (known === undefined || known.active) return this.asked();
      return Promise.resolve(this.noLoan());
    } catch (err) {
      return Promise.reject(err as Error);
    }
  }

  /** A check that asks the venue. */
  private async asked(): Promise<CreditRunReport> {
    const { store, clock, tradingState } = this.deps;
    if (this.disabled) return { active: false, disabled: true };
    const s = await this.creditLine();
    if (s === undefined) return { active: false, disabled: true };
    if (!s.active) return this.noLoan();
    const now = clock.now();
    const l = s.loan;
    this.recordedInactive = false;
    store.tx(() =>
      store.credit.record({
        atMs: now,
        active: true,
        asset: l.asset,
        amount: l.amount,
        totalFunding: l.totalFunding,
        currentLtv: l.currentLtv,
        initialLtv: l.initialLtv,
        marginCallLtv: l.marginCallLtv,
        liquidationLtv: l.liquidationLtv,
      }),
    );
    const ratio = l.marginCallLtv.isZero() ? new Decimal(0) : l.currentLtv.div(l.marginCallLtv);
    let action: 'none' | 'reduce_only' | 'resumed' = 'none';
    if (ratio.gte(this.reduceAt)) {
      if (tradingState.get() === 'ACTIVE') {
        tradingState.set('REDUCE_ONLY', `${REASON_PREFIX} LTV ${l.currentLtv.toFixed()} ≥ ${this.reduceAt.toFixed()} × marginCallLtv ${l.marginCallLtv.toFixed()}`);
        action = 'reduce_only';
      }
    } else if (ratio.lt(this.resumeBelow)) {
      if (this.maybeResume(`LTV ${l.currentLtv.toFixed()} < ${this.resumeBelow.toFixed()} × marginCallLtv`)) action = 'resumed';
    }
    return { active: true, currentLtv: l.currentLtv, marginCallLtv: l.marginCallLtv, ratio, action };
  }

  /** The venue's credit line; undefined once the key turned out not to have one (the job is disabled). */
  private async creditLine(): Promise<Awaited<ReturnType<ExchangeGateway['creditLine']>> | undefined> {
    try {
      return await this.deps.gateway.creditLine();
    } catch (err) {
      // Not enabled for this key (404) or not permitted: one warning, then the job stays quiet
      // until restart instead of failing every run.
      if (err instanceof AuthError && (err.kind === 'feature_unavailable' || err.kind === 'permission_denied')) {
        this.disabled = true;
        this.deps.logger.warn({ code: err.code }, 'credit line is not enabled for this API key; credit job disabled');
        return undefined;
      }
      throw err;
    }
  }

  /** The venue has no active loan: recorded (`recordEveryCheck`), a REDUCE_ONLY of this job's lifted. */
  private noLoan(): CreditRunReport {
    if (this.recordEveryCheck || !this.recordedInactive) this.recordInactive(this.deps.clock.now());
    this.maybeResume('no active loan');
    return { active: false };
  }

  private recordInactive(atMs: number): void {
    const { store } = this.deps;
    const none = { asset: null, amount: null, totalFunding: null, currentLtv: null, initialLtv: null, marginCallLtv: null, liquidationLtv: null };
    store.tx(() => store.credit.record({ atMs, active: false, ...none }));
    this.recordedInactive = true;
  }

  private maybeResume(why: string): boolean {
    const ts = this.deps.tradingState;
    if (ts.get() === 'REDUCE_ONLY' && ts.reason().startsWith(REASON_PREFIX)) {
      ts.set('ACTIVE', `${REASON_PREFIX} resumed: ${why}`);
      return true;
    }
    return false;
  }
}
