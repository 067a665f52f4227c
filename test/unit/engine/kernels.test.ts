import { describe, expect, it } from 'vitest';
import { Decimal } from '../../../src/core/decimal.js';
import type { Side } from '../../../src/core/orders.js';
import type { ConditionalLeg, ConditionalRecord } from '../../../src/model/conditional.js';
import type { Fill } from '../../../src/model/fills.js';
import { diffConditional, type ChildView } from '../../../src/engine/kernels/conditional.js';
import { applyDeals, type FillsKernelInput, type OrderView } from '../../../src/engine/kernels/fills.js';

const d = (s: string) => new Decimal(s);
function deal(dealId: number, orderId: number, clientOrderId: string, amount: string, side: Side = 'buy', price = '100'): Fill {
  return { dealId, orderId, clientOrderId, market: 'BTC_USDT', side, role: 'maker', timeMs: dealId * 1000, amount: d(amount), price: d(price), quote: d(amount).mul(price), fee: d('0.01'), feeAsset: 'USDT' };
}
function order(over: Partial<OrderView> = {}): OrderView {
  return { clientOrderId: 's-1', strategyId: 's', orderId: 7, market: 'BTC_USDT', side: 'buy', amount: d('1'), filledBase: d('0'), state: 'OPEN', ...over };
}
function input(orders: OrderView[], known: number[] = [], legs: FillsKernelInput['legs'] = []): FillsKernelInput {
  return {
    ordersByOrderId: new Map(orders.filter((o) => o.orderId !== null).map((o) => [o.orderId as number, o])),
    ordersByClientId: new Map(orders.map((o) => [o.clientOrderId, o])),
    legs,
    knownDealIds: new Set(known),
  };
}

describe('fills kernel: given state, when deals, then events', () => {
  it('partial then complete fills move OPEN → PARTIALLY_FILLED → FILLED', () => {
    const e1 = applyDeals(input([order()]), [deal(1, 7, 's-1', '0.4')]);
    expect(e1.find((e) => e.type === 'order_filled_base')).toMatchObject({ to: 'PARTIALLY_FILLED' });
    const e2 = applyDeals(input([order({ filledBase: d('0.4'), state: 'PARTIALLY_FILLED' })], [1]), [deal(1, 7, 's-1', '0.4'), deal(2, 7, 's-1', '0.6')]);
    expect(e2.filter((e) => e.type === 'fill')).toHaveLength(1);
    const fb = e2.find((e) => e.type === 'order_filled_base');
    expect(fb).toMatchObject({ to: 'FILLED' });
    expect(fb?.type === 'order_filled_base' && fb.filledBase.toFixed()).toBe('1');
  });

  it('duplicates inside a batch and already-stored deals are ignored', () => {
    const e = applyDeals(input([order()], [3]), [deal(1, 7, 's-1', '0.1'), deal(1, 7, 's-1', '0.1'), deal(3, 7, 's-1', '0.1')]);
    expect(e.filter((x) => x.type === 'fill')).toHaveLength(1);
  });

  it('learns the orderId of an UNKNOWN order by clientOrderId; a partial fill keeps it UNKNOWN', () => {
    const e = applyDeals(input([order({ orderId: null, state: 'UNKNOWN' })]), [deal(1, 99, 's-1', '0.5')]);
    expect(e).toContainEqual({ type: 'order_id_learned', clientOrderId: 's-1', orderId: 99 });
    expect(e.find((x) => x.type === 'order_filled_base')).toMatchObject({ to: null });
    const full = applyDeals(input([order({ orderId: null, state: 'UNKNOWN' })]), [deal(1, 99, 's-1', '1')]);
    expect(full.find((x) => x.type === 'order_filled_base')).toMatchObject({ to: 'FILLED' });
  });

  it('an overfill is an alarm event, not a clamp', () => {
    const e = applyDeals(input([order()]), [deal(1, 7, 's-1', '0.7'), deal(2, 7, 's-1', '0.7')]);
    const o = e.find((x) => x.type === 'overfill');
    expect(o?.type === 'overfill' && o.filledBase.toFixed()).toBe('1.4');
  });

  it('fills of orders we did not place are external', () => {
    const e = applyDeals(input([order()]), [deal(1, 555, 'someone-else', '1')]);
    expect(e).toHaveLength(1);
    expect(e[0]).toMatchObject({ type: 'fill', fill: { strategyId: null, ownerClientOrderId: null } });
  });

  it('a fill on a terminal (lost) order counts but does not move it', () => {
    const e = applyDeals(input([order({ orderId: null, state: 'CANCELLED' })]), [deal(1, 8, 's-1', '0.2')]);
    expect(e.find((x) => x.type === 'fill')).toMatchObject({ fill: { strategyId: 's' } });
    expect(e.find((x) => x.type === 'order_filled_base')).toMatchObject({ to: null });
  });

  it('an unlisted leg fill (no clientOrderId) is matched to the expected leg by market, side and take-profit price', () => {
    const legs = [
      { childId: 1, kind: 'stop_loss' as const, parentClientOrderId: 'p-1', strategyId: 's', market: 'BTC_USDT', side: 'sell' as const, price: d('90'), orderId: null, parentFilled: d('1'), parentPrice: d('100') },
      { childId: 2, kind: 'take_profit' as const, parentClientOrderId: 'p-1', strategyId: 's', market: 'BTC_USDT', side: 'sell' as const, price: d('110'), orderId: null, parentFilled: d('1'), parentPrice: d('100') },
    ];
    const e = applyDeals(input([], [], legs), [deal(1, 42, '', '1', 'sell', '110')]);
    expect(e).toContainEqual({ type: 'leg_filled', childId: 2, parentClientOrderId: 'p-1', orderId: 42 });
    const stop = applyDeals(input([], [], legs), [deal(1, 43, '', '1', 'sell', '89.5')]);
    expect(stop).toContainEqual({ type: 'leg_filled', childId: 1, parentClientOrderId: 'p-1', orderId: 43 });
  });

  it('an unlisted take-profit filling at a better price is still the take-profit; a deal larger than the parent fill is not a leg', () => {
    const legs = [
      { childId: 1, kind: 'stop_loss' as const, parentClientOrderId: 'p-1', strategyId: 's', market: 'BTC_USDT', side: 'sell' as const, price: d('90'), orderId: null, parentFilled: d('1'), parentPrice: d('100') },
      { childId: 2, kind: 'take_profit' as const, parentClientOrderId: 'p-1', strategyId: 's', market: 'BTC_USDT', side: 'sell' as const, price: d('110'), orderId: null, parentFilled: d('1'), parentPrice: d('100') },
    ];
    expect(applyDeals(input([], [], legs), [deal(1, 42, '', '0.5', 'sell', '112')])).toContainEqual({ type: 'leg_filled', childId: 2, parentClientOrderId: 'p-1', orderId: 42 });
    // A stop whose limit the venue set away from its trigger still executes at a loss (below the parent's 100).
    expect(applyDeals(input([], [], legs), [deal(1, 42, '', '1', 'sell', '99.9')])).toContainEqual({ type: 'leg_filled', childId: 1, parentClientOrderId: 'p-1', orderId: 42 });
    // Between the entry and the take-profit neither leg executes: a sell there is someone else's.
    expect(applyDeals(input([], [], legs), [deal(1, 46, '', '1', 'sell', '105')])).toEqual([expect.objectContaining({ type: 'fill', fill: expect.objectContaining({ strategyId: null }) })]);
    // A manual sell of 3 on the same market cannot be a leg sized to a parent fill of 1.
    const manual = applyDeals(input([], [], legs), [deal(1, 43, '', '3', 'sell', '110')]);
    expect(manual).toEqual([expect.objectContaining({ type: 'fill', fill: expect.objectContaining({ strategyId: null }) })]);
    // Buy-side legs (closing a short) mirror it: the take-profit fills at its price or lower.
    const short = legs.map((l) => ({ ...l, side: 'buy' as const, price: l.kind === 'stop_loss' ? d('110') : d('90') }));
    expect(applyDeals(input([], [], short), [deal(1, 44, '', '1', 'buy', '89')])).toContainEqual({ type: 'leg_filled', childId: 2, parentClientOrderId: 'p-1', orderId: 44 });
    expect(applyDeals(input([], [], short), [deal(1, 45, '', '1', 'buy', '100.5')])).toContainEqual({ type: 'leg_filled', childId: 1, parentClientOrderId: 'p-1', orderId: 45 });
  });

  it('a leg of a parent that has not filled cannot have executed: such a fill stays external', () => {
    const legs = [{ childId: 1, kind: 'stop_loss' as const, parentClientOrderId: 'p-1', strategyId: 's', market: 'BTC_USDT', side: 'sell' as const, price: d('90'), orderId: null, parentFilled: d('0'), parentPrice: d('100') }];
    const e = applyDeals(input([], [], legs), [deal(1, 42, '', '1', 'sell', '89')]);
    expect(e).toEqual([expect.objectContaining({ type: 'fill', fill: expect.objectContaining({ strategyId: null }) })]);
    // ...unless the parent fills earlier in the same batch
    const parent = order({ clientOrderId: 'p-1', orderId: 7 });
    const both = applyDeals(input([parent], [], legs), [deal(1, 7, 'p-1', '1', 'buy', '100'), deal(2, 42, '', '1', 'sell', '89')]);
    expect(both).toContainEqual({ type: 'leg_filled', childId: 1, parentClientOrderId: 'p-1', orderId: 42 });
  });
});

function leg(over: Partial<ConditionalLeg>): ConditionalLeg {
  return { orderId: 1, clientOrderId: '', market: 'BTC_PERP', side: 'sell', type: 'limit', rawType: 'limit', status: 'OPEN', amount: d('1'), price: d('1'), filledBase: d('0'), filledQuote: d('0'), remaining: d('1'), fee: d('0'), timestampMs: 0, ...over };
}
function child(kind: 'stop_loss' | 'take_profit', over: Partial<ChildView> = {}, parent: Partial<ChildView['parent']> = {}): ChildView {
  return {
    childId: kind === 'stop_loss' ? 1 : 2,
    kind,
    state: 'armed',
    price: d(kind === 'stop_loss' ? '90' : '110'),
    orderId: null,
    ocoId: null,
    parent: { clientOrderId: 'p-1', market: 'BTC_PERP', side: 'buy', state: 'OPEN', otoId: 50, filledBase: d('0'), ...parent },
    ...over,
  };
}

describe('conditional kernel: given children, when listing, then events', () => {
  const oto: ConditionalRecord = { kind: 'oto', id: 50, parent: leg({ side: 'buy' }) };
  const oco: ConditionalRecord = {
    kind: 'oco',
    id: 60,
    stopLoss: leg({ orderId: 61, type: 'stop limit', price: d('90'), activationPrice: d('90') }),
    takeProfit: leg({ orderId: 62, price: d('110') }),
  };

  it('parent resting under its OTO: nothing to do', () => {
    expect(diffConditional([child('stop_loss'), child('take_profit')], [oto])).toEqual([]);
  });

  it('parent filled: the OCO legs become active with their order ids', () => {
    const p = { state: 'FILLED' as const, filledBase: d('1') };
    expect(diffConditional([child('stop_loss', {}, p), child('take_profit', {}, p)], [oco])).toEqual([
      { type: 'leg_active', childId: 1, orderId: 61, ocoId: 60 },
      { type: 'leg_active', childId: 2, orderId: 62, ocoId: 60 },
    ]);
  });

  it('stop-loss-only bracket: its one-leg OCO makes the leg active', () => {
    const p = { state: 'FILLED' as const, filledBase: d('1') };
    const oneLeg: ConditionalRecord = { kind: 'oco', id: 70, stopLoss: leg({ orderId: 71, type: 'stop limit', price: d('90'), activationPrice: d('90') }) };
    expect(diffConditional([child('stop_loss', {}, p)], [oneLeg])).toEqual([{ type: 'leg_active', childId: 1, orderId: 71, ocoId: 70 }]);
    expect(diffConditional([child('stop_loss', { state: 'active', orderId: 71 }, p)], [oneLeg])).toEqual([]);
  });

  it('parent filled but no leg listed and no fill: protective leg missing', () => {
    const p = { state: 'FILLED' as const, filledBase: d('1') };
    const e = diffConditional([child('stop_loss', {}, p)], []);
    expect(e).toEqual([{ type: 'leg_missing', childId: 1, parentClientOrderId: 'p-1', reason: 'parent filled but no protective leg listed' }]);
  });

  it('a listed stop leg that reports activated: leg triggered', () => {
    const p = { state: 'FILLED' as const, filledBase: d('1') };
    const triggered: ConditionalRecord = { ...oco, stopLoss: { ...(oco as { stopLoss: ConditionalLeg }).stopLoss, activated: true } } as ConditionalRecord;
    expect(diffConditional([child('stop_loss', { state: 'active', orderId: 61 }, p)], [triggered])).toEqual([
      { type: 'leg_triggered', childId: 1, parentClientOrderId: 'p-1', orderId: 61 },
    ]);
  });

  it('an active leg gone from the listing without a fill is missing', () => {
    const p = { state: 'FILLED' as const, filledBase: d('1') };
    const e = diffConditional([child('stop_loss', { state: 'active', orderId: 61 }, p)], []);
    expect(e[0]).toMatchObject({ type: 'leg_missing', childId: 1 });
  });

  it('parent cancelled unfilled: legs cancelled', () => {
    const p = { state: 'CANCELLED' as const };
    expect(diffConditional([child('stop_loss', {}, p)], [])).toEqual([{ type: 'child_cancelled', childId: 1, reason: 'parent cancelled unfilled' }]);
  });

  it('parent resting but OTO not listed: alert', () => {
    expect(diffConditional([child('take_profit')], [])[0]).toMatchObject({ type: 'leg_missing', reason: 'parent resting but its OTO is not listed' });
  });
});
