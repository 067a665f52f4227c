/**
 * The account change mark (src/simulator/account.ts) moves whenever anything a reconciliation
 * reads from the venue changes: the account's deals, its conditional records (OTO, OCO,
 * activation) and the orders they carry (an OTO's parent, an OCO's legs). Random operations on a
 * real venue (placing spot and collateral orders with brackets, cancelling, price moves and
 * steps, the venue cancelling an OCO or settling the account); after each one, a changed
 * snapshot of that state with an unchanged mark fails.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { Decimal } from '../../../src/core/decimal.js';
import type { Account } from '../../../src/simulator/account.js';
import { SimHttpError } from '../../../src/simulator/errors.js';
import { Venue } from '../../../src/simulator/venue.js';
import { apply, MARKETS, op } from '../../support/venue-ops.js';

/** Everything of the account a reconciliation reads from the venue, as text. */
function snapshot(account: Account): string {
  const carried = [...account.conditionals.values()].map((r) =>
    r.type === 'oto' ? [account.orders.get(r.parentOrderId)] : [r.stopLossOrderId, r.takeProfitOrderId].map((id) => (id === undefined ? null : account.orders.get(id))),
  );
  return JSON.stringify({ deals: account.deals, conditionals: [...account.conditionals.values()], carried });
}

describe('account change mark', () => {
  it('property: whenever deals, conditional records or the orders they carry change, the mark has moved', () => {
    let moves = 0;
    fc.assert(
      fc.property(fc.array(op, { minLength: 1, maxLength: 40 }), fc.integer({ min: 0, max: 1000 }), (ops, seed) => {
        const clock = new ManualClock(1_700_000_000_000);
        const venue = new Venue(clock, seed, MARKETS, 1000);
        const account = venue.addAccount({ apiKey: 'k', apiSecret: 's', balances: { USDT: '1000000', BTC: '100' } });
        ops.forEach((o, n) => {
          const before = snapshot(account);
          const mark = account.changes;
          try {
            apply(venue, account, o, n);
          } catch (err) {
            if (!(err instanceof SimHttpError)) throw err; // a refused request changes nothing it need not
          }
          const changed = snapshot(account) !== before;
          if (changed) moves++;
          expect(changed && account.changes === mark, `${o.kind} changed the account without moving the mark`).toBe(false);
        });
      }),
      { numRuns: 150 },
    );
    expect(moves).toBeGreaterThan(150); // the operations did change what is read
  });

  it('stands still while nothing a reconciliation reads changes', () => {
    const clock = new ManualClock(1_700_000_000_000);
    const venue = new Venue(clock, 1, MARKETS, 1000);
    const account = venue.addAccount({ apiKey: 'k', apiSecret: 's', balances: { USDT: '1000000', BTC: '100' } });
    venue.place(account, { market: 'BTC_USDT', side: 'buy', amount: new Decimal('0.3'), price: new Decimal('90'), postOnly: false, ioc: false, rpi: false, clientOrderId: 'rest', kind: 'spot' });
    const mark = account.changes;
    venue.step(5); // the price stays at 100: the resting buy at 90 is not reached
    const other = venue.place(account, { market: 'BTC_USDT', side: 'sell', amount: new Decimal('0.3'), price: new Decimal('110'), postOnly: false, ioc: false, rpi: false, clientOrderId: 'plain', kind: 'spot' });
    venue.cancel(account, 'BTC_USDT', other.orderId, undefined); // a plain order, no deal: not in the listing
    expect(account.changes).toBe(mark);
    venue.setPrice('BTC_USDT', '89');
    expect(account.changes).toBeGreaterThan(mark);
  });
});
