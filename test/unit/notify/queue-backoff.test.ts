/** The bounded queue's drop policy and the retry delays' bounds and determinism. */
import { describe, expect, it } from 'vitest';
import { backoffMs, seededRandom } from '../../../src/notify/backoff.js';
import { BoundedQueue } from '../../../src/notify/queue.js';

const item = (name: string, priority: number): { name: string; priority: number } => ({ name, priority });

describe('BoundedQueue', () => {
  it('keeps arrival order and drops the oldest of the lowest priority when full', () => {
    const q = new BoundedQueue<{ name: string; priority: number }>(3);
    expect(q.push(item('alert1', 2))).toBeNull();
    expect(q.push(item('refusal1', 0))).toBeNull();
    expect(q.push(item('refusal2', 0))).toBeNull();
    expect(q.push(item('fill1', 1))?.name).toBe('refusal1');
    expect(q.push(item('fill2', 1))?.name).toBe('refusal2');
    // No refusal left: the oldest fill goes for a new alert.
    expect(q.push(item('alert2', 2))?.name).toBe('fill1');
    expect([q.shift(), q.shift(), q.shift()].map((x) => x?.name)).toEqual(['alert1', 'fill2', 'alert2']);
  });

  it('drops the newcomer when it has a lower priority than everything queued', () => {
    const q = new BoundedQueue<{ name: string; priority: number }>(2);
    q.push(item('alert1', 2));
    q.push(item('alert2', 2));
    expect(q.push(item('refusal', 0))?.name).toBe('refusal');
    expect(q.size).toBe(2);
  });
});

describe('backoffMs', () => {
  const policy = { baseMs: 1_000, maxMs: 8_000 };

  it('grows exponentially within [step/2, step), capped at maxMs', () => {
    const r = seededRandom(1);
    const delays = [1, 2, 3, 4, 5, 6].map((n) => backoffMs(n, policy, r));
    const steps = [1_000, 2_000, 4_000, 8_000, 8_000, 8_000];
    delays.forEach((d, i) => {
      expect(d).toBeGreaterThanOrEqual((steps[i] as number) / 2);
      expect(d).toBeLessThan(steps[i] as number);
    });
  });

  it('is the same for the same seed and differs for another', () => {
    const run = (seed: number): number[] => {
      const r = seededRandom(seed);
      return [1, 2, 3, 4].map((n) => backoffMs(n, policy, r));
    };
    expect(run(42)).toEqual(run(42));
    expect(run(42)).not.toEqual(run(43));
  });

  it('uses the extremes of the jitter range', () => {
    expect(backoffMs(3, policy, () => 0)).toBe(2_000);
    expect(backoffMs(3, policy, () => 0.999_999)).toBe(3_999);
  });
});
