import { describe, expect, it } from 'vitest';
import { ZERO } from '../../../src/core/decimal.js';
import { pricesFromListing } from '../../../src/engine/market-data.js';
import { SETTLED_LISTS, settledList, settledPrices, type SnapshotData } from '../../../src/strategy-api/host.js';
import { decodeSnapshot, encodeSnapshot } from '../../../src/engine/sandbox-worker/codec.js';
import type { FuturesMarket } from '../../../src/model/markets.js';
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

  it('hands prices frozen through and through on as they are (the engine views); copies them when a view is not frozen', () => {
    const view = Object.freeze(price('BTC_USDT', '100'));
    const frozen = Object.freeze({ BTC_USDT: view });
    const ctx = ctxOf({}, snapshot({ prices: frozen })).ctx;
    expect(ctx.prices).toBe(frozen);
    const open = { ...price('BTC_USDT', '100') };
    const mixed = Object.freeze({ BTC_USDT: view, BTC_PERP: open });
    const copied = ctxOf({}, snapshot({ prices: mixed })).ctx;
    expect(copied.prices).not.toBe(mixed);
    expect(Object.isFrozen(copied.prices['BTC_PERP'])).toBe(true);
    expect(copied.prices['BTC_PERP']).not.toBe(open);
    expect(copied.prices['BTC_PERP']?.last.toFixed()).toBe('100');
  });

  it('hands a price map the engine settled on as it is, without looking through it; the market data settles its maps', () => {
    let looked = 0;
    const view = price('BTC_USDT', '100');
    const settled = Object.defineProperty({}, 'BTC_USDT', {
      enumerable: true,
      get: () => {
        looked++;
        return view;
      },
    }) as Record<string, typeof view>;
    settledPrices(Object.freeze(settled));
    const { ctx } = ctxOf({}, snapshot({ prices: settled }));
    expect(ctx.prices).toBe(settled);
    expect(looked).toBe(0);
    const futures = [{ tickerId: 'BTC_PERP', base: 'BTC', quote: 'USDT', lastPrice: ZERO, bid: ZERO, ask: ZERO } as unknown as FuturesMarket];
    const fromListing = pricesFromListing(futures);
    expect(Object.isFrozen(fromListing) && Object.values(fromListing).every((v) => Object.isFrozen(v))).toBe(true);
    expect(ctxOf({}, snapshot({ prices: fromListing })).ctx.prices).toBe(fromListing);
  });

  it('hands frozen balances (the market data keeps them frozen) on as they are; copies loose ones', () => {
    const frozen = Object.freeze({ USDT: ZERO });
    expect(ctxOf({}, snapshot({ balances: frozen })).ctx.balances).toBe(frozen);
    const loose = { USDT: ZERO };
    const copied = ctxOf({}, snapshot({ balances: loose })).ctx.balances;
    expect(copied).not.toBe(loose);
    expect(Object.isFrozen(copied)).toBe(true);
    expect(copied).toEqual(loose);
  });

  it('hands a list the engine settled on as it is, frozen', () => {
    const order = (id: string): never => Object.freeze({ clientOrderId: id, market: 'BTC_USDT', side: 'buy' }) as never;
    const list = settledList([order('a'), order('b')]);
    expect(Object.isFrozen(list)).toBe(true);
    expect(ctxOf({}, snapshot({ openOrders: list })).ctx.openOrders).toBe(list);
    expect(() => (list as unknown as unknown[]).push(1)).toThrow();
  });

  it("hands the lists of data with the engine's mark on unlooked-at; data without it (a worker's decoded copy) is looked at", () => {
    const order = (id: string): never => Object.freeze({ clientOrderId: id, market: 'BTC_USDT', side: 'buy', amount: ZERO, price: ZERO, filled: ZERO, remaining: ZERO }) as never;
    const fill = Object.freeze({ dealId: 1, clientOrderId: 'a', market: 'BTC_USDT', side: 'buy', role: 'maker', amount: ZERO, price: ZERO, quote: ZERO, fee: ZERO, timeMs: 1 }) as never;
    const position = Object.freeze({ market: 'BTC_USDT', kind: 'spot', base: ZERO, avgEntryPrice: ZERO, protection: null }) as never;
    const data = { ...snapshot({ openOrders: settledList([order('a')]), recentFills: settledList([fill]), positions: settledList([position]) }), lists: SETTLED_LISTS } satisfies SnapshotData as SnapshotData;
    const { ctx } = ctxOf({}, data);
    expect(ctx.openOrders).toBe(data.openOrders);
    expect(ctx.recentFills).toBe(data.recentFills);
    expect(ctx.positions).toBe(data.positions);
    // The mark does not cross to a worker: its decoded lists are loose, and its context freezes copies.
    const decoded = decodeSnapshot(structuredClone(encodeSnapshot(data)));
    expect(decoded.lists).toBeUndefined();
    const there = ctxOf({}, decoded).ctx;
    for (const [got, loose] of [[there.openOrders, decoded.openOrders], [there.recentFills, decoded.recentFills], [there.positions, decoded.positions]] as const) {
      expect(got).not.toBe(loose);
      expect(Object.isFrozen(got)).toBe(true);
      expect(Object.isFrozen(got[0])).toBe(true);
      expect(JSON.stringify(got)).toBe(JSON.stringify(loose));
    }
  });

  it('hands a frozen list of frozen views on as it is, the same list to every context; copies any other list', () => {
    const order = (id: string): never => Object.freeze({ clientOrderId: id, market: 'BTC_USDT', side: 'buy' }) as never;
    const kept = Object.freeze([order('a'), order('b')]);
    const first = ctxOf({}, snapshot({ openOrders: kept })).ctx;
    const again = ctxOf({}, snapshot({ openOrders: kept })).ctx;
    expect(first.openOrders).toBe(kept);
    expect(again.openOrders).toBe(kept);
    // Not frozen: a list the engine could still change is copied, every call.
    const loose = [order('a')];
    const copied = ctxOf({}, snapshot({ openOrders: loose })).ctx.openOrders;
    expect(copied).not.toBe(loose);
    expect(copied).toEqual(loose);
    expect(Object.isFrozen(copied)).toBe(true);
    expect(ctxOf({}, snapshot({ openOrders: loose })).ctx.openOrders).not.toBe(copied);
    // Frozen, but holding a view that is not: copied, the loose view as a frozen copy.
    const view = { clientOrderId: 'c', market: 'BTC_USDT', side: 'sell' } as never;
    const mixed = Object.freeze([order('a'), view]);
    const fixed = ctxOf({}, snapshot({ openOrders: mixed })).ctx.openOrders;
    expect(fixed).not.toBe(mixed);
    expect(fixed[0]).toBe(mixed[0]);
    expect(fixed[1]).not.toBe(view);
    expect(fixed[1]).toEqual(view);
    expect(Object.isFrozen(fixed[1])).toBe(true);
  });

  it('hands a closed candle already frozen on as it is, and a loose one as a frozen copy', () => {
    const candle = (openMs: number) => ({ openMs, closeMs: openMs + 60_000, open: ZERO, high: ZERO, low: ZERO, close: ZERO, volume: null }) as never;
    const kept = Object.freeze(candle(0));
    const loose = candle(60_000);
    const window = { market: 'BTC_USDT', timeframe: '1m' as const, want: 2, closed: [kept, loose], open: null };
    const got = ctxOf({}, snapshot({ candles: [window] })).ctx.candles('BTC_USDT', '1m', 2);
    expect(got[0]).toBe(kept);
    expect(got[1]).not.toBe(loose);
    expect(got[1]).toEqual(loose);
    expect(Object.isFrozen(got[1])).toBe(true);
    expect(Object.isFrozen(loose)).toBe(false);
  });

  it('hands a position on only when its protection is frozen too; a frozen flex view only when frozen through', () => {
    const base = { market: 'BTC_USDT', kind: 'collateral', base: ZERO, avgEntryPrice: ZERO };
    const settled = Object.freeze({ ...base, protection: Object.freeze({ stopLoss: null, takeProfit: null }) }) as never;
    const looseLegs = Object.freeze({ ...base, protection: { stopLoss: null, takeProfit: null } }) as never;
    const positions = ctxOf({}, snapshot({ positions: Object.freeze([settled, looseLegs]) })).ctx.positions;
    expect(positions[0]).toBe(settled);
    expect(positions[1]).not.toBe(looseLegs);
    expect(positions[1]).toEqual(looseLegs);
    expect(Object.isFrozen(positions[1]?.protection)).toBe(true);
    const investment = Object.freeze({ planId: 'p', investmentId: 'i', currency: 'USDT', amount: ZERO });
    const flex = Object.freeze({ investments: Object.freeze([investment]), earnings: Object.freeze({ USDT: ZERO }) });
    expect(ctxOf({}, snapshot({ flex })).ctx.flex).toBe(flex);
    const earningsLoose = Object.freeze({ investments: flex.investments, earnings: { USDT: ZERO } });
    const copy = ctxOf({}, snapshot({ flex: earningsLoose })).ctx.flex;
    expect(copy).not.toBe(earningsLoose);
    expect(copy.investments).toBe(flex.investments);
    expect(Object.isFrozen(copy.earnings)).toBe(true);
    expect(() => {
      (copy.earnings as Record<string, unknown>)['BTC'] = ZERO;
    }).toThrow();
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

  it('hands the backend the text it wrote out for a value never read back, the value as it is now for one read back', () => {
    class TextState extends MemoryState {
      readonly texts: [string, string][] = [];
      setJson(key: string, json: string): void {
        this.texts.push([key, json]);
        super.set(key, JSON.parse(json) as never);
      }
    }
    const backend = new TextState();
    const { ctx, state } = ctxOf({}, snapshot(), backend);
    const written = { a: [1, 'x'], b: null };
    ctx.state.set('kept', written);
    ctx.state.set('read', { n: 1 });
    // Read back: a copy as the text gives it, the same object at every read, changed in place by the hook.
    const read = ctx.state.get('read') as { n: number };
    expect(read).toEqual({ n: 1 });
    expect(ctx.state.get('read')).toBe(read);
    read.n = 2;
    written.a.push(3);
    expect(() => ctx.state.set('bad', undefined as never)).toThrow(TypeError);
    state.commit();
    expect(backend.texts).toEqual([['kept', '{"a":[1,"x"],"b":null}']]);
    expect(backend.get('kept')).toEqual({ a: [1, 'x'], b: null });
    expect(backend.get('read')).toEqual({ n: 2 });
    expect(backend.get('bad')).toBeUndefined();
  });
});
