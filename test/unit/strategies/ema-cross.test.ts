/**
 * ema-cross: the pure decision (crosses, the RSI filter and exit), the incremental indicators
 * agreeing with a replay over the whole window, and the hook: nothing during warm-up, a buy at
 * the ask on a cross up, a cancel of an order left open.
 */
import { describe, expect, it } from 'vitest';
import { Decimal } from '../../../src/core/decimal.js';
import { parseIntents } from '../../../src/strategy-api/host.js';
import { indicators, type CandleView, type OrderView } from '../../../src/strategy-api/index.js';
import { decide, emaCrossParams, historyCount, onCandle, track, type Signals } from '../../../strategies/ema-cross.js';
import { ctxOf, price, snapshot } from '../../support/daemon-ctx.js';

const params = emaCrossParams.parse({ market: 'BTC_USDT', amount: '0.01', fast: 3, slow: 5, rsiPeriod: 3 });
const d = (s: string): Decimal => new Decimal(s);
const signals = (fastBefore: string, slowBefore: string, fast: string, slow: string, rsi: string): Signals => ({
  fastBefore: d(fastBefore),
  slowBefore: d(slowBefore),
  fast: d(fast),
  slow: d(slow),
  rsi: d(rsi),
});

const T0 = Date.UTC(2024, 0, 1);
const Q = 15 * 60_000;
function candles(closes: readonly string[]): CandleView[] {
  return closes.map((c, i) => ({ market: 'BTC_USDT', timeframe: '15m', openMs: T0 + i * Q, closeMs: T0 + (i + 1) * Q, open: d(c), high: d(c), low: d(c), close: d(c), volume: null, minutes: 15, closed: true }));
}

describe('ema-cross decide', () => {
  it('buys on a cross up while flat unless overbought', () => {
    expect(decide(signals('99', '100', '101', '100', '55'), false, params)).toBe('buy');
    expect(decide(signals('100', '100', '101', '100', '55'), false, params)).toBe('buy');
    expect(decide(signals('99', '100', '101', '100', '75'), false, params)).toBe('hold');
    // Already above: no cross, no buy.
    expect(decide(signals('101', '100', '102', '100', '55'), false, params)).toBe('hold');
    // A cross down while flat: nothing to sell.
    expect(decide(signals('101', '100', '99', '100', '40'), false, params)).toBe('hold');
  });

  it('sells what it holds on a cross down or when the RSI passes the exit; holds otherwise', () => {
    expect(decide(signals('101', '100', '99', '100', '40'), true, params)).toBe('sell');
    expect(decide(signals('102', '100', '103', '100', '85'), true, params)).toBe('sell');
    expect(decide(signals('102', '100', '103', '100', '79'), true, params)).toBe('hold');
    expect(decide(signals('99', '100', '101', '100', '55'), true, params)).toBe('hold');
  });

  it('declares a window long enough for the slow EMA and the RSI', () => {
    expect(historyCount(params)).toBe(15);
    expect(historyCount(emaCrossParams.parse({ market: 'BTC_USDT', amount: '1' }))).toBe(63);
    expect(() => emaCrossParams.parse({ market: 'BTC_USDT', amount: '1', fast: 30, slow: 21 })).toThrow(/fast must be shorter than slow/);
  });
});

describe('ema-cross indicators', () => {
  it('fed candle by candle they give what a replay over the whole window gives', () => {
    const closes = ['100', '101', '103', '102', '99', '98', '97', '99', '102', '104', '103', '105', '101', '100', '102'];
    const tracker = { fast: indicators.ema(3), slow: indicators.ema(5), rsi: indicators.rsi(3), lastOpenMs: -1, before: undefined };
    let last;
    // Windows of the last 8 candles, one candle later each time: each candle is taken once.
    for (let n = 8; n <= closes.length; n++) last = track(tracker, candles(closes).slice(n - 8, n));
    expect(tracker.fast.count).toBe(closes.length);
    const all = closes.map(d);
    expect(last?.fast.toFixed(8)).toBe(indicators.ema(3).over(all)?.toFixed(8));
    expect(last?.slow.toFixed(8)).toBe(indicators.ema(5).over(all)?.toFixed(8));
    expect(last?.rsi.toFixed(8)).toBe(indicators.rsi(3).over(all)?.toFixed(8));
    expect(last?.fastBefore.toFixed(8)).toBe(indicators.ema(3).over(all.slice(0, -1))?.toFixed(8));
  });
});

describe('ema-cross hook', () => {
  const history = (have: number) => [{ market: 'BTC_USDT', timeframe: '15m' as const, want: 15, closed: candles([]).concat(), open: null }].map((w) => ({ ...w, closed: candles(Array.from({ length: have }, () => '100')) }));

  it('does nothing while the window warms up', () => {
    const { ctx } = ctxOf(params, snapshot({ prices: { BTC_USDT: price('BTC_USDT', '100', '1') }, candles: history(10) }));
    expect(ctx.history).toEqual([{ market: 'BTC_USDT', timeframe: '15m', want: 15, have: 10, ready: false }]);
    expect(onCandle(ctx)).toEqual([]);
  });

  it('buys at the ask when the fast EMA crosses above the slow one', () => {
    // Falling in a zigzag, then a jump on the last candle: the fast EMA (104.5) crosses the slow
    // one (104.4), the RSI (66.6) stays below 70.
    const closes = ['110', '108', '109', '107', '108', '106', '107', '105', '106', '104', '105', '103', '104', '102', '106'];
    const data = snapshot({ prices: { BTC_USDT: price('BTC_USDT', '106', '0.5') }, candles: [{ market: 'BTC_USDT', timeframe: '15m', want: 15, closed: candles(closes), open: null }] });
    const all = closes.map(d);
    const rsi = indicators.rsi(3).over(all);
    expect(rsi?.lt(70)).toBe(true);
    const { ctx } = ctxOf(params, data);
    expect(parseIntents(onCandle(ctx), 't1')).toEqual([{ type: 'placeLimits', orders: [{ market: 'BTC_USDT', side: 'buy', amount: d('0.01'), price: d('106.5') }] }]);
    // The same candles again (no new one closed): no second buy.
    expect(onCandle(ctxOf(params, data).ctx)).toEqual([]);
  });

  it('cancels an order still open a candle later', () => {
    const order: OrderView = { clientOrderId: 't1-1', market: 'BTC_USDT', side: 'buy', kind: 'limit', state: 'OPEN', amount: d('0.01'), price: d('100'), filled: d('0'), remaining: d('0.01'), createdMs: T0 };
    const { ctx } = ctxOf(params, snapshot({ openOrders: [order], candles: history(15) }));
    expect(parseIntents(onCandle(ctx), 't1')).toEqual([{ type: 'cancel', clientOrderId: 't1-1' }]);
  });
});
