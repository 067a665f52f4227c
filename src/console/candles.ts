/**
 * The dashboard's candle chart data (`GET /api/candles?market=M&timeframe=15m&count=200`): the
 * market's candles from the store (docs/market-data.md), the bot's own fills in that window and
 * the protective legs still live on it. Money stays decimal strings; the page turns them into
 * numbers only to draw.
 *
 * A closed candle never changes while the daemon runs (it is the only writer: an import needs the
 * store's lock), so closed candles are read in full once and kept, and when a bucket ends only
 * the new ones are read: a 1h read of 200 candles costs 50 to 70 ms, too much for every poll of
 * every page. Fills are kept until the fills repository's write count moves. The candle still
 * being built is read on every request (at most one bucket of minutes).
 */
import { toWire, type Decimal } from '../core/decimal.js';
import type { FillRecord } from '../model/fills.js';
import type { MarketPrice } from './pnl.js';
import type { Store } from '../store/index.js';
import { TIMEFRAME_MS, TIMEFRAMES, type Candle, type Timeframe } from '../store/types.js';

/** The picker's default and what the page asks first. */
export const DEFAULT_TIMEFRAME: Timeframe = '15m';
export const DEFAULT_COUNT = 200;
/** Most candles one request may ask for. */
export const MAX_COUNT = 500;
/**
 * Most one-minute rows one read may fold: 30 days, the default candle retention (so 1d serves at
 * most 30 candles, 4h 180). A first read of that many takes a few hundred ms on a busy machine.
 */
export const MAX_MINUTES = 43_200;
/** Most fills drawn as markers (the newest in the window). */
export const MAX_FILLS = 500;
/** Cached candle reads kept (markets × timeframes × counts asked). */
const CACHE_ENTRIES = 64;

type JsonCandle = { t: number; open: string; high: string; low: string; close: string; volume: string | null; minutes: number };

export interface CandleChartSources {
  store: Store;
  now(): number;
  /** The markets the configured strategies trade: the only ones the endpoint serves. */
  markets: readonly string[];
  /** The configured markets' increments (the page rounds labels to them). */
  increments: Readonly<Record<string, { tick: Decimal; step: Decimal }>>;
  /** The engine's cached prices: which listing ticker prices a market without candles of its own. */
  prices(): Promise<Readonly<Record<string, MarketPrice>>>;
}

export interface CandleQuery {
  market: string;
  timeframe: Timeframe;
  count: number;
}

/** The answer: a status and its JSON body (an error body has `error` and `message`). */
export interface CandleAnswer {
  status: number;
  body: Record<string, unknown>;
}

const bad = (message: string): CandleAnswer => ({ status: 400, body: { error: 'bad_request', message } });

/** Candles one request of `timeframe` may have: `MAX_COUNT`, fewer where the minutes would exceed `MAX_MINUTES`. */
export function countLimit(timeframe: Timeframe): number {
  return Math.min(MAX_COUNT, Math.floor(MAX_MINUTES / (TIMEFRAME_MS[timeframe] / 60_000)));
}

/** The query, or the reason it is refused. A count above the timeframe's limit is served at the limit. */
export function parseCandleQuery(params: URLSearchParams, markets: readonly string[]): CandleQuery | string {
  const market = params.get('market');
  if (market === null || market === '') return 'market is required';
  if (!markets.includes(market)) return `market must be one of the traded markets (${markets.join(', ') || 'none configured'})`;
  const tf = params.get('timeframe') ?? DEFAULT_TIMEFRAME;
  if (!(TIMEFRAMES as readonly string[]).includes(tf)) return `timeframe must be one of ${TIMEFRAMES.join(', ')}`;
  const timeframe = tf as Timeframe;
  const c = params.get('count');
  if (c !== null && !/^[1-9]\d{0,3}$/.test(c)) return `count must be a whole number from 1 to ${MAX_COUNT}`;
  const count = c === null ? DEFAULT_COUNT : Number(c);
  if (count > MAX_COUNT) return `count must be a whole number from 1 to ${MAX_COUNT}`;
  return { market, timeframe, count: Math.min(count, countLimit(timeframe)) };
}

function candleJson(c: Candle): JsonCandle {
  const volume = c.volume === null ? null : toWire(c.volume);
  return { t: c.openMs, open: toWire(c.open), high: toWire(c.high), low: toWire(c.low), close: toWire(c.close), volume, minutes: c.minutes };
}

function fillJson(f: FillRecord): Record<string, unknown> {
  return { dealId: f.dealId, t: f.timeMs, side: f.side, amount: toWire(f.amount), price: toWire(f.price), role: f.role, strategyId: f.strategyId };
}

export class CandleChart {
  private readonly closed = new Map<string, { bucket: number; candles: JsonCandle[] }>();
  /** Markets drawn with another ticker's candles (found once, kept). */
  private readonly sources = new Map<string, string>();
  private readonly fills = new Map<string, { version: number; rows: Record<string, unknown>[] }>();

  constructor(private readonly src: CandleChartSources) {}

  /** The traded markets, in the configuration's order. */
  get markets(): readonly string[] {
    return this.src.markets;
  }

  async answer(params: URLSearchParams): Promise<CandleAnswer> {
    const q = parseCandleQuery(params, this.src.markets);
    if (typeof q === 'string') return bad(q);
    const source = await this.source(q.market);
    const now = this.src.now();
    const candles = this.closedCandles(source, q, now);
    const open = this.src.store.candles.open(source, q.timeframe);
    const len = TIMEFRAME_MS[q.timeframe];
    const fromMs = candles[0]?.t ?? open?.openMs ?? Math.floor(now / len) * len;
    const inc = this.src.increments[q.market];
    return {
      status: 200,
      body: {
        market: q.market,
        source,
        timeframe: q.timeframe,
        count: q.count,
        nowMs: now,
        tick: inc === undefined ? null : toWire(inc.tick),
        step: inc === undefined ? null : toWire(inc.step),
        candles,
        open: open === undefined ? null : candleJson(open),
        fills: this.marketFills(q.market, fromMs),
        legs: this.legs(q.market),
      },
    };
  }

  /**
   * Whose candles to draw: the market's own, or, for a market with none (a spot market), those of
   * the listing ticker that prices it (src/engine/market-data.ts: the perpetual's price is its
   * spot market's reference, and only the listing's tickers are recorded, docs/market-data.md).
   */
  private async source(market: string): Promise<string> {
    const known = this.sources.get(market);
    if (known !== undefined) return known;
    const has = (m: string): boolean => this.src.store.candles.closed(m, '1m', 1).length > 0 || this.src.store.candles.open(m, '1m') !== undefined;
    if (has(market)) return market;
    const ticker = (await this.src.prices().catch(() => ({}) as Record<string, MarketPrice>))[market]?.ticker;
    if (ticker === undefined || ticker === market || !has(ticker)) return market;
    this.sources.set(market, ticker);
    return ticker;
  }

  /**
   * The closed candles, read in full once per market, timeframe and count; when buckets end
   * later, only the candles closed since are read and appended (the older ones cannot change).
   */
  private closedCandles(source: string, q: CandleQuery, now: number): JsonCandle[] {
    const key = `${source}|${q.timeframe}|${q.count}`;
    const len = TIMEFRAME_MS[q.timeframe];
    const bucket = Math.floor(now / len);
    const hit = this.closed.get(key);
    if (hit !== undefined && hit.bucket === bucket) return hit.candles;
    const ended = hit === undefined ? q.count : bucket - hit.bucket;
    let candles: JsonCandle[];
    // A clock set back (ended below 1) or a long absence reads everything again.
    if (hit === undefined || ended < 1 || ended >= q.count) candles = this.src.store.candles.closed(source, q.timeframe, q.count).map(candleJson);
    else {
      // Buckets from the one open at the last read on: everything before it was final then.
      const since = hit.bucket * len;
      const fresh = this.src.store.candles.closed(source, q.timeframe, ended).filter((c) => c.openMs >= since).map(candleJson);
      candles = [...hit.candles, ...fresh].slice(-q.count);
    }
    if (this.closed.size >= CACHE_ENTRIES) this.closed.clear();
    this.closed.set(key, { bucket, candles });
    return candles;
  }

  private marketFills(market: string, fromMs: number): Record<string, unknown>[] {
    const key = `${market}|${fromMs}`;
    const version = this.src.store.fills.version;
    const hit = this.fills.get(key);
    if (hit !== undefined && hit.version === version) return hit.rows;
    const rows = this.src.store.fills.recentInMarket(market, fromMs, MAX_FILLS).map(fillJson);
    if (this.fills.size >= CACHE_ENTRIES) this.fills.clear();
    this.fills.set(key, { version, rows });
    return rows;
  }

  /** Stop-loss and take-profit legs not settled yet (armed, active, missing) whose parent trades `market`. */
  private legs(market: string): Record<string, unknown>[] {
    const { store } = this.src;
    return store.children
      .live()
      .filter((c) => store.orders.get(c.parentClientOrderId)?.market === market)
      .map((c) => ({ kind: c.kind, price: toWire(c.price), state: c.state, strategyId: c.strategyId, parent: c.parentClientOrderId }));
  }
}

/**
 * The markets the strategies trade: each configured market that a strategy's params name (any
 * string value, nested ones too), in the configuration's order. Strategies name their market in
 * their params (`p.market()`); one that names none (treasury) trades none.
 */
export function tradedMarkets(params: readonly unknown[], configured: readonly string[]): string[] {
  const named = new Set<string>();
  const walk = (v: unknown): void => {
    if (typeof v === 'string') named.add(v);
    else if (Array.isArray(v)) v.forEach(walk);
    else if (typeof v === 'object' && v !== null) Object.values(v).forEach(walk);
  };
  params.forEach(walk);
  return configured.filter((m) => named.has(m));
}
