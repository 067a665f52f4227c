/**
 * Collateral positions from the journal's fills follow the venue's position rule: for any
 * sequence of fills, one-way or hedge mode, the fold gives the simulator's own position (amount,
 * entry cost and margin, to the last decimal).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Decimal } from '../../../src/core/decimal.js';
import type { Side } from '../../../src/core/orders.js';
import { collateralPositions, type CollateralFill, type CollateralSide } from '../../../src/engine/collateral-book.js';
import { Account } from '../../../src/simulator/account.js';
import { Market } from '../../../src/simulator/market.js';
import { applyPositionFill } from '../../../src/simulator/positions.js';

const market = new Market({ name: 'BTC_PERP', startPrice: '60000', tick: '0.1', step: '0.0001', minAmount: '0.0001', minTotal: '1', leverage: 7 }, 1);
const d = (s: string) => new Decimal(s);

describe('collateral book', () => {
  it('opens with margin at the leverage and releases it in proportion when reducing', () => {
    const fills: CollateralFill[] = [
      { market: 'BTC_PERP', positionSide: 'BOTH', side: 'buy', amount: d('0.2'), price: d('50000') },
      { market: 'BTC_PERP', positionSide: 'BOTH', side: 'sell', amount: d('0.1'), price: d('55000') },
    ];
    const { positions } = collateralPositions(fills, () => d('10'));
    expect(positions.map((p) => [p.amount.toFixed(), p.cost.toFixed(), p.margin.toFixed()])).toEqual([['0.1', '5000', '500']]);
  });

  it('skips and names markets without a leverage', () => {
    const r = collateralPositions([{ market: 'X_PERP', positionSide: 'BOTH', side: 'buy', amount: d('1'), price: d('1') }], () => undefined);
    expect(r).toEqual({ positions: [], unruled: ['X_PERP'] });
  });

  const fillArb = fc.record({
    side: fc.constantFrom<Side>('buy', 'sell'),
    units: fc.integer({ min: 1, max: 3_000 }),
    ticks: fc.integer({ min: 400_000, max: 800_000 }),
  });

  for (const mode of ['BOTH', 'HEDGE'] as const) {
    it(`equals the simulator's position for any fills (${mode === 'BOTH' ? 'one-way' : 'hedge'} mode)`, () => {
      fc.assert(
        fc.property(fc.array(fc.tuple(fillArb, fc.boolean()), { minLength: 1, maxLength: 40 }), (specs) => {
          const account = new Account({ apiKey: 'k', apiSecret: 's', balances: { USDT: '1000000000' } });
          const fills: CollateralFill[] = specs.map(([s, long]) => {
            const positionSide: CollateralSide = mode === 'BOTH' ? 'BOTH' : long ? 'LONG' : 'SHORT';
            const f = { market: 'BTC_PERP', positionSide, side: s.side, amount: market.step.mul(s.units), price: market.tick.mul(s.ticks) };
            applyPositionFill(account, market, positionSide, f.side, f.amount, f.price);
            return f;
          });
          const mine = collateralPositions(fills, () => market.leverage).positions;
          const venue = [...account.positions.values()].filter((p) => !p.amount.isZero() || !p.margin.isZero());
          const key = (p: { positionSide: string; amount: Decimal; cost: Decimal; margin: Decimal }) => `${p.positionSide} ${p.amount.toFixed()} ${p.cost.toFixed()} ${p.margin.toFixed()}`;
          expect(mine.map(key).sort()).toEqual(venue.map(key).sort());
        }),
        { numRuns: 150 },
      );
    });
  }
});
