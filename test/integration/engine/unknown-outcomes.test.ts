import { describe, expect, it } from 'vitest';
import { Decimal } from '../../../src/core/decimal.js';
import type { LimitOrderSpec } from '../../../src/engine/order-manager.js';
import { tempDir } from '../../support/temp-dir.js';
import { engineFor, storeDeals, truthDeals, truthOrderCounts } from '../../support/engine-stack.js';
import { useStack } from '../../support/test-scope.js';

describe('unknown outcomes', () => {
  it('10% of writes applied then dropped: 500 orders → 0 duplicates, 0 false rejections, every UNKNOWN resolved', async () => {
    const drop = { dropAfterApply: { rate: 0.1, mode: 'reset' as const } };
    const stack = await useStack({ faults: { '/api/v4/order/bulk': drop, '/api/v4/order/cancel': drop } });
    const { sim, clock } = stack;
    const dir = tempDir();
    const e = engineFor(dir, sim, clock, { resolve: { graceMs: 5_000, minLooks: 2 }, responseMs: 1000 });
    try {
      const price = new Decimal(sim.prices().prices['BTC_USDT'] as string);
      let unknown = 0;
      for (let batch = 0; batch < 50; batch++) {
        const specs: LimitOrderSpec[] = Array.from({ length: 10 }, (_, i) => {
          // a third cross at once (filled), the rest rest below/above the price
          const cross = (batch * 10 + i) % 3 === 0;
          const side = i % 2 === 0 ? 'buy' : 'sell';
          const f = cross ? (side === 'buy' ? '1.01' : '0.99') : side === 'buy' ? '0.95' : '1.05';
          return { market: 'BTC_USDT', side, amount: new Decimal('0.0002'), price: price.mul(f).toDecimalPlaces(2) };
        });
        const out = await e.orders.placeLimitOrders('u', specs);
        unknown += out.filter((o) => o.status === 'unknown').length;
        if (batch % 10 === 9) await e.orders.cancelAll('u');
      }
      expect(unknown).toBeGreaterThan(0); // the fault really bit
      const total = e.store.orders.all().length;
      expect(total).toBe(500);
      // resolve: reconcile passes with the grace period running out
      for (let i = 0; i < 10 && e.store.orders.listByState(['UNKNOWN', 'PENDING', 'PENDING_CANCEL']).length > 0; i++) {
        await e.reconciler.reconcileOnce();
        clock.advance(3_000);
      }
      sim.setFaults({});
      await e.reconciler.reconcileOnce();
      expect(e.store.orders.listByState(['UNKNOWN', 'PENDING', 'PENDING_CANCEL'])).toEqual([]);

      const truth = sim.truth();
      const counts = truthOrderCounts(truth);
      // 0 duplicates: no clientOrderId reached the venue twice
      expect([...counts.values()].filter((n) => n > 1)).toEqual([]);
      // 0 false rejections: nothing we call REJECTED exists at the venue
      const rejected = e.store.orders.listByState(['REJECTED']);
      expect(rejected.filter((o) => counts.has(o.clientOrderId))).toEqual([]);
      // every order the venue has is ours and agrees on FILLED
      const ours = new Set(e.store.orders.all().map((o) => o.clientOrderId));
      for (const cid of counts.keys()) expect(ours.has(cid)).toBe(true);
      for (const o of truth.orders) {
        if (o.status === 'FILLED') expect(e.store.orders.get(o.clientOrderId)?.state).toBe('FILLED');
      }
      // and every fill is in the store exactly once
      expect(storeDeals(e.store.fills.all())).toEqual(truthDeals(truth));
    } finally {
      await e.close();
    }
  });
});
