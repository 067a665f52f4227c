/**
 * The in-process venue's reading of a deal (`dealFill`, src/backtest/in-process-deals.ts) is what
 * the client's parser reads from the deal's wire form (`parseDeal`): the same fields, the same
 * decimal values and texts, on random deals (amounts of many scales, zero and negative fees,
 * fractional-second times, with and without a clientOrderId); a deal the parser refuses is
 * refused with the parser's error.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Decimal } from '../../../src/core/decimal.js';
import { dealFill, parseDeal } from '../../../src/backtest/in-process-deals.js';
import type { Fill } from '../../../src/model/fills.js';
import type { Deal } from '../../../src/simulator/types.js';

const decimal = (signed: boolean): fc.Arbitrary<Decimal> =>
  fc.tuple(fc.bigInt({ min: signed ? -(10n ** 30n) : 0n, max: 10n ** 30n }), fc.integer({ min: 0, max: 24 })).map(([n, scale]) => new Decimal(n.toString()).div(new Decimal(10).pow(scale)));

const deal: fc.Arbitrary<Deal> = fc.record({
  id: fc.nat(),
  orderId: fc.nat(),
  clientOrderId: fc.oneof(fc.constant(''), fc.string({ minLength: 1, maxLength: 12 })),
  market: fc.constantFrom('BTC_USDT', 'ETH_PERP'),
  side: fc.constantFrom('buy' as const, 'sell' as const),
  role: fc.constantFrom(1 as const, 2 as const),
  amount: decimal(false),
  price: decimal(false),
  deal: decimal(false),
  fee: decimal(true),
  feeAsset: fc.constantFrom('USDT', 'BTC', ''),
  timeMs: fc.integer({ min: 1_600_000_000_000, max: 1_900_000_000_000 }),
});

/** Every field, decimals as their value and their text. */
function fields(f: Fill): unknown {
  const dec = (x: Decimal) => [x.toFixed(), x.isNeg(), x.toString()];
  return { ...f, amount: dec(f.amount), price: dec(f.price), quote: dec(f.quote), fee: dec(f.fee) };
}

function outcome(read: () => readonly Fill[]): unknown {
  try {
    return read().map(fields);
  } catch (err) {
    return { error: String(err), name: (err as Error).name };
  }
}

describe('dealFill', () => {
  it('property: reads a deal as the client parses its wire form', () => {
    fc.assert(
      fc.property(deal, (d) => {
        expect(outcome(() => dealFill(d))).toEqual(outcome(() => parseDeal(d)));
      }),
      { numRuns: 2000 },
    );
  });

  it('refuses what the parser refuses, with its error', () => {
    const base: Deal = { id: 1, orderId: 2, clientOrderId: 'c', market: 'BTC_USDT', side: 'buy', role: 1, amount: new Decimal('0.5'),
      price: new Decimal('100'), deal: new Decimal('50'), fee: new Decimal('-0.01'), feeAsset: 'USDT', timeMs: 1_700_000_000_500 };
    expect(dealFill(base)).toEqual(parseDeal(base));
    const bad: Deal[] = [
      { ...base, amount: new Decimal('-1') },
      { ...base, price: new Decimal('1e-120') },
      { ...base, id: 2 ** 60 },
      { ...base, timeMs: 1_000 },
      { ...base, role: 3 as 1 },
    ];
    for (const d of bad) {
      expect(() => parseDeal(d)).toThrow();
      expect(outcome(() => dealFill(d))).toEqual(outcome(() => parseDeal(d)));
    }
  });
});
