/**
 * The strategies' books replayed over the sampled prices (src/backtest/ledger.ts replayBooks):
 * each book's curve must be its definition's, the budget plus the cash flow of its fills so far
 * plus each open position at the step's price, point by point, whatever the fills (several books
 * at once, fills between and on sample times, positions opened, closed and flipped in two markets).
 * The replay reads each step's price once for all books and keeps a book's cash part between
 * fills: this proves those shortcuts give the plain sum at every point.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Decimal } from '../../../src/core/decimal.js';
import { replayBooks, type BookSpec } from '../../../src/backtest/ledger.js';
import { EquityCurve } from '../../../src/backtest/metrics.js';
import type { BacktestFill } from '../../../src/backtest/result.js';
import { FifoFold } from '../../../src/backtest/round-trips.js';
import { Samples } from '../../../src/backtest/samples.js';

const MARKETS = ['BTC_PERP', 'BTC_USDT'];
// One sample a day: the curve's daily closes are then every point of it.
const STEP = 86_400_000;

const fillArb = fc.record({
  step: fc.integer({ min: 0, max: 60 }),
  onTime: fc.boolean(),
  strategy: fc.constantFrom('a', 'b'),
  market: fc.constantFrom(...MARKETS),
  side: fc.constantFrom('buy' as const, 'sell' as const),
  amount: fc.integer({ min: 1, max: 300 }),
  price: fc.integer({ min: 9_000, max: 11_000 }),
  fee: fc.integer({ min: 0, max: 50 }),
});

describe('replayBooks', () => {
  it('property: every book\'s curve is its budget, its cash flow and its positions at each step\'s prices', () => {
    fc.assert(
      fc.property(fc.array(fc.array(fc.integer({ min: 90_00, max: 110_00 }), { minLength: 2, maxLength: 2 }), { minLength: 1, maxLength: 60 }), fc.array(fillArb, { maxLength: 40 }), (steps, raw) => {
        const samples = new Samples(MARKETS);
        steps.forEach(([p, u], i) => {
          const prices = new Map([['BTC_PERP', new Decimal(p as number).div(10)], ['BTC_USDT', new Decimal(u as number).div(10)]]);
          samples.push(i * STEP, new Decimal(1000), (m) => prices.get(m) as Decimal);
        });
        const fills: BacktestFill[] = raw
          .map((f) => ({
            timeMs: f.step * STEP - (f.onTime ? 0 : 1000),
            strategy: f.strategy,
            market: f.market,
            side: f.side,
            amount: new Decimal(f.amount).div(100).toFixed(),
            price: new Decimal(f.price).div(10).toFixed(),
            fee: new Decimal(f.fee).div(1000).toFixed(),
            orderId: '1',
          }))
          .sort((x, y) => x.timeMs - y.timeMs);
        const specs = new Map<string, BookSpec>([
          ['', { start: new Decimal(500), curve: true }],
          ['a', { start: new Decimal('100.5'), curve: true }],
          ['b', { start: new Decimal(0), curve: true }],
        ]);
        const books = replayBooks(fills, samples, specs, (f) => ['', f.strategy], () => undefined);
        for (const [key, spec] of specs) {
          const expected = new EquityCurve();
          for (let i = 0; i < samples.length; i++) {
            const t = samples.timeAt(i);
            let value = spec.start;
            for (const f of fills.filter((g) => g.timeMs <= t && (key === '' || g.strategy === key))) {
              const quote = new Decimal(f.amount).mul(f.price);
              value = value.plus(f.side === 'buy' ? quote.neg() : quote).minus(f.fee);
              const signed = f.side === 'buy' ? new Decimal(f.amount) : new Decimal(f.amount).neg();
              value = value.plus(signed.mul(samples.prices.get(f.market)?.at(i) as Decimal));
            }
            expected.add(t, value);
          }
          const got = books.get(key)?.equity as EquityCurve;
          expect(got.maxDrawdown().toFixed(), key).toBe(expected.maxDrawdown().toFixed());
          expect(got.dailyCloses().map((d) => d.toFixed()), key).toEqual(expected.dailyCloses().map((d) => d.toFixed()));
          expect(got.dailyCloses()).toHaveLength(samples.length);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('property: a strategy\'s open lots from its round trips\' FIFO books give the unrealised PnL its own replay gives', () => {
    fc.assert(
      fc.property(fc.array(fc.array(fc.integer({ min: 90_00, max: 110_00 }), { minLength: 2, maxLength: 2 }), { minLength: 1, maxLength: 20 }), fc.array(fillArb, { maxLength: 60 }), (steps, raw) => {
        const samples = new Samples(MARKETS);
        steps.forEach(([p, u], i) => {
          const prices = new Map([['BTC_PERP', new Decimal(p as number).div(10)], ['BTC_USDT', new Decimal(u as number).div(10)]]);
          samples.push(i * STEP, new Decimal(1000), (m) => prices.get(m) as Decimal);
        });
        const fills: BacktestFill[] = raw
          .map((f) => ({
            timeMs: f.step * STEP,
            strategy: f.strategy,
            market: f.market,
            side: f.side,
            amount: new Decimal(f.amount).div(100).toFixed(),
            price: new Decimal(f.price).div(10).toFixed(),
            fee: new Decimal(f.fee).div(1000).toFixed(),
            orderId: '1',
          }))
          .sort((x, y) => x.timeMs - y.timeMs);
        const own = (lots: boolean): Map<string, BookSpec> => {
          const fifo = new FifoFold();
          for (const f of fills) fifo.add(f);
          const spec = (s: string): BookSpec => ({ start: new Decimal(0), curve: false, ...(lots ? { lots: () => fifo.lotsOf(s) } : {}) });
          return new Map([['a', spec('a')], ['b', spec('b')]]);
        };
        const kept = replayBooks(fills, samples, own(false), (f) => [f.strategy], () => undefined);
        const given = replayBooks(fills, samples, own(true), (f) => [f.strategy], () => undefined);
        for (const key of ['a', 'b']) expect(given.get(key)?.unrealisedPnl.toFixed(), key).toBe(kept.get(key)?.unrealisedPnl.toFixed());
      }),
      { numRuns: 300 },
    );
  });
});
