/**
 * A console over a real SQLite store seeded through the real repositories, for the candle chart's
 * tests (endpoint and browser): one-minute candles imported (with a gap) and folded (the open
 * candle), orders journaled with their stop-loss / take-profit legs, fills applied by the fill
 * applier. The clock is manual: the open candle and the event stream move only when a test says.
 *
 * Seeded at NOW = 2026-11-24 10:07:30 UTC, timeframe 15m:
 * - BTC_PERP: minutes 04:00-05:59 and 07:00-09:59 imported (06:00-06:59 missing), 10:00-10:07
 *   folded (10:07 still open): closed 15m candles 04:00-05:45 (8) and 07:00-09:45 (12), open 10:00.
 * - BTC_USDT: minutes 09:00-09:59 imported, so 4 closed 15m candles and no open one.
 * - ETH_USDT has no candles of its own: it is priced by the ETH_PERP listing ticker, whose
 *   minutes 09:00-09:59 are imported (as the daemon records only the listing's tickers).
 * - trend1 bought 0.001 BTC_PERP at 60000 (fill at 08:20) under a stop-loss at 59000 (active) and a
 *   take-profit at 62000 (armed); an older order's legs are cancelled; a fill at 02:00 is before
 *   the window. grid1 sold 0.002 BTC_USDT at 60150.5 at 09:31.
 */
import { ManualClock } from '../../src/core/clock.js';
import { dec } from '../../src/core/decimal.js';
import { createConsole, PauseRegistry, tradedMarkets, type Console } from '../../src/console/index.js';
import { FillApplier } from '../../src/engine/fill-applier.js';
import { OrderJournal } from '../../src/engine/order-journal.js';
import { TradingStateController } from '../../src/engine/trading-state.js';
import type { Fill } from '../../src/model/fills.js';
import { silentLogger } from '../../src/observability/logger.js';
import { startHealthServer, type HealthServer } from '../../src/observability/health.js';
import { openStore, type MinuteCandle, type Store } from '../../src/store/index.js';
import { tempDir } from './temp-dir.js';

export const TOKEN = 'candle-token-0123456789abcdefghij';
export const NOW = Date.UTC(2026, 10, 24, 10, 7, 30);
const MIN = 60_000;
export const at = (h: number, m: number): number => Date.UTC(2026, 10, 24, h, m);

export const MARKETS = {
  BTC_USDT: { tick: dec('0.01'), step: dec('0.000001') },
  BTC_PERP: { tick: dec('0.1'), step: dec('0.0001') },
  ETH_USDT: { tick: dec('0.01'), step: dec('0.0001') },
  ETH_PERP: { tick: dec('0.01'), step: dec('0.001') },
};
/** grid1, trend1 and grid2 name BTC_USDT, BTC_PERP and ETH_USDT; ETH_PERP is configured but traded by none. */
export const STRATEGY_PARAMS = [{ market: 'BTC_USDT', levels: 3 }, { market: 'BTC_PERP', amount: '0.001' }, { market: 'ETH_USDT' }, { quoteAsset: 'USDT' }];

/** The seeded minute's prices: up for a quarter hour, down for the next (green and red 15m candles). */
export function minutePrices(ms: number): { open: string; high: string; low: string; close: string } {
  const i = Math.floor(ms / MIN) % 30;
  const open = 60_000 + (i < 15 ? i : 30 - i) * 5;
  return { open: `${open}`, high: `${open + 7}.5`, low: `${open - 3}`, close: `${open + 2}` };
}

function minutes(market: string, fromMs: number, toMs: number): MinuteCandle[] {
  const out: MinuteCandle[] = [];
  for (let t = fromMs; t < toMs; t += MIN) {
    const p = minutePrices(t);
    out.push({ market, openMs: t, open: dec(p.open), high: dec(p.high), low: dec(p.low), close: dec(p.close), volume: dec('1.5') });
  }
  return out;
}

export interface ChartHarness {
  store: Store;
  clock: ManualClock;
  console: Console;
  server: HealthServer;
  base: string;
  applier: FillApplier;
  journal: OrderJournal;
  close(): Promise<void>;
}

let nextDeal = 1_000;
let nextOrder = 500;

/** Journals an order (with legs), marks it placed and applies one fill of `amount` at its price at `timeMs`. */
export function fillOrder(
  h: Pick<ChartHarness, 'journal' | 'applier'>,
  o: { strategyId: string; kind: 'limit' | 'collateral'; market: string; side: 'buy' | 'sell'; amount: string; price: string; timeMs: number; stopLoss?: string; takeProfit?: string },
): string {
  const spec = { market: o.market, side: o.side, amount: dec(o.amount), price: dec(o.price) };
  const legs = { ...(o.stopLoss === undefined ? {} : { stopLoss: dec(o.stopLoss) }), ...(o.takeProfit === undefined ? {} : { takeProfit: dec(o.takeProfit) }) };
  const [cid] = h.journal.open(o.strategyId, [{ ...spec, ...legs }], o.kind) as [string];
  const orderId = nextOrder++;
  h.journal.move(cid, 'OPEN', 'placed', { orderId });
  const fill: Fill = {
    dealId: nextDeal++, orderId, clientOrderId: cid, market: o.market, side: o.side, role: 'maker', timeMs: o.timeMs,
    amount: dec(o.amount), price: dec(o.price), quote: dec(o.amount).mul(o.price), fee: dec('0'), feeAsset: 'USDT',
  };
  h.applier.apply([fill]);
  return cid;
}

function seed(h: Omit<ChartHarness, 'console' | 'server' | 'base' | 'close'>): void {
  const { store } = h;
  store.candles.upsert([...minutes('BTC_PERP', at(4, 0), at(6, 0)), ...minutes('BTC_PERP', at(7, 0), at(10, 0)), ...minutes('BTC_USDT', at(9, 0), at(10, 0)), ...minutes('ETH_PERP', at(9, 0), at(10, 0))]);
  // The open candle: a price every minute since 10:00, the last one (10:07) still open.
  for (let t = at(10, 0) + 10_000; t <= NOW; t += MIN) store.candles.fold('BTC_PERP', t, dec(minutePrices(t).close));
  fillOrder(h, { strategyId: 'trend1', kind: 'collateral', market: 'BTC_PERP', side: 'sell', amount: '0.003', price: '59500', timeMs: at(2, 0) });
  const old = fillOrder(h, { strategyId: 'trend1', kind: 'collateral', market: 'BTC_PERP', side: 'buy', amount: '0.001', price: '59800', timeMs: at(3, 0), stopLoss: '58000', takeProfit: '61000' });
  for (const c of store.children.byParent(old)) store.children.update(c.id, { state: 'cancelled' }, NOW);
  const cid = fillOrder(h, { strategyId: 'trend1', kind: 'collateral', market: 'BTC_PERP', side: 'buy', amount: '0.001', price: '60000', timeMs: at(8, 20), stopLoss: '59000', takeProfit: '62000' });
  const sl = store.children.byParent(cid).find((c) => c.kind === 'stop_loss');
  if (sl !== undefined) store.children.update(sl.id, { state: 'active', orderId: 9_001 }, NOW);
  fillOrder(h, { strategyId: 'grid1', kind: 'limit', market: 'BTC_USDT', side: 'sell', amount: '0.002', price: '60150.5', timeMs: at(9, 31) });
}

/**
 * `dataDir`: the store's directory; made here when not given, which only a test's body may do (a
 * directory made in `beforeAll` is never removed: test/support/temp-dir.ts).
 */
export async function startChartHarness(opts: { loopbackOnly?: boolean; dataDir?: string } = {}): Promise<ChartHarness> {
  const dataDir = opts.dataDir ?? tempDir('v4bot-candles-');
  const clock = new ManualClock(NOW);
  const logger = silentLogger();
  const store = openStore({ dataDir, clock, logger });
  const journal = new OrderJournal(store, clock);
  const applier = new FillApplier(store, clock, logger, journal);
  seed({ store, clock, journal, applier });
  const ts = new TradingStateController(store, clock, logger);
  const loopbackOnly = opts.loopbackOnly ?? true;
  const c = createConsole({
    mode: 'paper', dataDir, loopbackOnly, configuredToken: TOKEN, equityAsset: 'USDT', markets: MARKETS,
    tradedMarkets: tradedMarkets(STRATEGY_PARAMS, Object.keys(MARKETS)),
    clock, logger, store, pauses: new PauseRegistry(store.console), runners: new Map(),
    strategies: [{ id: 'grid1', module: 'spot-grid' }, { id: 'trend1', module: 'collateral-signal' }, { id: 'grid2', module: 'spot-grid' }, { id: 'treasury', module: 'treasury' }],
    tradingState: ts, halt: (reason) => ts.set('HALTED', reason), resetPeak: () => undefined, onFill: () => undefined,
    cancelAll: async () => [], setQuarantined: () => undefined,
    source: {
      jobs: () => ({}),
      reconcile: () => ({ ok: true, lastSuccessMs: NOW, lastError: null }),
      prices: async () => ({ BTC_PERP: { last: dec('60012'), ticker: 'BTC_PERP' }, ETH_PERP: { last: dec('60010'), ticker: 'ETH_PERP' }, ETH_USDT: { last: dec('60010'), ticker: 'ETH_PERP' } }),
      rateLimits: () => ({}),
      requestQueue: () => ({ store: 'local', storeUp: true }),
    },
  });
  const server = await startHealthServer({
    port: 0,
    host: '127.0.0.1',
    health: () => ({ status: 'ok', mode: 'paper', tradingState: ts.get(), reconcile: { ok: true, lastSuccessMs: 1, lastError: null }, jobs: {}, unknownOrders: 0, quarantined: [], clockSkewMs: null, nowMs: 1, reasons: [] }),
    metrics: async () => '',
    metricsContentType: 'text/plain',
    admit: (req) => c.http.mayRead(req),
    routes: (req, res) => c.http.handle(req, res),
  });
  return {
    store, clock, console: c, server, journal, applier,
    base: `http://127.0.0.1:${server.port}`,
    close: async () => {
      c.close();
      await server.close();
      store.close();
    },
  };
}
