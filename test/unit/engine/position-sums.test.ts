/**
 * A book's base and open cost are kept as its lots open and close (positions.ts), not summed over
 * every open lot at each read: after every fill they equal the sums over the lots of a plain FIFO
 * fold, digit for digit, with short figures (kept) and with figures that are not (a divided
 * price, a long amount: summed over the lots again).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Decimal, ZERO } from '../../../src/core/decimal.js';
import type { Side } from '../../../src/core/orders.js';
import { PositionBooks } from '../../../src/engine/positions.js';
import type { PositionFill } from '../../../src/model/fills.js';

/** The reference: FIFO lots, summed from zero over the lots left. */
function reference(fills: readonly PositionFill[]): { base: string; cost: string; avg: string | null } {
  const lots: { base: Decimal; price: Decimal }[] = [];
  for (const f of fills) {
    const sign = f.side === 'buy' ? 1 : -1;
    let left = f.amount;
    while (left.gt(0) && lots[0] !== undefined && lots[0].base.isPositive() !== sign > 0) {
      const lot = lots[0];
      const m = Decimal.min(lot.base.abs(), left);
      left = left.minus(m);
      if (m.eq(lot.base.abs())) lots.shift();
      else lot.base = lot.base.isPositive() ? lot.base.minus(m) : lot.base.plus(m);
    }
    if (left.gt(0)) lots.push({ base: sign > 0 ? left : left.neg(), price: f.price });
  }
  let base = ZERO;
  let cost = ZERO;
  for (const l of lots) {
    base = base.plus(l.base);
    cost = cost.plus(l.base.abs().mul(l.price));
  }
  return { base: base.toString(), cost: cost.toString(), avg: base.isZero() ? null : cost.div(base.abs()).toDecimalPlaces(18).toString() };
}

const figure = fc.oneof(
  { weight: 8, arbitrary: fc.integer({ min: 1, max: 10_000_000 }).map((n) => new Decimal(n).div(10_000)) },
  // Not short: a divided price (60 digits) or an amount with more places than the kept sums allow.
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 1_000 }).map((n) => new Decimal(n).div(3)) },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 1_000 }).map((n) => new Decimal(n).div('1e14')) },
);

const fillArb = fc.record({ side: fc.constantFrom<Side>('buy', 'sell'), amount: figure, price: figure });

describe('a book keeps its lot sums', () => {
  it('property: base, open cost and average entry equal the sums over the lots after every fill', () => {
    fc.assert(
      fc.property(fc.array(fillArb, { minLength: 1, maxLength: 60 }), (raw) => {
        const books = new PositionBooks();
        const fills: PositionFill[] = [];
        raw.forEach((r, i) => {
          const f: PositionFill = { dealId: i + 1, strategyId: 's', market: 'BTC_USDT', side: r.side, timeMs: i + 1, amount: r.amount, price: r.price, quote: r.amount.mul(r.price), fee: ZERO, feeAsset: 'USDT' };
          fills.push(f);
          expect(books.apply(f)).toBe(true);
          const [p] = books.positions('s');
          const want = reference(fills);
          expect({ base: p?.base.toString(), cost: p?.openCost.toString(), avg: p?.avgEntry?.toString() ?? null }).toEqual(want);
        });
      }),
      { numRuns: 300 },
    );
  });

  it('a long position opened and closed over many lots ends flat at zero', () => {
    const books = new PositionBooks();
    for (let i = 1; i <= 200; i++) books.apply({ dealId: i, strategyId: 's', market: 'M', side: 'buy', timeMs: i, amount: new Decimal('0.001'), price: new Decimal(40_000 + i), quote: ZERO, fee: ZERO, feeAsset: '' });
    const [open] = books.positions('s');
    expect(open?.base.toString()).toBe('0.2');
    expect(open?.openCost.toString()).toBe('8020.1');
    books.apply({ dealId: 201, strategyId: 's', market: 'M', side: 'sell', timeMs: 201, amount: new Decimal('0.2'), price: new Decimal(41_000), quote: ZERO, fee: ZERO, feeAsset: '' });
    const [flat] = books.positions('s');
    expect(flat?.base).toBe(ZERO);
    expect(flat?.openCost).toBe(ZERO);
    expect(flat?.avgEntry).toBeNull();
  });
});
