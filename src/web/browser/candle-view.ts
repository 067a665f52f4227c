/**
 * The candle chart's data as the page draws it, from `GET /api/candles` (src/console/candles.ts):
 * bars with empty slots over gaps, the bot's fills as markers and the protective legs as price
 * lines. No DOM here (unit-tested in Node). Prices become numbers only in the bars and lines the
 * library draws; every label is the decimal string rounded as a string (format.ts).
 */
import { Precision, type MarketSteps } from './format.js';

export interface ApiCandle {
  /** Bucket start, ms. */
  t: number;
  open: string;
  high: string;
  low: string;
  close: string;
  volume: string | null;
  /** One-minute candles it was built from (fewer than the timeframe holds over a gap). */
  minutes: number;
}

export interface ApiFill {
  dealId: number;
  t: number;
  side: string;
  amount: string;
  price: string;
  role: string;
  strategyId: string | null;
}

export interface ApiLeg {
  kind: string;
  price: string;
  state: string;
  strategyId: string;
  parent: string;
}

export interface CandleAnswer {
  market: string;
  /** Whose candles these are: the market's own, or the listing ticker that prices it. */
  source: string;
  timeframe: string;
  count: number;
  nowMs: number;
  candles: ApiCandle[];
  open: ApiCandle | null;
  fills: ApiFill[];
  legs: ApiLeg[];
}

/** A bar in the library's shape (time in UTC seconds); an empty slot has only its time. */
export type Bar = { time: number } | OhlcBar;

interface OhlcBar {
  time: number;
  open: number;
  high: number;
  low: number;
  close: number;
  color?: string;
  borderColor?: string;
  wickColor?: string;
}

export interface MarkerView {
  time: number;
  position: 'aboveBar' | 'belowBar';
  shape: 'arrowUp' | 'arrowDown';
  color: string;
  text: string;
  id: string;
}

export interface LineView {
  price: number;
  title: string;
  color: string;
}

/** What the browser tests read of one chart, from the library's own series API. */
export interface CandleProbe {
  timeframe: string;
  draws: number;
  /** Time-scale slots from the first candle to the last: the candles and the empty slots of gaps. */
  slots: number;
  candles: number;
  open: boolean;
  markers: string[];
  priceLines: string[];
  /** The heading's note on whose prices are drawn ('' for the market's own). */
  source: string;
}

export const COLOURS = { up: '#3fb950', down: '#f85149', open: '#58a6ff', openBody: 'rgba(88,166,255,0.25)', buy: '#3fb950', sell: '#f85149', stopLoss: '#f85149', takeProfit: '#3fb950' };

/** Empty slots drawn for one gap: a longer gap shows its first and last ones (the time axis shows the jump). */
export const MAX_GAP_SLOTS = 20;

const TIMEFRAME_MS: Readonly<Record<string, number>> = { '1m': 60_000, '5m': 300_000, '15m': 900_000, '1h': 3_600_000, '4h': 14_400_000, '1d': 86_400_000 };

export function timeframeMs(timeframe: string): number {
  return TIMEFRAME_MS[timeframe] ?? 60_000;
}

const seconds = (ms: number): number => Math.floor(ms / 1000);

/** Bucket starts missing between two candles, at most `MAX_GAP_SLOTS` of them. */
function gapSlots(fromMs: number, toMs: number, len: number): number[] {
  const missing = Math.round((toMs - fromMs) / len) - 1;
  const out: number[] = [];
  const half = MAX_GAP_SLOTS / 2;
  for (let i = 1; i <= missing; i++) {
    if (missing <= MAX_GAP_SLOTS || i <= half || i > missing - half) out.push(fromMs + i * len);
  }
  return out;
}

/** Drawing only: the candle's prices as numbers; the open candle hollow in the accent colour. */
function bar(c: ApiCandle, open: boolean): Bar {
  const b = { time: seconds(c.t), open: Number(c.open), high: Number(c.high), low: Number(c.low), close: Number(c.close) };
  return open ? { ...b, color: COLOURS.openBody, borderColor: COLOURS.open, wickColor: COLOURS.open } : b;
}

/** The closed candles, then the open one, with empty slots over gaps: no candle is invented. */
export function bars(a: CandleAnswer): Bar[] {
  const len = timeframeMs(a.timeframe);
  const all = a.open === null || a.candles.some((c) => c.t >= (a.open as ApiCandle).t) ? a.candles : [...a.candles, a.open];
  const out: Bar[] = [];
  let prev: number | null = null;
  for (const c of all) {
    if (prev !== null) for (const t of gapSlots(prev, c.t, len)) out.push({ time: seconds(t) });
    out.push(bar(c, c === a.open));
    prev = c.t;
  }
  return out;
}

/** One marker per fill at its candle: buys below the bar, sells above, labelled with amount and price. */
export function markers(a: CandleAnswer, markets: Readonly<Record<string, MarketSteps>>): MarkerView[] {
  const len = timeframeMs(a.timeframe);
  const p = new Precision(markets);
  return a.fills.map((f) => {
    const buy = f.side === 'buy';
    return {
      time: seconds(Math.floor(f.t / len) * len),
      position: buy ? 'belowBar' : 'aboveBar',
      shape: buy ? 'arrowUp' : 'arrowDown',
      color: buy ? COLOURS.buy : COLOURS.sell,
      text: `${buy ? 'B' : 'S'} ${p.amount(a.market, f.amount)} @ ${p.price(a.market, f.price)}`,
      id: String(f.dealId),
    };
  });
}

const LEG_NAMES: Readonly<Record<string, string>> = { stop_loss: 'SL', take_profit: 'TP' };

/** The live protective legs as labelled price lines: `SL trend1`, with the state when not active. */
export function legLines(a: CandleAnswer, markets: Readonly<Record<string, MarketSteps>>): LineView[] {
  const p = new Precision(markets);
  return a.legs.map((l) => ({
    price: Number(l.price),
    title: `${LEG_NAMES[l.kind] ?? l.kind} ${l.strategyId} ${p.price(a.market, l.price)}${l.state === 'active' ? '' : ` (${l.state})`}`,
    color: l.kind === 'stop_loss' ? COLOURS.stopLoss : COLOURS.takeProfit,
  }));
}

/** The hover legend of the candle starting at `ms`: its prices and the fills in it (exact strings, rounded as strings). */
export function legend(a: CandleAnswer, ms: number, markets: Readonly<Record<string, MarketSteps>>): string {
  const p = new Precision(markets);
  const c = a.open?.t === ms ? a.open : a.candles.find((x) => x.t === ms);
  if (c === undefined) return '';
  const len = timeframeMs(a.timeframe);
  const price = (v: string): string => p.price(a.market, v);
  const full = len / 60_000;
  const when = new Date(ms).toISOString().slice(0, 16).replace('T', ' ');
  const head = `${when}${c === a.open ? ' (open)' : ''}  O ${price(c.open)}  H ${price(c.high)}  L ${price(c.low)}  C ${price(c.close)}`
    + (c.minutes < full && c !== a.open ? `  (${c.minutes} of ${full} minutes)` : '');
  const fills = a.fills
    .filter((f) => f.t >= ms && f.t < ms + len)
    .map((f) => `${f.side} ${p.amount(a.market, f.amount)} @ ${price(f.price)}${f.strategyId === null ? '' : ` (${f.strategyId})`}`);
  return fills.length === 0 ? head : `${head}  ·  ${fills.join(', ')}`;
}
