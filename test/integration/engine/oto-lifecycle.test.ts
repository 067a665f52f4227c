import { describe, expect, it } from 'vitest';
import { Decimal } from '../../../src/core/decimal.js';
import { ReadModels } from '../../../src/engine/read-models.js';
import { tempDir } from '../../support/temp-dir.js';
import { engineFor, storeDeals, truthDeals } from '../../support/engine-stack.js';
import { useStack } from '../../support/test-scope.js';

const tick = (d: Decimal) => d.toDecimalPlaces(1);

describe('OTO lifecycle', () => {
  it('parent fills, take-profit or stop executes, the other leg is cancelled, the position closes, PnL exact', async () => {
    const stack = await useStack();
    const { sim, clock } = stack;
    const dir = tempDir();
    const e = engineFor(dir, sim, clock);
    try {
      const p0 = new Decimal(sim.prices().prices['BTC_PERP'] as string);
      // A: take-profit, with a reconciliation between each step (legs learned from the listing)
      const a = await e.orders.placeCollateralOrder('oto', {
        market: 'BTC_PERP',
        side: 'buy',
        amount: new Decimal('0.01'),
        price: tick(p0.mul('1.01')),
        stopLoss: tick(p0.mul('0.95')),
        takeProfit: tick(p0.mul('1.05')),
      });
      expect(a.status).toBe('placed');
      await e.reconciler.reconcileOnce();
      expect(e.store.orders.get(a.clientOrderId)?.state).toBe('FILLED');
      expect(e.store.children.byParent(a.clientOrderId).map((c) => [c.kind, c.state, c.orderId !== null])).toEqual([
        ['stop_loss', 'active', true],
        ['take_profit', 'active', true],
      ]);
      sim.setPrice('BTC_PERP', tick(p0.mul('1.06')).toFixed());
      await e.reconciler.reconcileOnce();
      expect(e.store.children.byParent(a.clientOrderId).map((c) => [c.kind, c.state])).toEqual([
        ['stop_loss', 'cancelled'],
        ['take_profit', 'filled'],
      ]);
      const read = new ReadModels(e.store);
      let [pos] = read.positions('oto');
      expect(pos?.base.isZero()).toBe(true);
      const fillsA = e.store.fills.byStrategy('oto');
      expect(fillsA).toHaveLength(2);
      const entry = fillsA.find((f) => f.side === 'buy')!;
      const exit = fillsA.find((f) => f.side === 'sell')!;
      expect(exit.price.eq(tick(p0.mul('1.05')))).toBe(true);
      expect(pos?.realisedPnl.eq(exit.price.minus(entry.price).mul('0.01'))).toBe(true);
      const truthPos = () => sim.truth().positions.find((p) => p.market === 'BTC_PERP');
      expect(pos?.realisedPnl.toFixed()).toBe(new Decimal(truthPos()!.realisedPnl).toFixed());

      // B: stop-loss, and the legs execute before any listing sees them (matched from fills alone)
      const p1 = new Decimal(sim.prices().prices['BTC_PERP'] as string);
      const b = await e.orders.placeCollateralOrder('oto', {
        market: 'BTC_PERP',
        side: 'buy',
        amount: new Decimal('0.02'),
        price: tick(p1.mul('1.01')),
        stopLoss: tick(p1.mul('0.97')),
        takeProfit: tick(p1.mul('1.05')),
      });
      sim.setPrice('BTC_PERP', tick(p1.mul('0.96')).toFixed());
      clock.advance(1_000);
      await e.reconciler.reconcileOnce();
      expect(e.store.orders.get(b.clientOrderId)?.state).toBe('FILLED');
      expect(e.store.children.byParent(b.clientOrderId).map((c) => [c.kind, c.state])).toEqual([
        ['stop_loss', 'filled'],
        ['take_profit', 'cancelled'],
      ]);
      [pos] = read.positions('oto');
      expect(pos?.base.isZero()).toBe(true);
      expect(pos?.realisedPnl.toFixed()).toBe(new Decimal(truthPos()!.realisedPnl).toFixed());
      expect(new Decimal(truthPos()!.amount).isZero()).toBe(true);
      // venue agrees: for each OCO one leg FILLED and the other CANCELLED
      const legs = sim.truth().orders.filter((o) => o.ocoId !== null);
      expect(legs.map((l) => l.status).sort()).toEqual(['CANCELLED', 'CANCELLED', 'FILLED', 'FILLED']);
      expect(storeDeals(e.store.fills.all())).toEqual(truthDeals(sim.truth()));
      expect(e.store.fills.all().every((f) => f.strategyId === 'oto')).toBe(true);
      expect(e.store.alerts.list('protective_leg_missing')).toEqual([]);
    } finally {
      await e.close();
    }
  });
});
