import { describe, expect, it } from 'vitest';
import { ctxOf, MemoryState, price, snapshot } from '../../support/daemon-ctx.js';

describe('strategy context', () => {
  it('is frozen', () => {
    const { ctx } = ctxOf({}, snapshot({ prices: { BTC_USDT: price('BTC_USDT', '100') } }));
    expect(() => {
      (ctx as { nowMs: number }).nowMs = 1;
    }).toThrow();
    expect(() => {
      (ctx.prices as Record<string, unknown>)['X'] = 1;
    }).toThrow();
    expect(() => (ctx.openOrders as unknown[]).push(1)).toThrow();
  });

  it("freezes copies of the engine's views, and hands views already frozen (kept between ticks) as they are", () => {
    const fill = { dealId: 1, clientOrderId: 'c', market: 'BTC_USDT', side: 'buy' as const, role: 'maker' as const } as never;
    const kept = Object.freeze({ dealId: 2, clientOrderId: 'd', market: 'BTC_USDT', side: 'sell' as const, role: 'taker' as const }) as never;
    const { ctx } = ctxOf({}, snapshot({ recentFills: [fill, kept] }));
    expect(ctx.recentFills[0]).not.toBe(fill);
    expect(ctx.recentFills[0]).toEqual(fill);
    expect(Object.isFrozen(ctx.recentFills[0])).toBe(true);
    expect(Object.isFrozen(fill)).toBe(false);
    expect(ctx.recentFills[1]).toBe(kept);
  });

  it("copies the engine's prices and balances once per object it hands over, and a new read is seen", () => {
    const data = snapshot({ prices: { BTC_USDT: price('BTC_USDT', '100') } });
    const first = ctxOf({}, data).ctx;
    const again = ctxOf({}, snapshot({ prices: data.prices, balances: data.balances })).ctx;
    expect(again.prices).toBe(first.prices);
    expect(again.balances).toBe(first.balances);
    expect(Object.isFrozen(first.prices['BTC_USDT'])).toBe(true);
    expect(Object.isFrozen(data.prices['BTC_USDT'])).toBe(false);
    const read = ctxOf({}, snapshot({ prices: { BTC_USDT: price('BTC_USDT', '101') } })).ctx;
    expect(read.prices['BTC_USDT']?.last.toFixed()).toBe('101');
    expect(first.prices['BTC_USDT']?.last.toFixed()).toBe('100');
  });

  it('buffers state writes until commit', () => {
    const backend = new MemoryState();
    backend.set('a', 1);
    const { ctx, state } = ctxOf({}, snapshot(), backend);
    ctx.state.set('a', 2);
    ctx.state.set('b', 'x');
    expect(ctx.state.get('a')).toBe(2);
    expect(backend.get('a')).toBe(1);
    state.commit();
    expect(backend.get('a')).toBe(2);
    expect(backend.get('b')).toBe('x');
    ctx.state.delete('a');
    state.commit();
    expect(backend.get('a')).toBeUndefined();
  });
});
