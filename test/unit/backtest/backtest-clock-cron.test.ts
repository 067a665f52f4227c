/**
 * The backtest's time: the virtual clock fires timers in due order at their own due time and
 * tells the next one; the daemon's cron schedules fire at the virtual times node-cron matches.
 */
import { describe, expect, it } from 'vitest';
import { CronTimes } from '../../../src/backtest/cron-times.js';
import { VirtualClock } from '../../../src/backtest/virtual-clock.js';

const T0 = Date.UTC(2024, 0, 1);

describe('VirtualClock', () => {
  it('fires due timers in due order (ties in creation order), each at its due time, and skips cleared ones', () => {
    const clock = new VirtualClock(T0);
    const seen: string[] = [];
    clock.setTimeout(() => seen.push(`b@${clock.now() - T0}`), 20);
    clock.setTimeout(() => seen.push(`a@${clock.now() - T0}`), 10);
    const gone = clock.setTimeout(() => seen.push('gone'), 5);
    clock.setTimeout(() => seen.push(`c@${clock.now() - T0}`), 20);
    clock.clearTimeout(gone);
    expect(clock.nextDue()).toBe(T0 + 10);
    clock.advanceTo(T0 + 15);
    expect(seen).toEqual(['a@10']);
    expect(clock.now()).toBe(T0 + 15);
    clock.advanceTo(T0 + 100);
    expect(seen).toEqual(['a@10', 'b@20', 'c@20']);
    expect(clock.nextDue()).toBeUndefined();
  });

  it('clearing a timer that already fired changes nothing for later timers', () => {
    const clock = new VirtualClock(T0);
    let fired = 0;
    const first = clock.setTimeout(() => fired++, 1);
    clock.advanceTo(T0 + 1);
    clock.clearTimeout(first);
    clock.setTimeout(() => fired++, 1);
    expect(clock.nextDue()).toBe(T0 + 2);
    clock.advanceTo(T0 + 2);
    expect(fired).toBe(2);
  });

  it('sleeps on virtual time', async () => {
    const clock = new VirtualClock(T0);
    let woke = false;
    const p = clock.sleep(1000).then(() => (woke = true));
    clock.advanceTo(T0 + 999);
    await Promise.resolve();
    expect(woke).toBe(false);
    clock.advanceTo(T0 + 1000);
    await p;
    expect(woke).toBe(true);
  });
});

describe('CronTimes', () => {
  it.each(['*/10 * * * * *', '*/15 * * * * *', '0 * * * * *', '0 */10 * * * *', '30 5 3 * * *'])('%s: every next fire matches and none is skipped', async (expr) => {
    const cron = new CronTimes(expr);
    let t = T0 - 1;
    const fires: number[] = [];
    for (let i = 0; i < 20; i++) fires.push((t = cron.next(t)));
    for (const f of fires) expect(cron.matches(f)).toBe(true);
    // No matching second between two fires (the first hour of the gap): the next fire is the first one.
    for (let s = fires[0] as number; s < Math.min(fires[1] as number, (fires[0] as number) + 3_600_000); s += 1000) expect(cron.matches(s)).toBe(s === fires[0]);
    await cron.dispose();
  });

  it.each(['*/10 * * * * *', '0 * * * * *', '30 5 3 * * *', '0 0 12 * * 1', '0 0 0 1 * *'])(
    '%s: the answers kept by time of day are node-cron\'s own, across days, months and weekdays',
    async (expr) => {
      const cron = new CronTimes(expr);
      // Twice over the same times of day on different days (the second pass answers from what was kept).
      for (const day of [0, 1, 6, 31, 40]) {
        for (const ofDay of [0, 999, 1000, 59_999, 60_000, 3 * 3_600_000 + 5 * 60_000 + 29_000, 86_399_999]) {
          const t = T0 + day * 86_400_000 + ofDay;
          expect(cron.next(t)).toBe(cron.matcherNext(t));
        }
      }
      await cron.dispose();
    },
  );

  it('reads schedules in UTC', async () => {
    const cron = new CronTimes('0 0 3 * * *');
    expect(new Date(cron.next(T0)).toISOString()).toBe('2024-01-01T03:00:00.000Z');
    await cron.dispose();
  });
});
