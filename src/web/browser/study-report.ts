/**
 * The optimisation report's page script (src/optimize/report/; inlined into the one
 * self-contained file as a module, so it imports nothing). It draws the two equity curves with
 * the inlined charting library and sorts the trials table on a header click. It builds no HTML:
 * the tables and the SVG scatters are rendered in Node, escaped; sorting only moves rows, by the
 * integer rank each cell carries (`data-k`, computed in Node with exact decimals; empty = no value,
 * always last). It sets `window.reportState` for the browser test.
 */
import type { IChartApi, LineData, UTCTimestamp } from 'lightweight-charts';
import type * as LightweightCharts from 'lightweight-charts';

/** [UTC seconds, value as a decimal string] */
type ChartPoint = [number, string];

/** The embedded data (src/optimize/report/chart-data.ts `StudyChartData`). */
interface StudyData {
  colours: { bestEquity: string; oosEquity: string; point: string; best: string };
  bestEquity: ChartPoint[];
  oosEquity: ChartPoint[];
}

interface ReportState {
  charts: number;
  ready: boolean;
  sort: { column: number; direction: 'ascending' | 'descending' } | null;
}

const LC = (window as unknown as { LightweightCharts: typeof LightweightCharts }).LightweightCharts;
const data = JSON.parse(document.getElementById('report-data')?.textContent ?? '{}') as StudyData;
const state: ReportState = { charts: 0, ready: false, sort: null };
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

function equity(id: string, points: readonly ChartPoint[], colour: string): void {
  const c = points.length === 0 ? null : chart(id);
  if (c === null) return;
  c.addSeries(LC.LineSeries, { color: colour, lineWidth: 2, priceFormat: { type: 'price', precision: 2, minMove: 0.01 } }).setData(line(points));
  c.timeScale().fitContent();
}

/** A cell's rank, or null when it has no value. */
function rank(row: HTMLTableRowElement, column: number): number | null {
  const k = row.cells[column]?.dataset['k'] ?? '';
  return k === '' ? null : Number(k);
}

function sortTable(table: HTMLTableElement, original: readonly HTMLTableRowElement[], column: number): void {
  const direction = state.sort?.column === column && state.sort.direction === 'ascending' ? 'descending' : 'ascending';
  const sign = direction === 'ascending' ? 1 : -1;
  const keyed = original.map((row, position) => ({ row, position, k: rank(row, column) }));
  keyed.sort((a, b) => {
    if (a.k === null || b.k === null) return (a.k === null ? 1 : 0) - (b.k === null ? 1 : 0) || a.position - b.position;
    return (a.k - b.k) * sign || a.position - b.position;
  });
  table.tBodies[0]?.replaceChildren(...keyed.map((e) => e.row));
  for (const th of table.querySelectorAll<HTMLElement>('th[data-col]')) {
    th.setAttribute('aria-sort', Number(th.dataset['col']) === column ? direction : 'none');
  }
  state.sort = { column, direction };
}

function sortable(): void {
  const table = document.getElementById('trials') as HTMLTableElement | null;
  const body = table?.tBodies[0];
  if (table === null || body === undefined) return;
  const original = [...body.rows];
  for (const th of table.querySelectorAll<HTMLElement>('th[data-col]')) {
    const column = Number(th.dataset['col']);
    th.addEventListener('click', () => sortTable(table, original, column));
    th.addEventListener('keydown', (e) => {
      if (e.key === 'Enter' || e.key === ' ') {
        e.preventDefault();
        sortTable(table, original, column);
      }
    });
  }
}

equity('chart-best-equity', data.bestEquity, data.colours.bestEquity);
equity('chart-oos-equity', data.oosEquity, data.colours.oosEquity);
sortable();
// Two frames: the library paints on the next animation frame after setData.
requestAnimationFrame(() => requestAnimationFrame(() => {
  state.ready = true;
}));
