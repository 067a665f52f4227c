/**
 * The candle chart of each traded market: a timeframe picker, candles from `GET /api/candles`
 * (the open one hollow, in the accent colour), the bot's fills as markers and the live protective
 * legs as price lines. Each state render (the event stream, at least every 15 s) fetches again,
 * one request per chart at a time. The library's logo stays off the plot (the footer credits it).
 */
import type { AutoscaleInfo, CandlestickData, IChartApi, ISeriesApi, ISeriesMarkersPluginApi, LineStyle, Time, UTCTimestamp, WhitespaceData } from 'lightweight-charts';
import { bars, COLOURS, legend, legLines, markers, type CandleAnswer, type CandleProbe } from './candle-view.js';
import { chartLibrary, type ChartLibrary } from './chart-global.js';
import type { DashboardState } from './dashboard-state.js';
import { byId, el } from './dom.js';
import { placesOf, type MarketSteps } from './format.js';

interface Panel {
  market: string;
  timeframe: string;
  chart: IChartApi;
  series: ISeriesApi<'Candlestick'>;
  markers: ISeriesMarkersPluginApi<Time>;
  legend: HTMLElement;
  picker: HTMLElement;
  /** Says whose prices are drawn when they are another ticker's. */
  source: HTMLElement;
  last: CandleAnswer | null;
  /** The legs' prices: the price scale stretches to keep their lines in view. */
  legPrices: number[];
  busy: boolean;
  again: boolean;
  /** Fit the view to the data on the next draw (first draw, new timeframe). */
  fit: boolean;
  draws: number;
}

const panels = new Map<string, Panel>();
let steps: Readonly<Record<string, MarketSteps>> = {};

/** The series' own price range stretched over the legs' prices (a stop-loss 2 % away stays on screen). */
function withLegs(own: AutoscaleInfo | null, prices: readonly number[]): AutoscaleInfo | null {
  if (own?.priceRange == null || prices.length === 0) return own;
  const { minValue, maxValue } = own.priceRange;
  return { ...own, priceRange: { minValue: Math.min(minValue, ...prices), maxValue: Math.max(maxValue, ...prices) } };
}

function makeChart(LC: ChartLibrary, host: HTMLElement, market: string, legPrices: () => number[]): Pick<Panel, 'chart' | 'series' | 'markers'> {
  const chart = LC.createChart(host, {
    autoSize: true,
    layout: { background: { color: 'transparent' }, textColor: '#8a96a3', attributionLogo: false },
    grid: { vertLines: { color: '#222a33' }, horzLines: { color: '#222a33' } },
    timeScale: { timeVisible: true, secondsVisible: false },
    crosshair: { mode: LC.CrosshairMode.Normal },
  });
  const tick = steps[market]?.tick ?? '0.01';
  const series = chart.addSeries(LC.CandlestickSeries, {
    upColor: COLOURS.up, downColor: COLOURS.down, borderUpColor: COLOURS.up, borderDownColor: COLOURS.down,
    wickUpColor: COLOURS.up, wickDownColor: COLOURS.down,
    // Drawing only: the axis shows prices at the market's tick.
    priceFormat: { type: 'price', precision: placesOf(tick), minMove: Number(tick) },
    autoscaleInfoProvider: (own: () => AutoscaleInfo | null) => withLegs(own(), legPrices()),
  });
  return { chart, series, markers: LC.createSeriesMarkers(series, []) };
}

function picker(p: Panel, timeframes: readonly string[]): void {
  p.picker.replaceChildren(
    ...timeframes.map((tf) => {
      const b = el('button', tf, tf === p.timeframe ? 'tf active' : 'tf');
      b.type = 'button';
      b.dataset['timeframe'] = tf;
      b.addEventListener('click', () => {
        if (p.timeframe === tf) return;
        p.timeframe = tf;
        p.fit = true;
        for (const other of p.picker.querySelectorAll('button')) other.classList.toggle('active', other.dataset['timeframe'] === tf);
        void load(p);
      });
      return b;
    }),
  );
}

function makePanel(LC: ChartLibrary, market: string, st: DashboardState): Panel {
  const box = el('div', null, 'candle-panel');
  box.dataset['market'] = market;
  const head = el('div', null, 'candle-head');
  const pick = el('span', null, 'picker');
  const source = el('span', null, 'candle-source');
  head.append(el('b', market), pick, source);
  const legendEl = el('div', null, 'candle-legend');
  const host = el('div', null, 'chart candles');
  box.append(head, host, legendEl);
  byId('candle-charts').appendChild(box);
  const legPrices: number[] = [];
  const p: Panel = {
    market, timeframe: st.charts.defaultTimeframe, ...makeChart(LC, host, market, () => p.legPrices),
    legend: legendEl, picker: pick, source, last: null, legPrices, busy: false, again: false, fit: true, draws: 0,
  };
  picker(p, st.charts.timeframes);
  p.chart.subscribeCrosshairMove((param) => {
    if (p.last === null) return;
    const t = typeof param.time === 'number' ? param.time * 1000 : null;
    p.legend.textContent = t === null ? summary(p.last) : legend(p.last, t, steps) || summary(p.last);
  });
  return p;
}

/** The legend when the pointer is off the chart: the newest candle. */
function summary(a: CandleAnswer): string {
  const newest = a.open ?? a.candles[a.candles.length - 1];
  return newest === undefined ? `${a.market}: no candles recorded yet` : legend(a, newest.t, steps);
}

function draw(p: Panel, a: CandleAnswer, LC: ChartLibrary): void {
  p.last = a;
  p.series.setData(bars(a) as Array<CandlestickData<UTCTimestamp> | WhitespaceData<UTCTimestamp>>);
  p.markers.setMarkers(markers(a, steps).map((m) => ({ ...m, time: m.time as UTCTimestamp })));
  for (const line of p.series.priceLines()) p.series.removePriceLine(line);
  const lines = legLines(a, steps);
  p.legPrices = lines.map((l) => l.price);
  for (const l of lines) {
    const style = LC.LineStyle.Dashed as LineStyle;
    p.series.createPriceLine({ price: l.price, color: l.color, title: l.title, lineWidth: 1, lineStyle: style, axisLabelVisible: true });
  }
  if (p.fit) p.chart.timeScale().fitContent();
  p.fit = false;
  p.legend.textContent = summary(a);
  p.source.textContent = a.source === a.market ? '' : `prices of ${a.source}`;
  p.draws += 1;
}

/** Fetches and draws the panel's candles; a call while one runs asks for one more afterwards. */
async function load(p: Panel): Promise<void> {
  if (p.busy) {
    p.again = true;
    return;
  }
  const LC = chartLibrary();
  if (LC === null) return;
  p.busy = true;
  try {
    const q = new URLSearchParams({ market: p.market, timeframe: p.timeframe });
    const res = await fetch(`/api/candles?${q.toString()}`, { credentials: 'same-origin' }).catch(() => null);
    if (res === null) p.legend.textContent = `${p.market}: daemon unreachable`;
    else if (!res.ok) p.legend.textContent = `${p.market}: ${((await res.json().catch(() => ({}))) as { message?: string }).message ?? `HTTP ${res.status}`}`;
    else {
      const a = (await res.json()) as CandleAnswer;
      // A reply for a timeframe no longer picked is dropped; the pick's own request follows.
      if (a.timeframe === p.timeframe) draw(p, a, LC);
    }
  } finally {
    p.busy = false;
  }
  if (p.again) {
    p.again = false;
    await load(p);
  }
}

/** Makes the traded markets' charts once and refreshes each; returns how many there are. */
export function renderCandles(st: DashboardState): number {
  steps = st.markets;
  const LC = chartLibrary();
  const markets = st.charts.markets;
  byId('candles-section').hidden = markets.length === 0;
  if (LC === null) return 0;
  for (const m of markets) {
    let p = panels.get(m);
    if (p === undefined) {
      p = makePanel(LC, m, st);
      panels.set(m, p);
    }
    void load(p);
  }
  return markets.length;
}

/** The probe of one market's chart (tests): read back through the library's series API. */
export function candleProbe(market: string): CandleProbe | null {
  const p = panels.get(market);
  if (p === undefined) return null;
  const data = p.series.data();
  const ts = p.chart.timeScale();
  const first = data[0] === undefined ? null : ts.timeToIndex(data[0].time, false);
  const last = data[data.length - 1] === undefined ? null : ts.timeToIndex((data[data.length - 1] as { time: Time }).time, false);
  return {
    timeframe: p.timeframe,
    draws: p.draws,
    slots: first === null || last === null ? 0 : last - first + 1,
    candles: data.filter((d) => 'open' in d).length,
    open: p.last?.open !== null && p.last?.open !== undefined,
    markers: p.markers.markers().map((m) => m.text ?? ''),
    priceLines: p.series.priceLines().map((l) => l.options().title),
    source: p.source.textContent ?? '',
  };
}
