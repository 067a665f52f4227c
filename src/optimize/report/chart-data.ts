/**
 * The data the page script draws: the best trial's equity and the stitched out-of-sample equity,
 * thinned like the backtest report's (each bucket's low and high kept), one point per UTC second
 * (the charting library's time unit), values still decimal strings.
 */
import { downsampleEquity } from '../../backtest/downsample.js';
import { MAX_CHART_POINTS, perSecond, type ChartPoint } from '../../backtest/report/chart-data.js';
import type { EquityPoint } from '../../backtest/result.js';
import type { StudyResult } from '../types.js';
import { STUDY_COLOURS } from './colours.js';

export interface StudyChartData {
  colours: typeof STUDY_COLOURS;
  /** Empty without a best trial (or when it has no equity). */
  bestEquity: ChartPoint[];
  /** Empty outside walk-forward. */
  oosEquity: ChartPoint[];
}

function series(equity: readonly EquityPoint[]): ChartPoint[] {
  // Sorted first: the stitched curve joins folds, and the library refuses a time going back.
  const inOrder = [...equity].sort((a, b) => a.timeMs - b.timeMs);
  return perSecond(downsampleEquity(inOrder, MAX_CHART_POINTS), (p) => p.equity);
}

export function studyChartData(result: StudyResult): StudyChartData {
  return {
    colours: STUDY_COLOURS,
    bestEquity: series(result.best?.equity ?? []),
    oosEquity: series(result.walkForward?.stitchedEquity ?? []),
  };
}
