/**
 * The candle chart's drawing data (src/web/browser/candle-view.ts, browser code with no DOM): gaps
 * become empty slots and never candles, the open candle is drawn apart, fills become markers
 * labelled with amount and price at the market's step and tick, and live legs become labelled
 * price lines.
 */
import { describe, expect, it } from 'vitest';
import { bars, COLOURS, legend, legLines, markers, MAX_GAP_SLOTS, type ApiCandle, type CandleAnswer } from '../../../src/web/browser/candle-view.js';

const M = 60_000;
const T0 = Date.UTC(2026, 10, 24, 9, 0);
const steps = { BTC_PERP: { tick: '0.1', step: '0.0001' } };

const candle = (t: number, close = '60010'): ApiCandle => ({ t, open: '60000', high: '60020.5', low: '59990', close, volume: null, minutes: 1 });

function answer(over: Partial<CandleAnswer> = {}): CandleAnswer {
  return { market: 'BTC_PERP', source: 'BTC_PERP', timeframe: '1m', count: 200, nowMs: T0, candles: [], open: null, fills: [], legs: [], ...over };
}

const isCandle = (b: object): boolean => 'open' in b;

describe('bars', () => {
  it('draws each candle once, in order, with its prices, and adds empty slots (not candles) over a gap', () => {
    const out = bars(answer({ candles: [candle(T0), candle(T0 + M), candle(T0 + 5 * M)] }));
    expect(out.map((b) => b.time)).toEqual([0, 1, 2, 3, 4, 5].map((i) => (T0 + i * M) / 1000));
    expect(out.map(isCandle)).toEqual([true, true, false, false, false, true]);
    expect(out[0]).toEqual({ time: T0 / 1000, open: 60000, high: 60020.5, low: 59990, close: 60010 });
  });

  it('draws a gap longer than the slot bound as its first and last slots', () => {
    const out = bars(answer({ candles: [candle(T0), candle(T0 + 1000 * M)] }));
    const slots = out.filter((b) => !isCandle(b)).map((b) => (b.time * 1000 - T0) / M);
    expect(slots).toHaveLength(MAX_GAP_SLOTS);
    expect(slots.slice(0, 2)).toEqual([1, 2]);
    expect(slots.slice(-2)).toEqual([998, 999]);
  });

  it('draws the open candle last and hollow in the accent colour, and never twice', () => {
    const open = { ...candle(T0 + 2 * M, '60100'), minutes: 1 };
    const out = bars(answer({ candles: [candle(T0), candle(T0 + M)], open }));
    expect(out).toHaveLength(3);
    expect(out[2]).toMatchObject({ time: (T0 + 2 * M) / 1000, close: 60100, borderColor: COLOURS.open, color: COLOURS.openBody });
    expect(out[1]).not.toHaveProperty('borderColor');
    // A closed candle of the open one's bucket (a reply across the bucket's end) wins.
    expect(bars(answer({ candles: [candle(T0), candle(T0 + 2 * M)], open }))).toHaveLength(3);
  });
});

describe('markers and lines', () => {
  it('marks buys below and sells above the candle holding them, labelled with amount and price', () => {
    const a = answer({
      timeframe: '15m',
      fills: [
        { dealId: 7, t: T0 + 20 * M + 5_000, side: 'buy', amount: '0.001', price: '60000', role: 'maker', strategyId: 'trend1' },
        { dealId: 8, t: T0 + 44 * M, side: 'sell', amount: '0.00125', price: '60123.45', role: 'taker', strategyId: null },
      ],
    });
    expect(markers(a, steps)).toEqual([
      { time: (T0 + 15 * M) / 1000, position: 'belowBar', shape: 'arrowUp', color: COLOURS.buy, text: 'B 0.0010 @ 60000.0', id: '7' },
      { time: (T0 + 30 * M) / 1000, position: 'aboveBar', shape: 'arrowDown', color: COLOURS.sell, text: 'S 0.0013 @ 60123.5', id: '8' },
    ]);
  });

  it('labels the legs SL / TP with strategy, price and a state other than active', () => {
    const a = answer({
      legs: [
        { kind: 'stop_loss', price: '59000', state: 'active', strategyId: 'trend1', parent: 'p1' },
        { kind: 'take_profit', price: '62000.25', state: 'armed', strategyId: 'trend1', parent: 'p1' },
      ],
    });
    expect(legLines(a, steps)).toEqual([
      { price: 59000, title: 'SL trend1 59000.0', color: COLOURS.stopLoss },
      { price: 62000.25, title: 'TP trend1 62000.3 (armed)', color: COLOURS.takeProfit },
    ]);
  });

  it('writes the hover legend from the exact strings: prices, a partial bucket, the fills in it', () => {
    const c = { ...candle(T0), minutes: 9 };
    const a = answer({ timeframe: '15m', candles: [c], fills: [{ dealId: 1, t: T0 + 3 * M, side: 'buy', amount: '0.001', price: '60000', role: 'maker', strategyId: 'trend1' }] });
    expect(legend(a, T0, steps)).toBe('2026-11-24 09:00  O 60000.0  H 60020.5  L 59990.0  C 60010.0  (9 of 15 minutes)  ·  buy 0.0010 @ 60000.0 (trend1)');
    expect(legend(a, T0 + 15 * M, steps)).toBe('');
  });
});
