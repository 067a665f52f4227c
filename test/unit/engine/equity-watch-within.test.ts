/**
 * The drawdown watch answers "within the limit" without working the drawdown out again for a
 * total at or above the lowest one already found within it against the same peak
 * (equity-watch.ts): over random runs of totals, new peaks and resets, every update decides
 * exactly what risk-gate.ts drawdownBreached decides for that total and peak.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dec, Decimal } from '../../../src/core/decimal.js';
import { equityOf } from '../../../src/engine/equity.js';
import { EquityWatch } from '../../../src/engine/equity-watch.js';
import { drawdownBreached } from '../../../src/engine/risk-gate.js';
import { memoryStore } from '../../support/test-scope.js';

const usdt = (amount: Decimal) => equityOf({ equityAsset: 'USDT', balances: { USDT: amount }, held: {}, positions: [], flex: {}, prices: {} });

/** A total near 1000 with up to 8 decimals, so many land right at the limit. */
const total = fc.tuple(fc.integer({ min: 700, max: 1300 }), fc.integer({ min: 0, max: 99_999_999 })).map(([i, f]) => new Decimal(`${i}.${String(f).padStart(8, '0')}`));

describe('the drawdown watch within the limit', () => {
  it('decides every update as drawdownBreached does, whatever the order of totals, peaks and resets', () => {
    fc.assert(
      fc.property(fc.constantFrom('0', '5', '10', '12.5', '30'), fc.array(fc.oneof(total, fc.constant('reset' as const)), { minLength: 1, maxLength: 60 }), (pct, run) => {
        const limits = { maxNotionalPerOrderQuote: dec('500'), maxDrawdownPct: dec(pct) };
        const told: number[] = [];
        let step = 0;
        const watch = new EquityWatch({ store: memoryStore(), limits, onBreach: () => told.push(step) });
        let peak: Decimal | undefined;
        const expected: number[] = [];
        for (const t of run) {
          step++;
          if (t === 'reset') {
            watch.resetPeak();
            peak = undefined;
            continue;
          }
          peak = peak === undefined ? t : Decimal.max(peak, t);
          if (drawdownBreached({ currentQuote: t, peakQuote: peak }, limits)) expected.push(step);
          const snap = watch.update(usdt(t));
          expect(snap.peakQuote.toFixed()).toBe(peak.toFixed());
        }
        expect(told).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });

  it('still finds a breach below the lowest total found within the limit', () => {
    const breaches: string[] = [];
    const watch = new EquityWatch({ store: memoryStore(), limits: { maxNotionalPerOrderQuote: dec('500'), maxDrawdownPct: dec('10') }, onBreach: (r) => breaches.push(r) });
    for (const t of ['1000', '950', '901', '990', '900', '899.99999999', '950']) watch.update(usdt(dec(t)));
    expect(breaches).toEqual(['drawdown: equity 900.00 below peak 1000.00 by more than 10 %']);
  });
});
