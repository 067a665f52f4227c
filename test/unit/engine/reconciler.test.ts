import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { Decimal } from '../../../src/core/decimal.js';
import { buildEngine } from '../../support/engine-harness.js';
import { tempDir } from '../../support/temp-dir.js';
import { FakeGateway } from '../../support/fake-gateway.js';
import { closeAfterTest } from '../../support/test-scope.js';

const d = (s: string) => new Decimal(s);
function setup(reconcile: { applyChunk?: number } = {}) {
  const dir = tempDir();
  const g = new FakeGateway();
  const clock = new ManualClock(1_700_000_000_000);
  const e = buildEngine(dir, g, clock, { reconcile });
  closeAfterTest(e.store);
  return { e, g, clock };
}

describe('Reconciler with a fake venue', () => {
  it('fills arriving while a cancel is pending still count and settle the order as FILLED', async () => {
    const { e, g, clock } = setup();
    const [o] = await e.orders.placeLimitOrders('s', [{ market: 'BTC_USDT', side: 'buy', amount: d('0.3'), price: d('100') }]);
    g.cancelScript = () => 'unknown';
    await e.orders.cancelOrder('s', o!.clientOrderId);
    const v = g.venueOrders.get(o!.clientOrderId)!;
    g.addDeal(v, d('0.1'), d('100'), clock.now() - 500);
    g.addDeal(v, d('0.2'), d('100'), clock.now() - 400);
    v.status = 'FILLED';
    g.cancelScript = () => 'default';
    const seen: number[] = [];
    e.reconciler.onFill((n) => seen.push(n.fill.dealId));
    const r = await e.reconciler.reconcileOnce();
    expect(r.scan.newFills).toBe(2);
    expect(seen).toHaveLength(2);
    expect(e.store.orders.get(o!.clientOrderId)).toMatchObject({ state: 'FILLED' });
    expect(e.store.orders.get(o!.clientOrderId)?.filledBase.toFixed()).toBe('0.3');
    expect(r.unresolved).toBe(0);
    expect(e.reconciler.lastReconciledMs()).toBe(clock.now());
  });

  it('a filled collateral parent without any listed protective leg raises a protective_leg_missing alert on the second look', async () => {
    const { e, g } = setup();
    g.place = () => 'fill';
    const o = await e.orders.placeCollateralOrder('s', { market: 'BTC_PERP', side: 'buy', amount: d('1'), price: d('100'), stopLoss: d('90') });
    expect(o).toMatchObject({ status: 'placed', state: 'FILLED' });
    expect((await e.reconciler.reconcileOnce()).conditional).toEqual([]);
    expect(e.store.alerts.list('protective_leg_missing')).toHaveLength(0);
    const r = await e.reconciler.reconcileOnce();
    expect(r.conditional).toEqual([expect.objectContaining({ type: 'leg_missing', parentClientOrderId: o.clientOrderId })]);
    expect(e.store.alerts.list('protective_leg_missing')).toHaveLength(1);
    expect(e.store.children.byParent(o.clientOrderId)[0]?.state).toBe('missing');
  });

  it('a protective leg that fills across two scans keeps both fills (the later one is not external)', async () => {
    const { e, g, clock } = setup();
    g.place = () => 'fill';
    const o = await e.orders.placeCollateralOrder('s', { market: 'BTC_PERP', side: 'buy', amount: d('1'), price: d('100'), stopLoss: d('90'), takeProfit: d('110') });
    expect(o).toMatchObject({ status: 'placed', state: 'FILLED' });
    const leg = { orderId: 9001, clientOrderId: '', market: 'BTC_PERP', side: 'sell' as const };
    clock.advance(2_000);
    g.addDeal(leg, d('0.4'), d('110.5'), clock.now() - 1_500); // the take-profit, at a better price
    await e.reconciler.reconcileOnce();
    clock.advance(2_000);
    g.addDeal(leg, d('0.6'), d('110'), clock.now() - 1_500);
    await e.reconciler.reconcileOnce();
    const legFills = e.store.fills.byOrderId(9001);
    expect(legFills.map((f) => [f.amount.toFixed(), f.strategyId, f.ownerClientOrderId])).toEqual([
      ['0.4', 's', o.clientOrderId],
      ['0.6', 's', o.clientOrderId],
    ]);
    expect(e.store.children.byParent(o.clientOrderId).map((c) => [c.kind, c.state])).toEqual([
      ['stop_loss', 'cancelled'],
      ['take_profit', 'filled'],
    ]);
  });

  it('applied in chunks of one deal, a parent fill and its unlisted leg fill in the same scan still meet (oldest first)', async () => {
    const { e, g, clock } = setup({ applyChunk: 1 });
    const o = await e.orders.placeCollateralOrder('s', { market: 'BTC_PERP', side: 'buy', amount: d('1'), price: d('100'), stopLoss: d('90'), takeProfit: d('110') });
    expect(o).toMatchObject({ status: 'placed', state: 'OPEN' });
    const parent = g.venueOrders.get(o.clientOrderId)!;
    g.addDeal(parent, d('1'), d('100'), clock.now() - 3_000);
    parent.status = 'FILLED';
    g.addDeal({ orderId: 9002, clientOrderId: '', market: 'BTC_PERP', side: 'sell' }, d('1'), d('89.9'), clock.now() - 2_000);
    clock.advance(1_000);
    const r = await e.reconciler.scanOnce();
    expect(r.newFills).toBe(2);
    expect(e.store.orders.get(o.clientOrderId)?.state).toBe('FILLED');
    expect(e.store.fills.byOrderId(9002).map((f) => f.strategyId)).toEqual(['s']);
    expect(e.store.children.byParent(o.clientOrderId).map((c) => [c.kind, c.state])).toEqual([
      ['stop_loss', 'filled'],
      ['take_profit', 'cancelled'],
    ]);
  });

  it('a local clock 400 s ahead of the venue (beyond the 300 s overlap) loses no deal: the anchor follows the venue clock', async () => {
    const { e, g, clock } = setup();
    g.skewMs = -400_000; // server minus local
    const venueNow = () => clock.now() + (g.skewMs as number);
    const [o] = await e.orders.placeLimitOrders('s', [{ market: 'BTC_USDT', side: 'buy', amount: d('1'), price: d('100') }]);
    const v = g.venueOrders.get(o!.clientOrderId)!;
    g.addDeal(v, d('0.4'), d('100'), venueNow() - 5_000);
    const first = await e.reconciler.scanOnce();
    expect(first.toMs).toBe(venueNow());
    // A deal stamped just after the venue's "now" of that scan, seen by the next one.
    clock.advance(1_000);
    g.addDeal(v, d('0.6'), d('100'), venueNow());
    clock.advance(10_000);
    await e.reconciler.scanOnce();
    expect(e.store.fills.byOrderId(v.orderId).map((f) => f.amount.toFixed())).toEqual(['0.4', '0.6']);
    expect(e.store.orders.get(o!.clientOrderId)?.state).toBe('FILLED');
  });

  it('a skew within the Date header\'s whole-second rounding leaves the local clock as the anchor', async () => {
    const { e, g, clock } = setup();
    g.skewMs = -1_400;
    expect((await e.reconciler.scanOnce()).toMs).toBe(clock.now());
  });

  it('an overfill is recorded with every fill and raises an alert', async () => {
    const { e, g, clock } = setup();
    const [o] = await e.orders.placeLimitOrders('s', [{ market: 'BTC_USDT', side: 'buy', amount: d('1'), price: d('100') }]);
    const v = g.venueOrders.get(o!.clientOrderId)!;
    g.addDeal(v, d('0.7'), d('100'), clock.now() - 900);
    g.addDeal(v, d('0.7'), d('100'), clock.now() - 800);
    const r = await e.reconciler.reconcileOnce();
    expect(r.scan.overfills).toEqual([o!.clientOrderId]);
    expect(e.store.orders.get(o!.clientOrderId)?.filledBase.toFixed()).toBe('1.4');
    expect(e.store.alerts.list('overfill')).toHaveLength(1);
  });
});
