/**
 * `PositionBooks.kept` hands out the same frozen list while no book changed, and after any fill
 * applied (a new book or a moved one) or a reset a list equal to a fresh `positions()` read: on
 * random fills of several owners (null among them) and markets, read by every owner filter.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Decimal } from '../../../src/core/decimal.js';
import { PositionBooks } from '../../../src/engine/positions.js';
import type { PositionFill } from '../../../src/model/fills.js';

const OWNERS = ['b', 'a', null, 'c'] as const;
const MARKETS = ['ETH_USDT', 'BTC_USDT', 'BTC_PERP'];
const FILTERS = [undefined, null, 'a', 'b', 'c', 'z'] as const;

const step = fc.record({
  owner: fc.integer({ min: 0, max: OWNERS.length - 1 }),
  market: fc.integer({ min: 0, max: MARKETS.length - 1 }),
  buy: fc.boolean(),
  amount: fc.integer({ min: 1, max: 50 }),
  reset: fc.integer({ min: 0, max: 15 }),
  late: fc.integer({ min: 0, max: 10 }),
});

describe('PositionBooks.kept', () => {
  it('is the same frozen list while nothing changed, and equals a fresh read after every change', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 40 }), (steps) => {
        const books = new PositionBooks();
        let id = 0;
        for (const s of steps) {
          if (s.reset === 0) books.reset();
          // A late fill (time before the book's last) is refused and changes nothing.
          const timeMs = s.late === 0 ? 0 : ++id;
          const amount = new Decimal(s.amount).div(10);
          const f: PositionFill = {
            dealId: ++id, strategyId: OWNERS[s.owner] ?? null, market: MARKETS[s.market] ?? 'BTC_USDT', side: s.buy ? 'buy' : 'sell',
            timeMs, amount, price: new Decimal(100 + s.amount), quote: amount.mul(100 + s.amount), fee: new Decimal(0), feeAsset: 'USDT',
          };
          const before = FILTERS.map((o) => books.kept(o));
          const applied = books.apply(f);
          FILTERS.forEach((o, i) => {
            const list = books.kept(o);
            expect(Object.isFrozen(list)).toBe(true);
            expect(list).toEqual(books.positions(o));
            expect(books.kept(o)).toBe(list);
            if (!applied) expect(list).toBe(before[i]);
          });
        }
      }),
      { numRuns: 150 },
    );
  });
});
