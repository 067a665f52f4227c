/** Refusal roll-ups per strategy and code, and the daily summary timer at a UTC time, on a ManualClock. */
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { DailyTimer, nextAt, utcDay, type SummaryWindow } from '../../../src/notify/daily.js';
import type { RefusalEvent } from '../../../src/notify/events.js';
import { RefusalLimiter } from '../../../src/notify/refusals.js';

const MIN = 60_000;

describe('RefusalLimiter', () => {
  it('sends the first refusal at once, then at most one "+k more" per window per strategy and code', () => {
    const clock = new ManualClock(0);
    const out: RefusalEvent[] = [];
    const limiter = new RefusalLimiter(clock, 15 * MIN, (e) => out.push(e));
    limiter.refused('grid', 'MAX_NOTIONAL', 'limit buy BTC_USDT: 600 > 500');
    for (let i = 0; i < 40; i++) {
      clock.advance(10_000);
      limiter.refused('grid', 'MAX_NOTIONAL', `limit buy BTC_USDT: attempt ${i}`);
    }
    // Another code and another strategy are their own windows.
    limiter.refused('grid', 'BUDGET', 'budget');
    limiter.refused('dca', 'MAX_NOTIONAL', 'dca');
    expect(out.map((e) => [e.strategyId, e.code, e.suppressed])).toEqual([
      ['grid', 'MAX_NOTIONAL', 0],
      ['grid', 'BUDGET', 0],
      ['dca', 'MAX_NOTIONAL', 0],
    ]);
    clock.advanceTo(15 * MIN);
    expect(out.length).toBe(4);
    expect(out[3]).toMatchObject({ strategyId: 'grid', code: 'MAX_NOTIONAL', suppressed: 40, detail: 'limit buy BTC_USDT: attempt 39', atMs: 15 * MIN });
    // A new window opened with the roll-up: the next refusal is counted, not sent.
    limiter.refused('grid', 'MAX_NOTIONAL', 'again');
    expect(out.length).toBe(4);
    clock.advanceTo(30 * MIN);
    expect(out.at(-1)).toMatchObject({ code: 'MAX_NOTIONAL', suppressed: 1 });
    // A quiet window closes silently; the next refusal after it is sent at once.
    clock.advanceTo(45 * MIN);
    const n = out.length;
    limiter.refused('grid', 'MAX_NOTIONAL', 'after a quiet window');
    expect(out.length).toBe(n + 1);
    expect(out.at(-1)).toMatchObject({ suppressed: 0, detail: 'after a quiet window' });
    limiter.stop();
    expect(clock.pendingCount).toBe(0);
  });
});

describe('daily summary timer', () => {
  const day = Date.UTC(2026, 10, 23);

  it('nextAt is the next HH:MM UTC strictly after now', () => {
    expect(nextAt(day, '00:00')).toBe(day + 86_400_000);
    expect(nextAt(day + 1, '07:30')).toBe(day + 7.5 * 3_600_000);
    expect(nextAt(day + 8 * 3_600_000, '07:30')).toBe(day + 86_400_000 + 7.5 * 3_600_000);
    expect(() => nextAt(day, '24:00')).toThrow(RangeError);
  });

  it('fires at the UTC time each day with the 24 h window that ended', () => {
    const clock = new ManualClock(day + 10 * 3_600_000);
    const fired: SummaryWindow[] = [];
    const timer = new DailyTimer(clock, '07:30', (w) => fired.push(w));
    timer.start();
    clock.advanceTo(day + 86_400_000 + 7.5 * 3_600_000 - 1);
    expect(fired).toEqual([]);
    clock.advance(1);
    const first = day + 86_400_000 + 7.5 * 3_600_000;
    expect(fired).toEqual([{ fromMs: first - 86_400_000, toMs: first }]);
    clock.advance(86_400_000);
    expect(fired.length).toBe(2);
    expect(utcDay((fired[1]?.toMs ?? 0) - 1)).toBe('2026-11-25');
    timer.stop();
    expect(clock.pendingCount).toBe(0);
  });
});
