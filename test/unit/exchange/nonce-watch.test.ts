import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { NonceCollisionWatch } from '../../../src/exchange/nonce-watch.js';

function watch(mode: 'strict' | 'window', skewMs = 0): { w: NonceCollisionWatch; alerts: string[]; clock: ManualClock } {
  const clock = new ManualClock(1_000_000);
  const alerts: string[] = [];
  const w = new NonceCollisionWatch({ clock, mode, skewMs: () => skewMs, onSuspected: (m) => alerts.push(m), threshold: 2, windowMs: 60_000 });
  return { w, alerts, clock };
}

describe('NonceCollisionWatch', () => {
  it('strict: refusals of nonces above everything the venue accepted raise one alert', () => {
    const { w, alerts, clock } = watch('strict');
    w.observe(1_000_000, 'accepted');
    w.observe(1_000_010, 'refused');
    expect(alerts).toHaveLength(0);
    clock.advance(1000);
    w.observe(1_001_000, 'refused');
    w.observe(1_001_001, 'refused');
    expect(alerts).toHaveLength(1);
    expect(w.state()).toMatchObject({ suspected: true, unexplained: 3 });
  });

  it('strict: a refusal of a nonce at or below an accepted one is our own doing, not a second signer', () => {
    const { w, alerts } = watch('strict');
    w.observe(2_000_000, 'accepted');
    w.observe(1_999_999, 'refused');
    w.observe(2_000_000, 'refused');
    expect(alerts).toHaveLength(0);
    expect(w.state().suspected).toBe(false);
  });

  it('window: refusals are explained by clock skew or our own run-ahead, otherwise suspected', () => {
    const skewed = watch('window', 6_000);
    skewed.w.observe(1_000_000, 'refused');
    skewed.w.observe(1_000_001, 'refused');
    expect(skewed.alerts).toHaveLength(0);
    const ahead = watch('window');
    ahead.w.observe(1_005_000, 'refused');
    ahead.w.observe(1_005_001, 'refused');
    expect(ahead.alerts).toHaveLength(0);
    const other = watch('window');
    other.w.observe(1_000_000, 'refused');
    other.w.observe(1_000_001, 'refused');
    expect(other.alerts).toHaveLength(1);
  });

  it('a quiet window ends the episode; a new one alerts again', () => {
    const { w, alerts, clock } = watch('strict');
    w.observe(1_000_000, 'refused');
    w.observe(1_000_001, 'refused');
    expect(alerts).toHaveLength(1);
    clock.advance(61_000);
    expect(w.state().suspected).toBe(false);
    w.observe(1_070_000, 'refused');
    w.observe(1_070_001, 'refused');
    expect(alerts).toHaveLength(2);
  });
});
