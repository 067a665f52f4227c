import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { Decimal, sum } from '../../../src/core/decimal.js';
import { Venue } from '../../../src/simulator/venue.js';

describe('matching properties', () => {
  it('the fills of a resting order sum exactly to its amount, and balances move by exactly the deals and fees', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 5000 }), // amount in steps
        fc.integer({ min: 1, max: 900 }), // volume per step in steps
        fc.integer({ min: 0, max: 10_000 }),
        fc.boolean(),
        (amountSteps, volumeSteps, seed, buy) => {
          const clock = new ManualClock(1_700_000_000_000);
          const step = new Decimal('0.001');
          const venue = new Venue(clock, seed, [
            { name: 'BTC_USDT', startPrice: '100', tick: '0.01', step: '0.001', minTotal: '0', volumePerStep: step.mul(volumeSteps).toFixed(), volatility: '0', makerFee: '0.0007', takerFee: '0.0011' },
          ], 1000);
          const account = venue.addAccount({ apiKey: 'k', apiSecret: 's', balances: { USDT: '1000000', BTC: '100' } });
          const amount = step.mul(amountSteps);
          const order = venue.place(account, {
            market: 'BTC_USDT', side: buy ? 'buy' : 'sell', amount, price: new Decimal(buy ? '99.5' : '100.5'),
            postOnly: false, ioc: false, rpi: false, clientOrderId: 'p', kind: 'spot',
          });
          venue.setPrice('BTC_USDT', buy ? '99' : '101');
          for (let i = 0; i < 20_000 && order.status !== 'FILLED'; i++) {
            clock.advance(1000);
            venue.catchUp();
          }
          expect(order.status).toBe('FILLED');
          const deals = account.deals.filter((d) => d.orderId === order.orderId);
          expect(sum(deals.map((d) => d.amount)).eq(amount)).toBe(true);
          expect(deals.every((d) => d.amount.mod(step).isZero())).toBe(true);
          const quote = sum(deals.map((d) => d.deal));
          const fees = sum(deals.map((d) => d.fee));
          const usdt = buy ? new Decimal('1000000').minus(quote).minus(fees) : new Decimal('1000000').plus(quote).minus(fees);
          const btc = buy ? new Decimal('100').plus(amount) : new Decimal('100').minus(amount);
          expect(account.balance('USDT').toFixed()).toBe(usdt.toFixed());
          expect(account.balance('BTC').toFixed()).toBe(btc.toFixed());
          expect(account.heldOf('USDT').isZero() && account.heldOf('BTC').isZero()).toBe(true);
        },
      ),
      { numRuns: 60 },
    );
  });
});
