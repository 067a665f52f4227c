/**
 * MarketData (src/engine/market-data.ts) hands out the same balances object while the venue
 * answers with the very same decimals (a gateway that keeps its answer), so what is kept per
 * object downstream holds, and a new one, with the new amounts, as soon as any amount, asset or
 * their order differs; the prices are those of the listing, a spot alias a copy of its own, and
 * the same prices object while the listing hands out the very same frozen entries.
 */
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { dec, type Decimal } from '../../../src/core/decimal.js';
import { MarketData, pricesFromListing } from '../../../src/engine/market-data.js';
import type { FuturesMarket } from '../../../src/model/markets.js';

const listing = (last: string): FuturesMarket[] =>
  [{ tickerId: 'BTC_PERP', base: 'BTC', quote: 'USDT', lastPrice: dec(last), bid: dec(last), ask: dec(last) } as FuturesMarket];

describe('MarketData', () => {
  it('keeps the balances object while the decimals are the very same, and reads anew when any differs', async () => {
    const usdt = dec('100');
    const btc = dec('1');
    let answer: [string, Decimal][] = [['USDT', usdt], ['BTC', btc]];
    const gateway = { markets: async () => listing('50'), balances: async () => new Map(answer) };
    const market = new MarketData(gateway, new ManualClock(0), 1_000);
    const first = (await market.fresh()).balances;
    expect((await market.fresh()).balances).toBe(first);
    const steps: [string, [string, Decimal][]][] = [
      ['an equal but new decimal', [['USDT', dec('100')], ['BTC', btc]]],
      ['another order', [['BTC', btc], ['USDT', usdt]]],
      ['one asset less', [['USDT', usdt]]],
      ['one asset more', [['USDT', usdt], ['BTC', btc], ['ETH', dec('0')]]],
    ];
    let last = first;
    for (const [name, next] of steps) {
      answer = next;
      const now = (await market.fresh()).balances;
      expect(now, name).not.toBe(last);
      expect(Object.entries(now).map(([k, v]) => [k, v.toFixed()]), name).toEqual(next.map(([k, v]) => [k, v.toFixed()]));
      expect((await market.fresh()).balances, `${name}, again`).toBe(now);
      last = now;
    }
  });

  it('keeps the prices object for the very same frozen entries, and makes new prices for a new, changed or unfrozen entry', async () => {
    const frozen = Object.freeze(listing('50')[0] as FuturesMarket);
    const unfrozen = listing('60')[0] as FuturesMarket;
    let answer: FuturesMarket[] = [frozen];
    const gateway = { markets: async () => [...answer], balances: async () => new Map([['USDT', dec('100')]]) };
    const market = new MarketData(gateway, new ManualClock(0), 1_000);
    const first = (await market.fresh()).prices;
    expect((await market.fresh()).prices).toBe(first);
    answer = [Object.freeze(listing('50')[0] as FuturesMarket)];
    const equalButNew = (await market.fresh()).prices;
    expect(equalButNew).not.toBe(first);
    expect(equalButNew['BTC_PERP']?.last.toFixed()).toBe('50');
    answer = [unfrozen];
    const open = (await market.fresh()).prices;
    expect(open['BTC_PERP']?.last.toFixed()).toBe('60');
    // The same object again, changed in place: an unfrozen entry is never taken as the same.
    unfrozen.lastPrice = dec('61');
    const changed = (await market.fresh()).prices;
    expect(changed).not.toBe(open);
    expect(changed['BTC_PERP']?.last.toFixed()).toBe('61');
  });

  it('answers at once what get() would answer while the kept read is recent, and nothing once it is older than its age', async () => {
    const clock = new ManualClock(0);
    let reads = 0;
    const gateway = { markets: async () => (reads++, listing(String(50 + reads))), balances: async () => new Map([['USDT', dec('100')]]) };
    const market = new MarketData(gateway, clock, 1_000);
    expect(market.current()).toBeUndefined();
    const read = await market.get();
    const now = market.current();
    expect(now?.prices).toBe(read.prices);
    expect(now?.balances).toBe(read.balances);
    clock.advance(1_000);
    expect(market.current()?.prices).toBe(read.prices);
    expect((await market.get()).prices).toBe(read.prices);
    clock.advance(1);
    expect(market.current()).toBeUndefined();
    const next = await market.get();
    expect(next.prices).not.toBe(read.prices);
    expect(market.current()?.prices).toBe(next.prices);
    expect(reads).toBe(2);
    // One reading object per read, frozen: every snapshot until the next read gets the same one.
    expect(market.current()).toBe(next);
    expect(Object.isFrozen(next)).toBe(true);
    expect(await market.fresh()).not.toBe(next);
  });

  it('hands out frozen price views in a frozen record', () => {
    const prices = pricesFromListing(listing('50'));
    expect(Object.isFrozen(prices)).toBe(true);
    expect(Object.values(prices).every((v) => Object.isFrozen(v))).toBe(true);
  });

  it('lists each market under its ticker and its spot name, each view its own object', () => {
    const prices = pricesFromListing(listing('50'));
    expect(Object.keys(prices)).toEqual(['BTC_PERP', 'BTC_USDT']);
    expect(prices['BTC_USDT']).toEqual(prices['BTC_PERP']);
    expect(prices['BTC_USDT']).not.toBe(prices['BTC_PERP']);
  });

  it('hands strategies copies: equal values, decimals of their own, made once per read; writing into one leaves the reading as it was', async () => {
    let last = '50';
    const usdt = dec('100');
    const gateway = { markets: async () => listing(last), balances: async () => new Map([['USDT', usdt]]) };
    const market = new MarketData(gateway, new ManualClock(0), 1_000);
    const reading = await market.fresh();
    const handed = market.forStrategies(reading);
    expect(market.forStrategies(reading)).toBe(handed);
    const price = handed.prices['BTC_PERP'];
    const kept = reading.prices['BTC_PERP'];
    if (price === undefined || kept === undefined) throw new Error('a BTC_PERP price');
    expect(Object.isFrozen(handed.prices) && Object.isFrozen(price) && Object.isFrozen(handed.balances)).toBe(true);
    expect([price.last, price.bid, price.ask].map((d) => d.toFixed())).toEqual(['50', '50', '50']);
    expect([price.last, price.bid, price.ask].some((d) => d === kept.last || d === kept.bid || d === kept.ask)).toBe(false);
    expect(handed.balances['USDT']).not.toBe(reading.balances['USDT']);
    (price.last as unknown as { d: number[] }).d[0] = 7;
    (handed.balances['USDT'] as unknown as { d: number[] }).d[0] = 7;
    expect([kept.last.toFixed(), reading.balances['USDT']?.toFixed()]).toEqual(['50', '100']);
    // A new read: new copies of what changed (the prices), the same copy of what did not (the balances).
    last = '51';
    const next = market.forStrategies(await market.fresh());
    expect(next.prices['BTC_PERP']?.last.toFixed()).toBe('51');
    expect(next.balances).toBe(handed.balances);
  });
});
