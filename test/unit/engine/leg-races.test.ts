/**
 * Protective legs and the reconciler: a leg that executes while a pass runs is never taken for
 * missing (the listing is read before the history scan, and "missing" needs a second look).
 */
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { dec } from '../../../src/core/decimal.js';
import type { ConditionalLeg, ConditionalRecord } from '../../../src/model/conditional.js';
import { applyDeals } from '../../../src/engine/kernels/fills.js';
import { buildEngine, type EngineParts } from '../../support/engine-harness.js';
import { tempDir } from '../../support/temp-dir.js';
import { FakeGateway } from '../../support/fake-gateway.js';
import { closeAfterTest } from '../../support/test-scope.js';


function setup(): { e: EngineParts; g: FakeGateway; clock: ManualClock } {
  const dir = tempDir();
  const g = new FakeGateway();
  const clock = new ManualClock(1_700_000_000_000);
  const e = buildEngine(dir, g, clock);
  closeAfterTest(e.store);
  return { e, g, clock };
}

function leg(over: Partial<ConditionalLeg>): ConditionalLeg {
  return {
    orderId: 1, clientOrderId: '', market: 'BTC_PERP', side: 'sell', type: 'limit', rawType: 'limit', status: 'OPEN',
    amount: dec('1'), price: dec('1'), filledBase: dec('0'), filledQuote: dec('0'), remaining: dec('1'), fee: dec('0'), timestampMs: 0, ...over,
  };
}

const oco: ConditionalRecord = {
  kind: 'oco',
  id: 60,
  stopLoss: leg({ orderId: 9001, type: 'stop limit', rawType: 'stop limit', price: dec('90'), activationPrice: dec('90') }),
  takeProfit: leg({ orderId: 9002, price: dec('110') }),
};

describe('a protective leg executing during a reconciliation pass', () => {
  it('is settled as filled from its deal, with no missing-leg alert', async () => {
    const { e, g, clock } = setup();
    g.place = () => 'fill';
    const o = await e.orders.placeCollateralOrder('s', { market: 'BTC_PERP', side: 'buy', amount: dec('1'), price: dec('100'), stopLoss: dec('90'), takeProfit: dec('110') });
    g.conditional = [oco];
    await e.reconciler.reconcileOnce();
    expect(e.store.children.byParent(o.clientOrderId).map((c) => c.state)).toEqual(['active', 'active']);

    // The take-profit executes while the next pass runs: once that pass has begun, the OCO is
    // no longer listed and the deal is in the history.
    clock.advance(2_000);
    const list = g.conditionalOrders.bind(g);
    g.conditionalOrders = async (q) => {
      if (g.conditional.length > 0) {
        g.conditional = [];
        g.addDeal({ orderId: 9002, clientOrderId: '', market: 'BTC_PERP', side: 'sell' }, dec('1'), dec('110'), clock.now() - 500);
      }
      return list(q);
    };
    await e.reconciler.reconcileOnce();
    clock.advance(2_000);
    await e.reconciler.reconcileOnce();
    expect(e.store.alerts.list('protective_leg_missing')).toEqual([]);
    expect(e.store.children.byParent(o.clientOrderId).map((c) => [c.kind, c.state])).toEqual([
      ['stop_loss', 'cancelled'],
      ['take_profit', 'filled'],
    ]);
    expect(e.store.fills.byOrderId(9002).map((f) => f.ownerClientOrderId)).toEqual([o.clientOrderId]);
  });
});

describe('leg fills with two bracketed positions in one market', () => {
  const parent = { strategyId: 's', market: 'BTC_PERP', side: 'sell' as const, orderId: null, parentFilled: dec('1'), parentPrice: dec('60000') };
  const legs = [
    { ...parent, childId: 1, kind: 'stop_loss' as const, parentClientOrderId: 'a', price: dec('59000') },
    { ...parent, childId: 2, kind: 'take_profit' as const, parentClientOrderId: 'a', price: dec('61000') },
    { ...parent, childId: 3, kind: 'stop_loss' as const, parentClientOrderId: 'b', price: dec('59500') },
    { ...parent, childId: 4, kind: 'take_profit' as const, parentClientOrderId: 'b', price: dec('60500') },
  ];
  const input = { ordersByOrderId: new Map(), ordersByClientId: new Map(), legs, knownDealIds: new Set<number>() };
  const deal = (dealId: number, price: string) => ({
    dealId, orderId: 9000 + dealId, clientOrderId: '', market: 'BTC_PERP', side: 'sell' as const, role: 'maker' as const,
    timeMs: 1, amount: dec('1'), price: dec(price), quote: dec(price), fee: dec('0'),
  });

  it("a take-profit fill of one is that one's take-profit, never the other's stop-loss", () => {
    const events = applyDeals(input, [deal(1, '60600')]);
    expect(events).toContainEqual({ type: 'leg_filled', childId: 4, parentClientOrderId: 'b', orderId: 9001 });
    expect(events.filter((e) => e.type === 'leg_filled')).toHaveLength(1);
  });

  it('a deal either parent could have made is held unattributed (its strategy keeps the position) and raised', () => {
    const events = applyDeals(input, [deal(2, '61200')]);
    expect(events.filter((e) => e.type === 'leg_filled')).toEqual([]);
    expect(events).toContainEqual(expect.objectContaining({ type: 'fill', fill: expect.objectContaining({ strategyId: 's', ownerClientOrderId: null }) }));
    expect(events).toContainEqual({ type: 'leg_fill_unattributed', dealId: 2, parents: ['a', 'b'] });
  });
});
