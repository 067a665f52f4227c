/**
 * The drawdown watch keeps the persisted peak it last read or wrote (equity-watch.ts): the store
 * must hold what it reports after every update and reset, and a failed write must not leave a kept
 * peak the store does not hold.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { dec } from '../../../src/core/decimal.js';
import { equityOf } from '../../../src/engine/equity.js';
import { EQUITY_PEAK_KEY, EquityWatch } from '../../../src/engine/equity-watch.js';
import { silentLogger } from '../../../src/observability/logger.js';
import { openStore, type Store } from '../../../src/store/index.js';
import { tempDir } from '../../support/temp-dir.js';

const stores: Store[] = [];
afterEach(() => {
  for (const s of stores.splice(0)) s.close();
});

const usdt = (amount: string) => equityOf({ equityAsset: 'USDT', balances: { USDT: dec(amount) }, held: {}, positions: [], flex: {}, prices: {} });

function setup(): { store: Store; watch: EquityWatch; breaches: string[] } {
  const store = openStore({ dataDir: tempDir(), clock: new ManualClock(0), logger: silentLogger(), durability: 'memory' });
  stores.push(store);
  const breaches: string[] = [];
  const watch = new EquityWatch({ store, limits: { maxNotionalPerOrderQuote: dec('500'), maxDrawdownPct: dec('10') }, onBreach: (r) => breaches.push(r) });
  return { store, watch, breaches };
}

describe('the kept drawdown peak', () => {
  it('is what the store holds after every update and reset; at and above the peak nothing breaches', () => {
    const { store, watch, breaches } = setup();
    const peaks: string[] = [];
    for (const total of ['1000', '1000', '1200', '1100', '1200', '1300', '1169.99']) {
      const peak = watch.update(usdt(total)).peakQuote.toFixed();
      expect(store.meta.get(EQUITY_PEAK_KEY)).toBe(peak);
      peaks.push(peak);
    }
    expect(peaks).toEqual(['1000', '1000', '1200', '1200', '1200', '1300', '1300']);
    expect(breaches).toEqual(['drawdown: equity 1169.99 below peak 1300.00 by more than 10 %']);
    watch.resetPeak();
    expect(store.meta.get(EQUITY_PEAK_KEY)).toBeUndefined();
    expect(watch.update(usdt('900')).peakQuote.toFixed()).toBe('900');
    expect(store.meta.get(EQUITY_PEAK_KEY)).toBe('900');
  });

  it('after a failed peak write, the next update reads the store again', () => {
    const { store, watch } = setup();
    watch.update(usdt('1000'));
    const failing = vi.spyOn(store.meta, 'set').mockImplementationOnce(() => {
      throw new Error('disk full');
    });
    expect(() => watch.update(usdt('1500'))).toThrow('disk full');
    failing.mockRestore();
    expect(store.meta.get(EQUITY_PEAK_KEY)).toBe('1000');
    // The store still holds 1000: 880 is 12 % below it, a breach against the stored peak, not 1500.
    expect(watch.update(usdt('880')).peakQuote.toFixed()).toBe('1000');
  });
});
