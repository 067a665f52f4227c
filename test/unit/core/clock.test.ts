import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';

describe('ManualClock', () => {
  it('fires timers in due order with now() at their due time', () => {
    const clock = new ManualClock(1000);
    const seen: Array<[string, number]> = [];
    clock.setTimeout(() => seen.push(['b', clock.now()]), 50);
    clock.setTimeout(() => seen.push(['a', clock.now()]), 10);
    const c = clock.setTimeout(() => seen.push(['c', clock.now()]), 20);
    clock.clearTimeout(c);
    clock.advance(30);
    expect(seen).toEqual([['a', 1010]]);
    expect(clock.now()).toBe(1030);
    clock.advance(100);
    expect(seen).toEqual([['a', 1010], ['b', 1050]]);
    expect(clock.pendingCount).toBe(0);
  });

  it('sleep resolves when time is advanced and rejects on abort', async () => {
    const clock = new ManualClock(0);
    let done = false;
    const p = clock.sleep(100).then(() => {
      done = true;
    });
    clock.advance(99);
    await Promise.resolve();
    expect(done).toBe(false);
    clock.advance(1);
    await p;
    expect(done).toBe(true);
    const ac = new AbortController();
    const q = clock.sleep(100, ac.signal);
    ac.abort(new Error('stop'));
    await expect(q).rejects.toThrow('stop');
  });
});
