/**
 * The backtest report's page script (src/backtest/report/; inlined into the one self-contained
 * file as a module, so it imports nothing). It reads the embedded JSON and draws with the inlined
 * charting library; it builds no HTML from the data (the tables are rendered in Node, escaped),
 * and it sets `window.reportState` for the browser test. The library's logo stays off the plot:
 * its attribution notice and link are in the report's footer.
 */
import type { AreaSeriesPartialOptions, IChartApi, LineData, LineSeriesPartialOptions, SeriesMarker, Time, UTCTimestamp } from 'lightweight-charts';
import type * as LightweightCharts from 'lightweight-charts';

/** [UTC seconds, value as a decimal string] */
type ChartPoint = [number, string];

/** The embedded data (src/backtest/report/chart-data.ts `ChartData`). */
interface ReportData {
  colours: { equity: string; hold: string; drawdown: string; drawdownFill: string; price: string; buy: string; sell: string };
  equity: ChartPoint[];
  /** Buy and hold of the first market beside the equity; null without a starting equity or prices. */
  hold: { market: string; points: ChartPoint[]; changePct: string } | null;
  drawdown: ChartPoint[];
  markets: { precision: number; points: ChartPoint[]; markers: [number, 'b' | 's'][] }[];
}

interface ReportState {
  charts: number;
  markers: number[];
  ready: boolean;
  /** For the browser test: the drawdown axis label of a value. */
  drawdownLabel?: (v: number) => string;
  /** For the browser test: the drawdown values at the pane's top and bottom. */
  drawdownScale?: () => [number | null, number | null];
}

const LC = (window as unknown as { LightweightCharts: typeof LightweightCharts }).LightweightCharts;
const data = JSON.parse(document.getElementById('report-data')?.textContent ?? '{}') as ReportData;
const C = data.colours;
const state: ReportState = { charts: 0, markers: [], ready: false };
(window as unknown as { reportState: ReportState }).reportState = state;

/** Plotting only: the tables show the exact decimal strings. */
function line(points: readonly ChartPoint[]): LineData[] {
  return points.map((p) => ({ time: p[0] as UTCTimestamp, value: Number(p[1]) }));
}

function chart(id: string): IChartApi | null {
  const el = document.getElementById(id);
  if (el === null) return null;
  state.charts += 1;
  return LC.createChart(el, {
    autoSize: true,
    layout: { background: { type: LC.ColorType.Solid, color: '#ffffff' }, textColor: '#37414b', fontSize: 12, attributionLogo: false },
    grid: { vertLines: { color: '#f0f2f5' }, horzLines: { color: '#f0f2f5' } },
    rightPriceScale: { borderColor: '#d0d7de' },
    timeScale: { borderColor: '#d0d7de', timeVisible: true, secondsVisible: false },
    crosshair: { mode: LC.CrosshairMode.Normal },
  });
}

function equity(): void {
  const c = chart('chart-equity');
  if (c === null) return;
  const price = { type: 'price', precision: 2, minMove: 0.01 } as const;
  if (data.hold !== null) {
    const hold: LineSeriesPartialOptions = { color: C.hold, lineWidth: 1, lineStyle: LC.LineStyle.Dashed, priceFormat: price };
    c.addSeries(LC.LineSeries, hold).setData(line(data.hold.points));
  }
  c.addSeries(LC.LineSeries, { color: C.equity, lineWidth: 2, priceFormat: price }).setData(line(data.equity));
  c.timeScale().fitContent();
}

function drawdown(): void {
  const c = chart('chart-drawdown');
  if (c === null) return;
  const options: AreaSeriesPartialOptions = {
    lineColor: C.drawdown, topColor: C.drawdownFill, bottomColor: C.drawdownFill, lineWidth: 2,
    // Its own formatter: the library's 'percent' format rounded -0.8 to "-1.0%" on the axis.
    invertFilledArea: true, priceFormat: { type: 'custom', minMove: 0.0001, formatter: (v: number) => `${v.toFixed(2)} %` },
  };
  const s = c.addSeries(LC.AreaSeries, options);
  s.setData(line(data.drawdown));
  c.timeScale().fitContent();
  state.drawdownLabel = (v) => s.priceFormatter().format(v);
  state.drawdownScale = () => {
    const h = (document.getElementById('chart-drawdown')?.clientHeight ?? 0) - c.timeScale().height();
    return [s.coordinateToPrice(0), s.coordinateToPrice(h)];
  };
}

function market(m: ReportData['markets'][number], i: number): void {
  const c = chart(`chart-price-${i}`);
  if (c === null) return;
  const step = Math.pow(10, -m.precision);
  const s = c.addSeries(LC.LineSeries, { color: C.price, lineWidth: 1, priceFormat: { type: 'price', precision: m.precision, minMove: step } });
  s.setData(line(m.points));
  const markers = m.markers.map(([time, side]): SeriesMarker<Time> => {
    const buy = side === 'b';
    return { time: time as UTCTimestamp, position: buy ? 'belowBar' : 'aboveBar', shape: buy ? 'arrowUp' : 'arrowDown', color: buy ? C.buy : C.sell };
  });
  LC.createSeriesMarkers(s, markers);
  state.markers[i] = markers.length;
  c.timeScale().fitContent();
}

equity();
drawdown();
data.markets.forEach(market);
// Two frames: the library paints on the next animation frame after setData.
requestAnimationFrame(() => requestAnimationFrame(() => {
  state.ready = true;
}));
