/**
 * The account's listing mark (`Account.listingChanges`, src/simulator/account.ts) moves whenever
 * what the conditional listing shows changes: a record created, activated or ended, an order it
 * carries dealt or cancelled. Random operations on a real venue (spot orders, collateral orders
 * with brackets, cancels, price moves and steps, the venue cancelling an OCO or settling the
 * account); after each one, a changed listing with an unchanged mark fails. A deal of a plain
 * order leaves the mark, which is what lets the in-process gateway keep the listing.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { Decimal } from '../../../src/core/decimal.js';
import type { Account } from '../../../src/simulator/account.js';
import { SimHttpError } from '../../../src/simulator/errors.js';
import { Venue } from '../../../src/simulator/venue.js';
import { conditionalWire } from '../../../src/simulator/wire.js';
import { apply, MARKETS, op } from '../../support/venue-ops.js';

/** The records the conditional listing shows (every market), in the wire form the route answers. */
function listing(venue: Venue, account: Account): string {
  const records = [...account.conditionals.values()].filter((c) => c.active).map((c) => conditionalWire(c, account, (m) => venue.markets.get(m)));
  return JSON.stringify(records);
}

/** `thin`: a step's volume below an order's amount, so orders (brackets' parents too) fill in parts. */
function fresh(seed: number, thin = false): { venue: Venue; account: Account } {
  const markets = thin ? MARKETS.map((m) => ({ ...m, volumePerStep: '0.1' })) : MARKETS;
  const venue = new Venue(new ManualClock(1_700_000_000_000), seed, markets, 1000);
  return { venue, account: venue.addAccount({ apiKey: 'k', apiSecret: 's', balances: { USDT: '1000000', BTC: '100' } }) };
}

describe('account listing mark', () => {
  it('property: whenever the conditional listing changes, the listing mark has moved', () => {
    let moves = 0;
    let dealsWithoutMove = 0;
    fc.assert(
      fc.property(fc.array(op, { minLength: 1, maxLength: 40 }), fc.integer({ min: 0, max: 1000 }), fc.boolean(), (ops, seed, thin) => {
        const { venue, account } = fresh(seed, thin);
        ops.forEach((o, n) => {
          const before = listing(venue, account);
          const mark = account.listingChanges;
          const changes = account.changes;
          try {
            apply(venue, account, o, n);
          } catch (err) {
            if (!(err instanceof SimHttpError)) throw err;
          }
          const changed = listing(venue, account) !== before;
          if (changed) moves++;
          if (account.changes !== changes && account.listingChanges === mark) dealsWithoutMove++;
          expect(changed && account.listingChanges === mark, `${o.kind} changed the listing without moving its mark`).toBe(false);
          expect(account.listingChanges - mark).toBeLessThanOrEqual(account.changes - changes);
        });
      }),
      { numRuns: 200 },
    );
    expect(moves).toBeGreaterThan(100); // the operations did change the listing
    expect(dealsWithoutMove).toBeGreaterThan(20); // and plain orders' deals left its mark
  });

  it('stays on a plain order’s deal and moves on a deal of a bracket’s parent', () => {
    const { venue, account } = fresh(1);
    const order = { amount: new Decimal('0.3'), postOnly: false, ioc: false, rpi: false } as const;
    venue.place(account, { ...order, market: 'BTC_PERP', side: 'buy', price: new Decimal('90'), clientOrderId: 'bracket', kind: 'collateral', stopLoss: new Decimal('80'), takeProfit: new Decimal('120') });
    venue.place(account, { ...order, market: 'BTC_USDT', side: 'buy', price: new Decimal('95'), clientOrderId: 'plain', kind: 'spot' });
    const mark = account.listingChanges;
    const changes = account.changes;
    venue.setPrice('BTC_USDT', '94');
    expect(account.changes).toBeGreaterThan(changes); // the plain buy filled
    expect(account.listingChanges).toBe(mark);
    venue.setPrice('BTC_PERP', '89');
    expect(account.listingChanges).toBeGreaterThan(mark); // the parent filled: its OTO became an OCO
  });

  it('moves on a partial deal of a bracket’s parent, whose OTO stays listed', () => {
    const { venue, account } = fresh(1, true);
    const order = { amount: new Decimal('0.3'), postOnly: false, ioc: false, rpi: false } as const;
    venue.place(account, { ...order, market: 'BTC_PERP', side: 'buy', price: new Decimal('90'), clientOrderId: 'bracket', kind: 'collateral', stopLoss: new Decimal('80'), takeProfit: new Decimal('120') });
    const before = listing(venue, account);
    const mark = account.listingChanges;
    venue.setPrice('BTC_PERP', '89');
    const parent = [...account.orders.values()].find((o) => o.clientOrderId === 'bracket');
    expect(parent?.status).toBe('PARTIALLY_FILLED');
    expect(listing(venue, account)).not.toBe(before);
    expect(account.listingChanges).toBeGreaterThan(mark);
  });
});
