/**
 * Two shortcuts of the venue's account state give the answers of the full state:
 * - a venue whose account forgets settled orders (AccountOptions.keepSettledOrders = false, what a
 *   backtest sets) makes the same deals, balances, positions, open orders, conditional records and
 *   carried orders (of the active records: the listing shows no other) as one that keeps them,
 *   under the same random operations, and holds only the active conditional records and the
 *   orders still open or carried by one of them;
 * - the active OCO records of a market (conditional-map.ts, what each price step matches) are
 *   always exactly those the full listing's filter selects, in the listing's order.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import type { Account } from '../../../src/simulator/account.js';
import { SimHttpError } from '../../../src/simulator/errors.js';
import { Venue } from '../../../src/simulator/venue.js';
import { apply, MARKETS, op, type Op } from '../../support/venue-ops.js';

/** What the venue answers about an account, as text (the orders map itself apart). */
function answers(account: Account): string {
  // The listing shows active records only (an account that forgets settled orders drops ended ones).
  const active = [...account.conditionals.values()].filter((r) => r.active);
  const carried = active.map((r) =>
    r.type === 'oto' ? [account.orders.get(r.parentOrderId)] : [r.stopLossOrderId, r.takeProfitOrderId].map((id) => (id === undefined ? null : account.orders.get(id))),
  );
  return JSON.stringify({
    deals: account.deals,
    balances: [...account.balances],
    locked: [...account.locked],
    positions: [...account.positions],
    open: account.openOrders(),
    conditionals: active,
    carried,
    changes: account.changes,
  });
}

function run(ops: Op[], seed: number, keepSettledOrders: boolean, after: (account: Account) => void): void {
  const venue = new Venue(new ManualClock(1_700_000_000_000), seed, MARKETS, 1000);
  const account = venue.addAccount({ apiKey: 'k', apiSecret: 's', balances: { USDT: '1000000', BTC: '100' }, keepSettledOrders });
  ops.forEach((o, n) => {
    try {
      apply(venue, account, o, n);
    } catch (err) {
      if (!(err instanceof SimHttpError)) throw err;
    }
    after(account);
  });
}

/** Orders some conditional record refers to, by id. */
function carriedIds(account: Account): Set<number> {
  const ids = new Set<number>();
  for (const r of account.conditionals.values()) {
    if (r.type === 'oto') ids.add(r.parentOrderId);
    else for (const id of [r.stopLossOrderId, r.takeProfitOrderId]) if (id !== undefined) ids.add(id);
  }
  return ids;
}

describe('settled orders and the active OCO index', () => {
  it('property: forgetting settled orders changes no answer, and only settled orders outside any record are forgotten', () => {
    let forgotten = 0;
    let ended = 0;
    fc.assert(
      fc.property(fc.array(op, { minLength: 1, maxLength: 40 }), fc.integer({ min: 0, max: 1000 }), (ops, seed) => {
        const kept: string[] = [];
        run(ops, seed, true, (a) => {
          kept.push(answers(a));
          ended = Math.max(ended, [...a.conditionals.values()].filter((r) => !r.active).length);
        });
        let i = 0;
        run(ops, seed, false, (a) => {
          expect(answers(a)).toBe(kept[i++]);
          const carried = carriedIds(a);
          const open = new Set(a.openOrders().map((o) => o.orderId));
          for (const id of a.orders.keys()) expect(open.has(id) || carried.has(id), `order ${id} settled and kept`).toBe(true);
          for (const id of [...open, ...carried]) expect(a.orders.has(id), `order ${id} forgotten`).toBe(true);
          for (const r of a.conditionals.values()) expect(r.active, `ended record ${r.id} kept`).toBe(true);
          forgotten = Math.max(forgotten, a.deals.length - a.orders.size);
        });
      }),
      { numRuns: 120 },
    );
    expect(forgotten).toBeGreaterThan(0); // orders were in fact forgotten
    expect(ended).toBeGreaterThan(0); // and records did end
  });

  it('property: the active OCO records of a market are those the full listing selects, in its order', () => {
    let seen = 0;
    fc.assert(
      fc.property(fc.array(op, { minLength: 1, maxLength: 40 }), fc.integer({ min: 0, max: 1000 }), (ops, seed) => {
        run(ops, seed, true, (a) => {
          for (const { name } of MARKETS) {
            const full = [...a.conditionals.values()].filter((r) => r.type === 'oco' && r.active && r.market === name);
            const indexed = [...a.conditionals.activeOcos(name)];
            expect(indexed).toEqual(full);
            seen += indexed.length;
          }
        });
      }),
      { numRuns: 120 },
    );
    expect(seen).toBeGreaterThan(0); // active OCO records did occur
  });
});
