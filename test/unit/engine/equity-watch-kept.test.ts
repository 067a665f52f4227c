/**
 * The drawdown watch keeps the persisted peak it last read or wrote (equity-watch.ts): the store
 * must hold what it reports after every update and reset, and a failed write must not leave a kept
 * peak the store does not hold. The check without the division never says "within" where the
 * division says "breached".
 */
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { dec } from '../../../src/core/decimal.js';
import { equityOf } from '../../../src/engine/equity.js';
import { EQUITY_PEAK_KEY, EquityWatch, clearlyWithin } from '../../../src/engine/equity-watch.js';
import { drawdownBreached } from '../../../src/engine/risk-gate.js';
import type { Store } from '../../../src/store/index.js';
import { memoryStore } from '../../support/test-scope.js';

const usdt = (amount: string) => equityOf({ equityAsset: 'USDT', balances: { USDT: dec(amount) }, held: {}, positions: [], flex: {}, prices: {} });

function setup(): { store: Store; watch: EquityWatch; breaches: string[] } {
  const store = memoryStore();
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

  it('the same total against the same peak gives what a watch reading the store gives, a breach told again', () => {
    const { store, watch, breaches } = setup();
    const fresh: string[] = [];
    const limits = { maxNotionalPerOrderQuote: dec('500'), maxDrawdownPct: dec('10') };
    for (const total of ['1000', '1000', '1200', '1200', '1050', '1050', '1300', '1300', '1050', '1050', '1250']) {
      const kept = watch.update(usdt(total));
      const scratch = new EquityWatch({ store, limits, onBreach: (r) => fresh.push(r) }).update(usdt(total));
      expect([kept.currentQuote.toFixed(), kept.peakQuote.toFixed()]).toEqual([scratch.currentQuote.toFixed(), scratch.peakQuote.toFixed()]);
      expect(watch.equity?.total.toFixed()).toBe(total);
      expect(breaches).toEqual(fresh);
    }
    expect(breaches).toEqual([
      'drawdown: equity 1050.00 below peak 1200.00 by more than 10 %',
      'drawdown: equity 1050.00 below peak 1200.00 by more than 10 %',
      'drawdown: equity 1050.00 below peak 1300.00 by more than 10 %',
      'drawdown: equity 1050.00 below peak 1300.00 by more than 10 %',
    ]);
    // After a reset the same total starts a new peak: nothing kept from before it.
    watch.resetPeak();
    expect(watch.update(usdt('1250')).peakQuote.toFixed()).toBe('1250');
    expect(store.meta.get(EQUITY_PEAK_KEY)).toBe('1250');
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

describe('the drawdown check without a division', () => {
  const amount = fc.bigInt({ min: -(10n ** 22n), max: 10n ** 22n }).map((n) => dec(n.toString()).div(dec('100000000')));
  const pct = fc.oneof(fc.constantFrom('0', '10', '99.9', '33.333333333333333333333'), fc.integer({ min: 0, max: 9_999 }).map((n) => (n / 100).toString())).map(dec);

  it('property: "clearly within" only where drawdownBreached says no breach, at and near the limit too', () => {
    const near = fc.tuple(amount, pct, fc.integer({ min: -3, max: 3 })).map(([peak, max, ulp]) => {
      // Totals on the limit and a few units of the last place either side of it.
      const onLimit = peak.minus(peak.mul(max).div(100));
      return { peak, max, total: onLimit.plus(dec(String(ulp)).mul(dec('0.00000001'))) };
    });
    const anywhere = fc.record({ peak: amount, max: pct, total: amount });
    fc.assert(
      fc.property(fc.oneof(near, anywhere), ({ peak, max, total }) => {
        const limits = { maxNotionalPerOrderQuote: dec('500'), maxDrawdownPct: max };
        if (clearlyWithin(total, peak, max)) expect(drawdownBreached({ currentQuote: total, peakQuote: peak }, limits)).toBe(false);
      }),
      { numRuns: 2_000 },
    );
  });

  it('decides the plain cases and leaves the exact limit to the division', () => {
    expect(clearlyWithin(dec('1200'), dec('1200'), dec('10'))).toBe(true);
    expect(clearlyWithin(dec('1080.01'), dec('1200'), dec('10'))).toBe(true);
    expect(clearlyWithin(dec('1080'), dec('1200'), dec('10'))).toBe(false);
    expect(clearlyWithin(dec('1079.99'), dec('1200'), dec('10'))).toBe(false);
    expect(clearlyWithin(dec('-5'), dec('0'), dec('10'))).toBe(true);
  });
});
