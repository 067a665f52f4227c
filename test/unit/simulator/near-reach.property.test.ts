/**
 * A price step tells whether its path reaches a resting order or an OCO leg from its reach's ends
 * in doubles where they prove it (src/simulator/near.ts, Venue.reachable): whenever the doubles
 * give an answer, it is the exact comparison's. The steps are a CSV market's own (one or two
 * candles, price rows, ticks of powers of ten and others, both touch rules), and the prices sit
 * on, half ticks off and far from the reach's ends, with digits beyond a double's too.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CsvMarket } from '../../../src/backtest/csv-market.js';
import type { FillModel } from '../../../src/backtest/fill-model.js';
import type { PriceRow } from '../../../src/backtest/price-csv.js';
import { Decimal, dec } from '../../../src/core/decimal.js';
import { Account } from '../../../src/simulator/account.js';
import { ocoNearReached, ocoReached } from '../../../src/simulator/conditional.js';
import { nearReached, reached } from '../../../src/simulator/matching.js';
import { nearSign, shortDouble } from '../../../src/simulator/near.js';
import type { OcoRecord, PriceSpan, SimOrder } from '../../../src/simulator/types.js';

const T0 = 1_704_067_200_000;
const MIN = 60_000;
const TICKS = ['0.01', '0.1', '1', '0.5', '0.25', '0.00001'];

/** A price: a whole part and a fraction of up to 20 digits (more than a double holds, sometimes). */
const price = fc
  .tuple(fc.integer({ min: 1, max: 120_000 }), fc.stringMatching(/^[0-9]{0,20}$/))
  .map(([whole, frac]) => dec(frac === '' ? String(whole) : `${whole}.${frac}`));

const candleRow = fc.tuple(price, price, price, price).map(([a, b, c, d]) => {
  const sorted = [a, b, c, d].sort((x, y) => x.cmp(y));
  return { open: sorted[1] as Decimal, close: sorted[2] as Decimal, low: sorted[0] as Decimal, high: sorted[3] as Decimal };
});

interface Case {
  tick: string;
  touch: FillModel['touch'];
  candles: boolean;
  steps: Array<Array<{ open: Decimal; close: Decimal; low: Decimal; high: Decimal }>>;
  probes: Array<{ side: 'buy' | 'sell'; end: 'low' | 'high' | 'free'; ticks: number; free: Decimal; gte: boolean }>;
}

const cases: fc.Arbitrary<Case> = fc.record({
  tick: fc.constantFrom(...TICKS),
  touch: fc.constantFrom<FillModel['touch']>('through', 'at'),
  candles: fc.boolean(),
  steps: fc.array(fc.array(candleRow, { minLength: 1, maxLength: 2 }), { minLength: 1, maxLength: 6 }),
  probes: fc.array(
    fc.record({
      side: fc.constantFrom<'buy' | 'sell'>('buy', 'sell'),
      end: fc.constantFrom<'low' | 'high' | 'free'>('low', 'high', 'free'),
      ticks: fc.integer({ min: -4, max: 4 }),
      free: price,
      gte: fc.boolean(),
    }),
    { minLength: 1, maxLength: 12 },
  ),
});

function marketOf(c: Case): CsvMarket {
  const rows: PriceRow[] = [{ timeMs: T0, price: dec('100'), volume: null }];
  c.steps.forEach((step, i) =>
    step.forEach((r, k) => {
      const row: PriceRow = { timeMs: T0 + (i + 1) * MIN - (step.length - 1 - k) * 20_000, price: r.close, volume: null };
      if (c.candles) row.candle = { open: r.open, high: r.high, low: r.low };
      rows.push(row);
    }),
  );
  const model: FillModel = { touch: c.touch, volumeShare: dec('1'), volumePerStep: dec('1'), makerFee: dec('0'), takerFee: dec('0') };
  const opts = { name: 'BTC_USDT', startPrice: '100', tick: c.tick, step: '0.001', volatility: '0' };
  return new CsvMarket(opts, 7, { rows, startMs: T0, stepMs: MIN, model });
}

/** A probe's price: on an end of the exact reach, some half ticks off it, or anywhere. */
function probePrice(p: Case['probes'][number], reach: PriceSpan, tick: Decimal): Decimal {
  if (p.end === 'free') return p.free;
  const at = p.end === 'low' ? reach.low : reach.high;
  const moved = at.plus(tick.mul(p.ticks).div(2));
  return moved.gt(0) ? moved : p.free;
}

describe('a price step reached in doubles', () => {
  it('nearSign: the sign of x - d whenever it is not 0', () => {
    fc.assert(
      fc.property(price, price, fc.integer({ min: -3, max: 3 }), (a, b, ulps) => {
        const x = shortDouble(a);
        if (x === undefined) return;
        // x within a few ulps of a's exact value: its error as declared.
        const nudged = x + ulps * Number.EPSILON * Math.abs(x);
        const err = 4 * Number.EPSILON * Math.abs(x);
        const sign = nearSign(nudged, err, b);
        if (sign !== 0) expect(sign).toBe(a.cmp(b));
        expect(nearSign(x, 0, a)).toBe(0);
      }),
      { numRuns: 2000 },
    );
  });

  it('resting orders and OCO legs: the doubles answer as the exact reach does, and answer most', () => {
    let told = 0;
    let asked = 0;
    fc.assert(
      fc.property(cases, (c) => {
        const m = marketOf(c);
        const tick = dec(c.tick);
        const account = new Account({ apiKey: 'k', apiSecret: 's' });
        for (let s = 0; s < c.steps.length; s++) {
          const span = m.advance();
          const reach = m.reachOf(span);
          const near = m.nearReachOf(span);
          // A candle end with more digits than a double holds: no doubles, the exact reach alone.
          if (near === undefined) continue;
          c.probes.forEach((p, i) => {
            const order = { side: p.side, price: probePrice(p, reach, tick) };
            const answer = nearReached(order, near);
            asked++;
            if (answer !== undefined) told++;
            if (answer !== undefined) expect(answer).toBe(reached(order, reach));
            // The same price as an OCO's stop (activation either way) and another probe's as its take-profit.
            const stop = { ...order, orderId: 2 * i + 1, activationPrice: order.price, activationCondition: p.gte ? 'gte' : 'lte' } as unknown as SimOrder;
            const other = c.probes[(i + 1) % c.probes.length] as Case['probes'][number];
            const tp = { side: other.side, price: probePrice(other, reach, tick), orderId: 2 * i + 2 } as unknown as SimOrder;
            account.orders.set(stop.orderId, stop);
            account.orders.set(tp.orderId, tp);
            const rec = { stopLossOrderId: stop.orderId, takeProfitOrderId: tp.orderId } as unknown as OcoRecord;
            const oco = ocoNearReached(account, rec, near);
            if (oco !== undefined) expect(oco).toBe(ocoReached(account, rec, reach));
          });
        }
      }),
      { numRuns: 400 },
    );
    // Prices half a tick or more from an end are told by the doubles (a double holds such a move).
    expect(told / asked).toBeGreaterThan(0.5);
  });

  it("a candle's legs: the doubles answer as each leg's exact span does, and answer most", () => {
    let told = 0;
    let asked = 0;
    fc.assert(
      fc.property(cases, (c) => {
        const m = marketOf(c);
        const tick = dec(c.tick);
        for (let s = 0; s < c.steps.length; s++) {
          for (const leg of m.pathOf(m.advance())) {
            const near = m.nearLegOf(leg);
            // A step of price rows has one leg, its close's span, matched exactly; an end with too many digits has no doubles.
            if (near === undefined) continue;
            // The doubles lie within their errors of the exact ends.
            expect([nearSign(near.low, near.lowErr, leg.low), nearSign(near.high, near.highErr, leg.high)]).toEqual([0, 0]);
            for (const p of c.probes) {
              const order = { side: p.side, price: probePrice(p, leg, tick) };
              const answer = nearReached(order, near);
              asked++;
              if (answer !== undefined) told++;
              if (answer !== undefined) expect(answer).toBe(reached(order, leg));
            }
          }
        }
      }),
      { numRuns: 400 },
    );
    expect(told / asked).toBeGreaterThan(0.5);
  });

  it('a price on the reach exactly is left to the exact comparison', () => {
    const near = { low: 100.01, lowErr: 1e-12, high: 100.5, highErr: 1e-12 };
    expect(nearReached({ side: 'buy', price: new Decimal('100.01') }, near)).toBeUndefined();
    expect(nearReached({ side: 'buy', price: new Decimal('100.02') }, near)).toBe(true);
    expect(nearReached({ side: 'buy', price: new Decimal('100') }, near)).toBe(false);
    expect(nearReached({ side: 'sell', price: new Decimal('100.5') }, near)).toBeUndefined();
    expect(nearReached({ side: 'sell', price: new Decimal('100.49') }, near)).toBe(true);
    expect(nearReached({ side: 'sell', price: new Decimal('100.51') }, near)).toBe(false);
  });
});
