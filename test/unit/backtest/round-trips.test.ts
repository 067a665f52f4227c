/**
 * FIFO round trips: hand-computed cases (long, short, partial close, FIFO over lots, flip, fee
 * remainders) and properties over random fill lists, with the engine's own position kernel as an
 * independent oracle for the realised PnL before fees.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Decimal, sum } from '../../../src/core/decimal.js';
import { derivePositions } from '../../../src/engine/positions.js';
import type { PositionFill } from '../../../src/model/fills.js';
import { computeMetrics, exposure, positionSpans, roundTrips } from '../../../src/backtest/metrics.js';
import { fifo } from '../../../src/backtest/round-trips.js';
import type { BacktestFill } from '../../../src/backtest/result.js';

let seq = 0;
function fill(timeMs: number, side: 'buy' | 'sell', amount: string, price: string, fee = '0', strategy = 's1', market = 'BTC_USDT'): BacktestFill {
  seq += 1;
  return { timeMs, strategy, market, side, price, amount, fee, orderId: `o${seq}` };
}

describe('roundTrips', () => {
  it('closes a long round trip with both fees taken off', () => {
    const trades = roundTrips([fill(1000, 'buy', '2', '100', '0.2'), fill(2000, 'sell', '2', '110', '0.22')]);
    expect(trades).toEqual([
      { strategy: 's1', market: 'BTC_USDT', direction: 'long', openedMs: 1000, closedMs: 2000, amount: '2', entryPrice: '100', exitPrice: '110', pnl: '19.58' },
    ]);
  });

  it('closes amounts of any length exactly, past the short amounts whose open sum the books keep as they go', () => {
    const tiny = '0.000000000000000000000001';
    const huge = '1234567890123456789012345.5';
    const trades = roundTrips([
      fill(1, 'buy', '1', '100'),
      fill(2, 'buy', tiny, '100'),
      fill(3, 'sell', '1.000000000000000000000001', '101'),
      fill(4, 'buy', huge, '1'),
      fill(5, 'buy', '0.5', '1'),
      fill(6, 'sell', '1234567890123456789012346', '2'),
    ]);
    expect(trades.map((t) => [t.amount, t.pnl])).toEqual([
      ['1.000000000000000000000001', '1.000000000000000000000001'],
      ['1234567890123456789012346', '1234567890123456789012346'],
    ]);
  });

  it('gives one trade per partial close, of the closed amount, with the entry fee pro rata', () => {
    const trades = roundTrips([fill(1, 'buy', '3', '100', '0.3'), fill(2, 'sell', '1', '105', '0.105'), fill(3, 'sell', '2', '95', '0.19')]);
    // 1 × (105 − 100) − 0.1 − 0.105; then 2 × (95 − 100) − 0.2 − 0.19
    expect(trades.map((t) => [t.amount, t.pnl, t.openedMs, t.closedMs])).toEqual([
      ['1', '4.795', 1, 2],
      ['2', '-10.39', 1, 3],
    ]);
  });

  it('closes the oldest lots first and averages their entry price', () => {
    const [t, ...rest] = roundTrips([fill(1, 'buy', '1', '100'), fill(2, 'buy', '1', '120'), fill(3, 'sell', '1.5', '130')]);
    expect(rest).toEqual([]);
    // 1 @ 100 and 0.5 @ 120: (100 + 60) / 1.5; PnL 30 + 5 exactly
    expect(t?.entryPrice).toBe('106.666666666667');
    expect(t?.pnl).toBe('35');
    expect(t?.openedMs).toBe(1);
    const left = fifo([fill(1, 'buy', '1', '100'), fill(2, 'buy', '1', '120'), fill(3, 'sell', '1.5', '130')]).open.get('s1\u0000BTC_USDT');
    expect(left?.amount.toFixed()).toBe('0.5');
  });

  it('splits a flipping fill: the closing part makes a short trade, the rest opens a long with the rest of the fee', () => {
    const trades = roundTrips([fill(1, 'sell', '1', '50', '0.05'), fill(2, 'buy', '3', '40', '0.3'), fill(3, 'sell', '2', '45')]);
    expect(trades.map((t) => [t.direction, t.amount, t.pnl, t.openedMs])).toEqual([
      ['short', '1', '9.85', 1], // 10 − 0.05 − 0.1 (a third of the flip's fee)
      ['long', '2', '9.8', 2], // 10 − 0.2 (the other two thirds)
    ]);
  });

  it('keeps books apart per strategy and market', () => {
    const trades = roundTrips([
      fill(1, 'buy', '1', '100', '0', 'a', 'BTC_USDT'),
      fill(2, 'sell', '1', '200', '0', 'b', 'BTC_USDT'),
      fill(3, 'sell', '1', '110', '0', 'a', 'ETH_USDT'),
      fill(4, 'sell', '1', '105', '0', 'a', 'BTC_USDT'),
    ]);
    expect(trades).toHaveLength(1);
    expect(trades[0]).toMatchObject({ strategy: 'a', market: 'BTC_USDT', pnl: '5' });
  });

  it('charges a fee that does not divide evenly without losing any of it: the last part takes the remainder', () => {
    const trades = roundTrips([fill(1, 'buy', '3', '1', '1'), fill(2, 'sell', '1', '1'), fill(3, 'sell', '1', '1'), fill(4, 'sell', '1', '1')]);
    // Thirds of 1 at 12 places: 0.333333333333, then half of the 0.666666666667 left (…3335, half
    // even → …334), then the remainder. Together exactly the fee.
    expect(trades.map((t) => t.pnl)).toEqual(['-0.333333333333', '-0.333333333334', '-0.333333333333']);
    expect(sum(trades.map((t) => new Decimal(t.pnl))).toFixed()).toBe('-1');
  });

  it('charges a fee finer than the 12 rounding places in full when the whole lot closes', () => {
    const trades = roundTrips([fill(1, 'buy', '1', '1', '0.00000000000001'), fill(2, 'sell', '1', '1', '0.00000000000002')]);
    expect(trades[0]?.pnl).toBe('-0.00000000000003');
  });

  it('orders fills by time and names the bad fill', () => {
    const trades = roundTrips([fill(2, 'sell', '1', '110'), fill(1, 'buy', '1', '100')]);
    expect(trades[0]).toMatchObject({ direction: 'long', pnl: '10' });
    expect(() => roundTrips([fill(1, 'buy', '0', '100')])).toThrow(/fill 0 \(order o\d+\): amount must be > 0/);
    expect(() => roundTrips([fill(1, 'buy', '1', '1e3')])).toThrow(/fill 0 \(order o\d+\): price is not a decimal string/);
  });
});

describe('positionSpans', () => {
  it('runs from leaving flat to flat again, through a flip, and to the end for an open book', () => {
    const fills = [
      fill(10, 'buy', '2', '100'), fill(15, 'buy', '1', '5', '0', 's1', 'ETH_USDT'), fill(20, 'sell', '1', '101'),
      fill(25, 'sell', '1', '6', '0', 's1', 'ETH_USDT'), fill(30, 'sell', '1', '102'),
      fill(40, 'sell', '1', '103'), fill(50, 'buy', '2', '99'),
    ];
    expect(positionSpans(fills, 100)).toEqual([{ fromMs: 15, toMs: 25 }, { fromMs: 10, toMs: 30 }, { fromMs: 40, toMs: 100 }]);
    // [10, 30] holds [15, 25]: 20 + 60 of 100
    expect(exposure(positionSpans(fills, 100), 0, 100).toFixed()).toBe('0.8');
  });
});

const STRATS = ['a', 'b'];
const MARKETS = ['BTC_USDT', 'ETH_USDT'];
const fillArb = fc.record({
  strategy: fc.constantFrom(...STRATS),
  market: fc.constantFrom(...MARKETS),
  side: fc.constantFrom<'buy' | 'sell'>('buy', 'sell'),
  amount: fc.integer({ min: 1, max: 5000 }).map((n) => new Decimal(n).div(1000).toFixed()),
  price: fc.integer({ min: 1, max: 10_000_000 }).map((n) => new Decimal(n).div(100).toFixed()),
  fee: fc.integer({ min: 0, max: 10_000 }).map((n) => new Decimal(n).div(10_000).toFixed()),
});
const fillsArb = fc.array(fillArb, { minLength: 1, maxLength: 80 }).map((rows) =>
  rows.map((r, i): BacktestFill => ({ ...r, timeMs: 1000 * i, orderId: `o${i}` })),
);

/** Appends one fill per book that takes it back to flat. */
function flattened(fills: BacktestFill[]): BacktestFill[] {
  const out = [...fills];
  let t = fills.length * 1000;
  for (const s of STRATS) {
    for (const m of MARKETS) {
      const net = sum(fills.filter((f) => f.strategy === s && f.market === m).map((f) => (f.side === 'buy' ? new Decimal(f.amount) : new Decimal(f.amount).neg())));
      if (net.isZero()) continue;
      out.push({ timeMs: t++, strategy: s, market: m, side: net.gt(0) ? 'sell' : 'buy', amount: net.abs().toFixed(), price: '123.45', fee: '0.0007', orderId: `flat-${s}-${m}` });
    }
  }
  return out;
}

describe('roundTrips properties', () => {
  it('closes exactly (traded − |net|) / 2 per book, never more than was traded', () => {
    fc.assert(
      fc.property(fillsArb, (fills) => {
        const trades = roundTrips(fills);
        for (const s of STRATS) {
          for (const m of MARKETS) {
            const book = fills.filter((f) => f.strategy === s && f.market === m);
            const traded = sum(book.map((f) => new Decimal(f.amount)));
            const net = sum(book.map((f) => (f.side === 'buy' ? new Decimal(f.amount) : new Decimal(f.amount).neg())));
            const closed = sum(trades.filter((t) => t.strategy === s && t.market === m).map((t) => new Decimal(t.amount)));
            expect(closed.lte(traded)).toBe(true);
            expect(closed.toFixed()).toBe(traded.minus(net.abs()).div(2).toFixed());
          }
        }
      }),
    );
  });

  it('on a flat book, the trades\' PnL is the cash flow minus every fee, exactly', () => {
    fc.assert(
      fc.property(fillsArb, (raw) => {
        const fills = flattened(raw);
        const cash = sum(fills.map((f) => new Decimal(f.amount).mul(f.price).mul(f.side === 'sell' ? 1 : -1)));
        const fees = sum(fills.map((f) => new Decimal(f.fee)));
        const trades = roundTrips(fills);
        expect(sum(trades.map((t) => new Decimal(t.pnl))).toFixed()).toBe(cash.minus(fees).toFixed());
        const m = computeMetrics({ equity: [], fills, trades, flexEarnings: '0', unrealisedPnl: '0', orders: 0, positionSpans: [], fromMs: 0, toMs: 1 });
        expect(m.realisedPnl).toBe(cash.toFixed());
        expect(m.realisedPnlAfterFees).toBe(cash.minus(fees).toFixed());
      }),
    );
  });

  it('agrees with the engine\'s FIFO position kernel on realised PnL before fees', () => {
    fc.assert(
      fc.property(fillsArb, (fills) => {
        const gross = new Map<string, Decimal>();
        for (const c of fifo(fills).closed) {
          const key = `${c.trade.strategy}/${c.trade.market}`;
          gross.set(key, (gross.get(key) ?? new Decimal(0)).plus(c.gross));
        }
        const kernel = derivePositions(
          fills.map((f, i): PositionFill => ({
            dealId: i + 1, strategyId: f.strategy, market: f.market, side: f.side, timeMs: f.timeMs,
            amount: new Decimal(f.amount), price: new Decimal(f.price), quote: new Decimal(f.amount).mul(f.price), fee: new Decimal(f.fee), feeAsset: 'USDT',
          })),
        );
        for (const p of kernel) {
          expect((gross.get(`${p.strategyId}/${p.market}`) ?? new Decimal(0)).toFixed()).toBe(p.realisedPnl.toFixed());
        }
      }),
    );
  });
});
