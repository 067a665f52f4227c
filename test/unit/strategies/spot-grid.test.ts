import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Decimal } from '../../../src/core/decimal.js';
import { BufferedState, buildContext, parseIntents, type OrderView, type PlaceLimitsIntent, type Side } from '../../../src/strategy-api/host.js';
import grid, { ladder, maintainGrid, nearestLevel, spotGridParams } from '../../../strategies/spot-grid.js';
import { ctxOf, MemoryState, price, snapshot } from '../../support/daemon-ctx.js';

const params = spotGridParams.parse({ market: 'BTC_USDT', levels: 2, spacingPct: '1', orderAmount: '0.01' });

function order(side: Side, p: string, id = `t1-${p}`): OrderView {
  const d = new Decimal('0.01');
  return { clientOrderId: id, market: 'BTC_USDT', side, kind: 'limit', state: 'OPEN', amount: d, price: new Decimal(p), filled: new Decimal(0), remaining: d, createdMs: 0 };
}

function placed(intents: unknown): PlaceLimitsIntent['orders'] {
  const parsed = parseIntents(intents, 't1');
  const first = parsed[0];
  if (first?.type !== 'placeLimits') return [];
  return first.orders;
}

/** The level nearest the price as measuring every level finds it: the first of the least distances. */
function nearestByScan(levels: readonly Decimal[], price: Decimal): number {
  const distance = levels.map((lvl) => lvl.minus(price).abs());
  let nearest = 0;
  distance.forEach((d, i) => {
    if (d.lt(distance[nearest] ?? d)) nearest = i;
  });
  return nearest;
}

const digits = (max: number) => fc.stringMatching(new RegExp(`^[1-9][0-9]{0,${max}}$`));

describe('spot-grid nearest level', () => {
  it('property: the same level as measuring every level, on ladders of short levels, of 60-digit-rounded ones and of levels rounded to one value', () => {
    fc.assert(
      fc.property(digits(8), digits(70), fc.nat({ max: 80 }), fc.integer({ min: 0, max: 20 }), fc.integer({ min: -30, max: 30 }), (c, spacing, exp, levels, at) => {
        const centre = new Decimal(c);
        const lad = ladder(centre, levels, new Decimal(spacing).div(new Decimal(10).pow(exp + spacing.length)));
        // Prices on a level, between levels, past the ends, and a hair off a level (where rounding bites).
        const i = Math.min(Math.max(0, at + levels), lad.length - 1);
        const on = lad[i] ?? centre;
        for (const price of [on, on.plus('1e-58'), on.minus('1e-58'), on.plus(on.div(7)), on.minus(on.div(3)), on.plus(lad[i + 1] ?? on).div(2)]) {
          expect(nearestLevel(lad, price)).toBe(nearestByScan(lad, price));
        }
      }),
      { numRuns: 500 },
    );
  });

  it('the lower of two equally near levels, and the ends past the ladder', () => {
    const lad = ladder(new Decimal(100), 2, new Decimal(1));
    expect(nearestLevel(lad, new Decimal('98.5'))).toBe(0);
    expect(nearestLevel(lad, new Decimal('98.51'))).toBe(1);
    expect(nearestLevel(lad, new Decimal('50'))).toBe(0);
    expect(nearestLevel(lad, new Decimal('500'))).toBe(4);
    expect(nearestLevel(lad, new Decimal('100'))).toBe(2);
    expect(nearestLevel([], new Decimal('1'))).toBe(0);
  });
});

describe('spot-grid', () => {
  it('ladder spaces levels evenly around the centre', () => {
    expect(ladder(new Decimal(100), 2, new Decimal(1)).map((d) => d.toFixed())).toEqual(['98', '99', '100', '101', '102']);
  });

  it('places the whole ladder as one bulk, buys below and sells above, leaving the gap at the price', () => {
    const backend = new MemoryState();
    const { ctx, state } = ctxOf(params, snapshot({ prices: { BTC_USDT: price('BTC_USDT', '100') } }), backend);
    const orders = placed(maintainGrid(ctx));
    state.commit();
    expect(orders.map((o) => `${o.side}@${o.price.toFixed()}`)).toEqual(['buy@98', 'buy@99', 'sell@101', 'sell@102']);
    expect(backend.get('centre')).toBe('100');
  });

  it('re-quotes only the missing levels: after a buy at 99 fills, a sell goes at 100', () => {
    const backend = new MemoryState();
    backend.set('centre', '100');
    const open = [order('buy', '98'), order('sell', '101'), order('sell', '102')];
    const { ctx } = ctxOf(params, snapshot({ prices: { BTC_USDT: price('BTC_USDT', '99') }, openOrders: open }), backend);
    expect(placed(maintainGrid(ctx)).map((o) => `${o.side}@${o.price.toFixed()}`)).toEqual(['sell@100']);
  });

  it('does nothing when the ladder is complete', () => {
    const backend = new MemoryState();
    backend.set('centre', '100');
    const open = [order('buy', '98'), order('buy', '99'), order('sell', '101'), order('sell', '102')];
    const { ctx } = ctxOf(params, snapshot({ prices: { BTC_USDT: price('BTC_USDT', '100') }, openOrders: open }), backend);
    expect(maintainGrid(ctx)).toEqual([]);
  });

  it('cancels and re-centres when the price leaves the ladder', () => {
    const backend = new MemoryState();
    backend.set('centre', '100');
    const { ctx, state } = ctxOf(params, snapshot({ prices: { BTC_USDT: price('BTC_USDT', '110') } }), backend);
    expect(parseIntents(maintainGrid(ctx), 't1')).toEqual([{ type: 'cancelAll', market: 'BTC_USDT' }]);
    state.commit();
    expect(backend.get('centre')).toBe('110');
  });

  it('a ladder kept from an earlier tick gives what a fresh one gives, through re-centrings and a change of params', () => {
    const wide = spotGridParams.parse({ market: 'BTC_USDT', levels: 3, spacingPct: '0.7', orderAmount: '0.01' });
    const warmState = new MemoryState();
    const coldState = new MemoryState();
    const steps: [typeof params, string, OrderView[]][] = [
      [params, '100', []],
      [params, '99.5', [order('buy', '98'), order('sell', '101')]],
      [params, '100.3', [order('buy', '98'), order('buy', '99'), order('sell', '101'), order('sell', '102')]],
      [params, '96.5', [order('buy', '98')]],
      [params, '105.1', []],
      [params, '103.33', [order('sell', '104.0001')]],
      [wide, '103.33', [order('sell', '104.0001')]],
      [wide, '104.1', []],
    ];
    const log = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };
    steps.forEach(([p, last, openOrders], i) => {
      const data = snapshot({ prices: { BTC_USDT: price('BTC_USDT', last) }, openOrders });
      const warm = new BufferedState(warmState);
      const cold = new BufferedState(coldState);
      const kept = parseIntents(maintainGrid(buildContext('warm', p, data, warm, log)), 'warm');
      // A new instance id each step: nothing kept.
      const fresh = parseIntents(maintainGrid(buildContext(`cold-${i}`, p, data, cold, log)), 'cold');
      expect(kept, `step ${i}`).toEqual(fresh);
      warm.commit();
      cold.commit();
      expect(warmState.get('centre')).toBe(coldState.get('centre'));
    });
    expect(coldState.get('centre')).toBe('105.1');
  });

  it('the same order views kept across ticks give what fresh copies give, on random prices and open orders', () => {
    const log = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };
    // The engine hands the same frozen view while an order is unchanged: a pool reused across ticks.
    const pool = ['97', '98', '98.5', '99', '99.01', '100', '100.49', '101', '102', '103.5', '104.0001'].map((p, i) =>
      Object.freeze(order(i % 2 === 0 ? 'buy' : 'sell', p, `o${i}`)),
    );
    let seed = 7;
    const rand = (n: number): number => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed % n;
    };
    const warmState = new MemoryState();
    const coldState = new MemoryState();
    for (let i = 0; i < 300; i++) {
      const last = (95 + rand(1_200) / 100).toFixed(2);
      const open = pool.filter(() => rand(3) === 0);
      const warm = new BufferedState(warmState);
      const cold = new BufferedState(coldState);
      const kept = parseIntents(maintainGrid(buildContext('warm', params, snapshot({ prices: { BTC_USDT: price('BTC_USDT', last) }, openOrders: open }), warm, log)), 'w');
      const copies = open.map((o) => ({ ...o }));
      const data = snapshot({ prices: { BTC_USDT: price('BTC_USDT', last) }, openOrders: copies });
      const fresh = parseIntents(maintainGrid(buildContext(`cold-${i}`, params, data, cold, log)), 'c');
      expect(kept, `tick ${i} at ${last}`).toEqual(fresh);
      warm.commit();
      cold.commit();
    }
  });

  it('the same frozen open-order lists kept across ticks give what fresh lists give, other markets and cancels among them', () => {
    const log = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };
    const pool = ['97', '98', '98.5', '99', '99.01', '100', '100.49', '101', '102', '103.5'].map((p, i) => {
      const o = order(i % 2 === 0 ? 'buy' : 'sell', p, `o${i}`);
      if (i % 4 === 1) return Object.freeze({ ...o, state: 'PENDING_CANCEL' as const });
      return Object.freeze(i % 5 === 2 ? { ...o, market: 'ETH_USDT' } : o);
    });
    let seed = 11;
    const rand = (n: number): number => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed % n;
    };
    // The engine hands the same frozen list while no order changed: a few lists, each reused across ticks.
    const lists = Array.from({ length: 6 }, () => Object.freeze(pool.filter(() => rand(2) === 0)));
    const warmState = new MemoryState();
    const coldState = new MemoryState();
    for (let i = 0; i < 300; i++) {
      const last = (97 + rand(600) / 100).toFixed(2);
      const open = lists[rand(lists.length)] ?? [];
      const warm = new BufferedState(warmState);
      const cold = new BufferedState(coldState);
      const kept = parseIntents(maintainGrid(buildContext('warm-lists', params, snapshot({ prices: { BTC_USDT: price('BTC_USDT', last) }, openOrders: open }), warm, log)), 'w');
      // Fresh copies of only the orders that take a level: the grid's market, not being cancelled.
      const counted = open.filter((o) => o.market === 'BTC_USDT' && o.state !== 'PENDING_CANCEL').map((o) => ({ ...o }));
      const data = snapshot({ prices: { BTC_USDT: price('BTC_USDT', last) }, openOrders: counted });
      const fresh = parseIntents(maintainGrid(buildContext(`cold-lists-${i}`, params, data, cold, log)), 'c');
      expect(kept, `tick ${i} at ${last}`).toEqual(fresh);
      warm.commit();
      cold.commit();
    }
  });

  it('waits when there is no price', () => {
    const { ctx } = ctxOf(params, snapshot());
    expect(maintainGrid(ctx)).toEqual([]);
  });

  it('re-quotes on a fill through onFill', async () => {
    const backend = new MemoryState();
    backend.set('centre', '100');
    const { ctx } = ctxOf(params, snapshot({ prices: { BTC_USDT: price('BTC_USDT', '100') }, openOrders: [order('buy', '98')] }), backend);
    const fill = { dealId: 1, clientOrderId: 'x', market: 'BTC_USDT', side: 'buy' as const, role: 'maker' as const, amount: new Decimal('0.01'), price: new Decimal(99), quote: new Decimal('0.99'), fee: new Decimal(0), timeMs: 0 };
    const out = await grid.onFill?.(ctx, fill);
    expect(placed(out)).toHaveLength(3);
  });
});
