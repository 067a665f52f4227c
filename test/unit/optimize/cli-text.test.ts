import { describe, expect, it } from 'vitest';
import { progressBar, progressLine, summary } from '../../../src/optimize/cli-text.js';
import type { BacktestMetrics } from '../../../src/backtest/result.js';
import type { StudyResult } from '../../../src/optimize/types.js';

const METRICS: BacktestMetrics = {
  realisedPnl: '12', fees: '2', realisedPnlAfterFees: '10', unrealisedPnl: '0', flexEarnings: '0', netPnl: '10',
  orders: 4, fills: 4, trades: 3, winRate: '0.5', maxDrawdown: '0.1', exposure: '0.5', sharpeDaily: null,
};
const DAY = 86_400_000;

describe('the optimise command text', () => {
  it('draws the bar with trials done, the best so far and the time left at this run rate', () => {
    // 4 run now in 20 s: 5 s each, 6 left → 30 s.
    expect(progressBar({ done: 6, total: 12, failed: 1, best: '8.5', ranNow: 4 }, 20_000, 12)).toBe('\r[######......] 6/12 trials  best 8.5  ETA 30s  failed 1   ');
    expect(progressBar({ done: 2, total: 12, failed: 0, best: null, ranNow: 0 }, 1_000, 12)).toBe('\r[##..........] 2/12 trials  best --  ETA --   ');
    expect(progressLine({ done: 12, total: 12, failed: 0, best: '8.5', ranNow: 10 }, 61_000)).toBe('optimize: 12/12 trials (10 run now in 61.0 s, 0 failed), best objective 8.5\n');
  });

  it('sums the study up: best params, the walk-forward table and the flags', () => {
    const result = {
      version: 1, study: 's1', objective: 'net', search: 'grid', seed: 42, trials: [{}, {}], failures: [{}],
      best: { params: { levels: 4, spacingPct: '0.2' }, objective: '10', metrics: METRICS, equity: [] },
      walkForward: {
        folds: [{ fold: 0, train: { fromMs: 0, toMs: 10 * DAY }, test: { fromMs: 10 * DAY, toMs: 15 * DAY }, bestParams: { levels: 4 }, inSample: '10', outOfSample: null, testMetrics: METRICS }],
        stitchedEquity: [],
      },
      flags: [{ code: 'few_trades', fold: 0, message: 'fold 0 test window: few' }],
    } as unknown as StudyResult;
    expect(summary(result, 'out', 'out/study.sqlite')).toBe(
      [
        'study s1: 2 trials (+1 failed), objective net, grid search, seed 42',
        'best: levels=4 spacingPct=0.2  objective 10  net PnL 10  trades 3',
        'walk-forward:',
        '  fold  train                   test                    in-sample  out-of-sample  trades  params',
        '  0     1970-01-01..1970-01-11  1970-01-11..1970-01-16  10         --             3       levels=4',
        'flags:',
        '  few_trades: fold 0 test window: few',
        '→ out/result.json, out/report.html (study file out/study.sqlite)',
        '',
      ].join('\n'),
    );
  });
});
