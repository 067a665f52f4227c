import { describe, expect, it } from 'vitest';
import { Decimal } from '../../../src/core/decimal.js';
import { derivePositions } from '../../../src/engine/positions.js';
import type { LimitOrderSpec } from '../../../src/engine/order-manager.js';
import { tempDir } from '../../support/temp-dir.js';
import { engineFor, storeDeals, storeSums, truthDeals, truthNetBase } from '../../support/engine-stack.js';
import { useStack } from '../../support/test-scope.js';

/** A ladder of orders around the current price: some cross at once, the rest rest and fill as the price walks. */
function ladder(market: string, price: Decimal, amount: string, n: number, round: number): LimitOrderSpec[] {
  return Array.from({ length: n }, (_, i) => {
    const side = i % 2 === 0 ? 'buy' : 'sell';
    const off = new Decimal((i % 7) - 2 + round).div(1000); // −0.2 % .. +0.4 %
    const p = side === 'buy' ? price.mul(new Decimal(1).minus(off)) : price.mul(new Decimal(1).plus(off));
    return { market, side, amount: new Decimal(amount), price: p.toDecimalPlaces(2) };
  });
}

describe('restart', () => {
  it('stop mid-run, start again: store equals the simulator truth exactly (fills, per-market sums, positions)', async () => {
    const stack = await useStack();
    const { sim, clock } = stack;
    const dir = tempDir();
    const run = async (rounds: number, offset: number) => {
      const e = engineFor(dir, sim, clock);
      await e.reconciler.reconcileOnce(); // start-up reconciliation before any trading
      for (let r = 0; r < rounds; r++) {
        const prices = sim.prices().prices;
        await e.orders.placeLimitOrders('grid', [
          ...ladder('BTC_USDT', new Decimal(prices['BTC_USDT'] as string), '0.0003', 12, r + offset),
          ...ladder('ETH_USDT', new Decimal(prices['ETH_USDT'] as string), '0.01', 12, r + offset),
        ]);
        clock.advance(5_000);
        if (r % 2 === 1) await e.reconciler.reconcileOnce();
        if (r % 3 === 2) await e.orders.cancelAll('grid', 'ETH_USDT');
      }
      return e;
    };
    const first = await run(5, 0);
    await first.close(); // stopped mid-run: orders resting, fills not yet scanned
    clock.advance(20_000); // the venue keeps filling while the bot is down
    const second = await run(4, 5);
    clock.advance(10_000);
    await second.reconciler.reconcileOnce();
    try {
      const truth = sim.truth();
      const fills = second.store.fills.all();
      expect(fills.length).toBeGreaterThan(20);
      expect(storeDeals(fills)).toEqual(truthDeals(truth));
      expect(storeSums(fills)).toEqual(truth.deals.byMarket);
      const net = Object.fromEntries(derivePositions(fills).map((p) => [p.market, p.base.toFixed()]));
      expect(net).toEqual(truthNetBase(truth));
      // every fill belongs to our strategy (nothing external here)
      expect(fills.every((f) => f.strategyId === 'grid')).toBe(true);
      // orders: each of ours once at the venue, states agree
      const venue = new Map(truth.orders.map((o) => [o.clientOrderId, o.status]));
      for (const o of second.store.orders.all()) {
        const v = venue.get(o.clientOrderId);
        const expected = v === 'NEW' ? 'OPEN' : v;
        if (o.state === 'REJECTED') expect(v).toBeUndefined();
        else expect(o.state === 'PARTIALLY_FILLED' ? 'PARTIALLY_FILLED' : o.state).toBe(expected);
      }
      expect(second.store.orders.listByState(['UNKNOWN', 'PENDING', 'PENDING_CANCEL'])).toEqual([]);
      const byState = second.store.orders.countByState();
      expect(byState['FILLED']).toBeGreaterThan(0);
      expect(byState['CANCELLED']).toBeGreaterThan(0);
      expect(byState['OPEN']).toBeGreaterThan(0);
    } finally {
      await second.close();
    }
  });
});
