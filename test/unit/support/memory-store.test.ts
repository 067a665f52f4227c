/**
 * memoryStore: a store made inside a test is in memory, open while that test runs and closed once
 * it has finished; it keeps the time of the clock it is given (a ManualClock at 0 otherwise).
 */
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { dec } from '../../../src/core/decimal.js';
import type { Store } from '../../../src/store/index.js';
import { memoryStore } from '../../support/test-scope.js';

const T0 = Date.UTC(2024, 0, 1);
const MIN = 60_000;

describe('a memory store made inside a test', () => {
  let made: Store | undefined;
  it('is in memory and open while the test runs, its clock at 0 unless given', () => {
    made = memoryStore();
    expect([made.file, made.durable]).toEqual([':memory:', false]);
    made.meta.set('k', 'v');
    expect(made.meta.get('k')).toBe('v');
    made.candles.fold('BTC_USDT', 1_000, dec('10'));
    // At 0 the minute folded at 1 s is still the one being built.
    expect(made.candles.open('BTC_USDT', '1m')?.close.toFixed()).toBe('10');
  });

  it('is closed when that test has finished', () => {
    expect(made).toBeDefined();
    expect(() => made?.meta.get('k')).toThrow(/not open/);
  });
});

describe('a memory store given a clock', () => {
  it('reads its time from that clock', () => {
    const clock = new ManualClock(T0 + 30_000);
    const store = memoryStore({ clock });
    store.candles.fold('BTC_USDT', T0 + 1_000, dec('10'));
    expect([store.candles.open('BTC_USDT', '1m') === undefined, store.candles.closed('BTC_USDT', '1m', 5).length]).toEqual([false, 0]);
    clock.advanceTo(T0 + 2 * MIN);
    expect([store.candles.open('BTC_USDT', '1m') === undefined, store.candles.closed('BTC_USDT', '1m', 5).length]).toEqual([true, 1]);
  });
});
