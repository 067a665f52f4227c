import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Decimal, ZERO } from '../../../src/core/decimal.js';
import type { Side } from '../../../src/core/orders.js';
import { derivePositions, marketSums } from '../../../src/engine/positions.js';
import type { PositionFill } from '../../../src/model/fills.js';

const d = (s: string) => new Decimal(s);
function fill(dealId: number, side: Side, amount: string, price: string, fee = '0'): PositionFill {
  return { dealId, strategyId: 's', market: 'BTC_USDT', side, timeMs: dealId, amount: d(amount), price: d(price), quote: d(amount).mul(price), fee: d(fee), feeAsset: 'USDT' };
}

describe('positions', () => {
  it('given buys then a sell, realised PnL is FIFO-exact and avg entry is the open cost / base', () => {
    const [p] = derivePositions([fill(1, 'buy', '0.1', '100.1', '0.01'), fill(2, 'buy', '0.2', '103'), fill(3, 'sell', '0.15', '110.37', '0.02')]);
    // 0.1 @100.1 closed: 1.027, 0.05 @103 closed: 0.3685
    expect(p?.realisedPnl.toFixed()).toBe('1.3955');
    expect(p?.base.toFixed()).toBe('0.15');
    expect(p?.avgEntry?.toFixed()).toBe('103');
    expect(p?.fees['USDT']?.toFixed()).toBe('0.03');
  });

  it('flips from long to short and closes the short', () => {
    const [p] = derivePositions([fill(1, 'buy', '1', '10'), fill(2, 'sell', '3', '12'), fill(3, 'buy', '2', '11')]);
    expect(p?.base.toFixed()).toBe('0');
    expect(p?.avgEntry).toBeNull();
    expect(p?.realisedPnl.toFixed()).toBe('4'); // +2 on the long, +2 on the short
  });

  it('refuses duplicate deal ids', () => {
    expect(() => derivePositions([fill(1, 'buy', '1', '1'), fill(1, 'buy', '1', '1')])).toThrow();
  });

  const fillsArb = fc.array(
    fc.record({
      side: fc.constantFrom<Side>('buy', 'sell'),
      amount: fc.integer({ min: 1, max: 10_000 }),
      price: fc.integer({ min: 1, max: 1_000_000 }),
    }),
    { minLength: 1, maxLength: 60 },
  );

  it('property: once flat, realised PnL equals sold quote − bought quote exactly', () => {
    fc.assert(
      fc.property(fillsArb, (raw) => {
        const fills = raw.map((r, i) => fill(i + 1, r.side, new Decimal(r.amount).div(1000).toFixed(), new Decimal(r.price).div(100).toFixed()));
        let net = ZERO;
        for (const f of fills) net = f.side === 'buy' ? net.plus(f.amount) : net.minus(f.amount);
        // close whatever is open at a final price
        if (!net.isZero()) fills.push(fill(fills.length + 1, net.gt(0) ? 'sell' : 'buy', net.abs().toFixed(), '123.45'));
        const [p] = derivePositions(fills);
        const s = marketSums(fills)[0];
        expect(p?.base.isZero()).toBe(true);
        expect(p?.realisedPnl.eq(s!.sellQuote.minus(s!.buyQuote))).toBe(true);
      }),
      { numRuns: 200 },
    );
  });

  it('property: order of input does not change the result; base = bought − sold', () => {
    fc.assert(
      fc.property(fillsArb, fc.integer(), (raw, seed) => {
        const fills = raw.map((r, i) => fill(i + 1, r.side, String(r.amount), String(r.price)));
        const shuffled = [...fills].sort((a, b) => ((a.dealId * 7919 + seed) % 97) - ((b.dealId * 7919 + seed) % 97));
        const [a] = derivePositions(fills);
        const [b] = derivePositions(shuffled);
        expect(a?.realisedPnl.eq(b!.realisedPnl)).toBe(true);
        expect(a?.base.eq(a.boughtBase.minus(a.soldBase))).toBe(true);
      }),
      { numRuns: 100 },
    );
  });
});
