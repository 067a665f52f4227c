/**
 * The dashboard's equity and drawdown charts. The library's logo stays off the plot
 * (`attributionLogo: false`): its attribution notice and link are in the page footer.
 */
import type { IChartApi, ISeriesApi, LineData, UTCTimestamp } from 'lightweight-charts';
import { chartLibrary } from './chart-global.js';
import type { EquityView } from './dashboard-state.js';
import { byId } from './dom.js';

interface Charts {
  equity: ISeriesApi<'Line'>;
  peak: ISeriesApi<'Line'>;
  drawdown: ISeriesApi<'Area'>;
  charts: IChartApi[];
}

let charts: Charts | null = null;

function makeCharts(): Charts | null {
  const LC = chartLibrary();
  if (LC === null) return null;
  const make = (id: string, height: number): IChartApi => LC.createChart(byId(id), {
    height,
    autoSize: true,
    layout: { background: { color: 'transparent' }, textColor: '#8a96a3', attributionLogo: false },
    grid: { vertLines: { color: '#222a33' }, horzLines: { color: '#222a33' } },
    timeScale: { timeVisible: true, secondsVisible: true },
  });
  const eq = make('equity-chart', 220);
  const dd = make('drawdown-chart', 110);
  return {
    equity: eq.addSeries(LC.LineSeries, { color: '#58a6ff', lineWidth: 2 }),
    peak: eq.addSeries(LC.LineSeries, { color: '#8a96a3', lineWidth: 1, lineStyle: 2 }),
    drawdown: dd.addSeries(LC.AreaSeries, { lineColor: '#f85149', topColor: 'rgba(248,81,73,0.4)', bottomColor: 'rgba(248,81,73,0.05)', invertFilledArea: false }),
    charts: [eq, dd],
  };
}

/** One point per whole second (the library's time unit): the last of a second wins. */
function perSecond(points: EquityView['points']): Array<[UTCTimestamp, EquityView['points'][number]]> {
  const out: Array<[UTCTimestamp, EquityView['points'][number]]> = [];
  for (const p of points) {
    const t = Math.floor(p.t / 1000) as UTCTimestamp;
    const last = out[out.length - 1];
    if (last !== undefined && last[0] === t) last[1] = p;
    else out.push([t, p]);
  }
  return out;
}

/** Draws the equity history; returns the number of points drawn (0 without the library). */
export function renderCharts(e: EquityView): number {
  charts ??= makeCharts();
  if (charts === null) return 0;
  const pts = perSecond(e.points);
  // Plotting only: the figures beside the chart stay exact decimal strings.
  const line = (value: (p: EquityView['points'][number]) => number): LineData[] => pts.map(([time, p]) => ({ time, value: value(p) }));
  charts.equity.setData(line((p) => Number(p.equity)));
  charts.peak.setData(line((p) => Number(p.peak)));
  charts.drawdown.setData(line((p) => -Number(p.drawdownPct)));
  for (const c of charts.charts) c.timeScale().fitContent();
  return pts.length;
}
