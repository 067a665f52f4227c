/**
 * A `TrialExecutor` over a pure, deterministic function of the trial (for the coordinator's and
 * the study store's tests, where the orchestration is under test and a real backtest would only
 * add minutes): the outcome's figures follow from the params and the window.
 */
import { Decimal } from '../../../src/core/decimal.js';
import type { BacktestMetrics } from '../../../src/backtest/result.js';
import type { StudyInputs, TrialExecutor, TrialFailure, TrialOutcome, TrialSpec } from '../../../src/optimize/types.js';

export type End = { ok: true; outcome: TrialOutcome } | { ok: false; failure: TrialFailure };

function metrics(net: Decimal, trades: number): BacktestMetrics {
  return {
    realisedPnl: net.toFixed(), fees: '0', realisedPnlAfterFees: net.toFixed(), unrealisedPnl: '0', flexEarnings: '0', netPnl: net.toFixed(),
    orders: trades * 2, fills: trades * 2, trades, winRate: null, maxDrawdown: '0', exposure: '0', sharpeDaily: null,
  };
}

/**
 * net = levels × spacing − |levels − target| × window days / 2 (so the best params differ by window); a
 * trial with `fail: true` fails.
 */
export function pureTrial(spec: TrialSpec, target = 4): End {
  if (spec.params['fail'] === true) return { ok: false, failure: { key: spec.key, error: `trial ${spec.index} refused: fail is set` } };
  const levels = new Decimal(String(spec.params['levels'] ?? 1));
  const spacing = new Decimal(String(spec.params['spacingPct'] ?? '1'));
  const days = new Decimal(spec.window.toMs - spec.window.fromMs).div(86_400_000);
  const net = levels.mul(spacing).minus(levels.minus(target).abs().mul(days).div(2));
  const equity = [
    { timeMs: spec.window.fromMs, equity: '1000' },
    { timeMs: spec.window.toMs, equity: new Decimal(1000).plus(net).toFixed() },
  ];
  const outcome: TrialOutcome = { key: spec.key, metrics: metrics(net, levels.toNumber() * 2), equity, tradePnls: [net.toFixed()], elapsedMs: 0, ranBy: 'pure:0' };
  return { ok: true, outcome };
}

export interface FakeExecutorOptions {
  slots?: number;
  /** Called before each trial's report; a promise delays it (the child process's slow mode). */
  before?: (spec: TrialSpec) => Promise<void> | void;
  /** Report every outcome this many times (exactly-once tests). */
  repeat?: number;
  /** The trial function (default pureTrial). */
  trial?: (spec: TrialSpec) => End;
}

export class FakeExecutor implements TrialExecutor {
  readonly slots: number;
  readonly ran: string[] = [];

  constructor(private readonly options: FakeExecutorOptions = {}) {
    this.slots = options.slots ?? 2;
  }

  async run(_inputs: StudyInputs, trials: readonly TrialSpec[], onEnd: (end: End) => void, signal: AbortSignal): Promise<void> {
    for (const spec of trials) {
      if (signal.aborted) return;
      await this.options.before?.(spec);
      if (signal.aborted) return;
      this.ran.push(spec.key);
      const end = (this.options.trial ?? pureTrial)(spec);
      for (let i = 0; i < (this.options.repeat ?? 1); i++) onEnd(end);
    }
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}
