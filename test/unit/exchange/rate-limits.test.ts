/**
 * The token bucket of a pool: the plan's bound (checked by simulating the bucket against random
 * arrivals, not by re-deriving the formula), its sustained share, and the local refill on the
 * injected clock driving a real Bottleneck limiter.
 */
import Bottleneck from 'bottleneck';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { DEFAULT_POOLS, POOL_NAMES } from '../../../src/exchange/rate-limits/pools.js';
import { planBucket, type BucketPlan } from '../../../src/exchange/rate-limits/bucket.js';
import { GridRefill } from '../../../src/exchange/rate-limits/grid-refill.js';
import { VirtualClock } from '../../../src/backtest/virtual-clock.js';
import { SendLog } from '../../../src/exchange/rate-limits/send-log.js';

/**
 * Grants of the bucket (start full, A tokens at each grid point, capped at C) when requests
 * arrive at `arrivals` (ms, sorted) and are served greedily in order.
 */
function grants(plan: BucketPlan, arrivals: number[]): number[] {
  const out: number[] = [];
  let level = plan.capacity;
  let nextGrid = plan.increaseIntervalMs;
  for (const t of arrivals) {
    let at = t;
    for (;;) {
      while (nextGrid <= at) {
        level = Math.min(plan.capacity, level + plan.increaseAmount);
        nextGrid += plan.increaseIntervalMs;
      }
      if (level >= 1) break;
      at = nextGrid;
    }
    level -= 1;
    out.push(at);
  }
  return out;
}

function maxInWindow(times: number[], windowMs: number): number {
  let max = 0;
  let from = 0;
  for (let i = 0; i < times.length; i++) {
    while (times[i]! - times[from]! >= windowMs) from++;
    max = Math.max(max, i - from + 1);
  }
  return max;
}

describe('planBucket', () => {
  it('no sliding window is granted more than the budget, whatever the arrivals (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 3, max: 20_000 }),
        fc.integer({ min: 100, max: 20_000 }),
        fc.integer({ min: 30, max: 100 }),
        fc.integer({ min: 0, max: 2 }),
        // Bursts separated by idle gaps: the bucket fills up, then is drained at once.
        fc.array(fc.tuple(fc.integer({ min: 0, max: 30_000 }), fc.integer({ min: 1, max: 400 })), { minLength: 1, maxLength: 12 }),
        (limit, windowMs, marginPct, slack, bursts) => {
          const spec = { limit, windowMs, safetyMargin: marginPct / 100 };
          let plan: BucketPlan;
          try {
            plan = planBucket(spec, { slack, minCapacity: 1 });
          } catch {
            return Math.floor(limit * spec.safetyMargin) - slack < 2; // only too-small budgets are refused
          }
          expect(plan.windowBound).toBeLessThanOrEqual(plan.budget - slack);
          expect(plan.capacity).toBeGreaterThanOrEqual(plan.increaseAmount);
          expect(plan.heartbeatMs).toBeLessThanOrEqual(plan.increaseIntervalMs);
          let t = 0;
          const arrivals: number[] = [];
          for (const [gap, n] of bursts) {
            t += gap;
            for (let i = 0; i < n; i++) arrivals.push(t);
          }
          expect(maxInWindow(grants(plan, arrivals), windowMs)).toBeLessThanOrEqual(plan.budget - slack);
          return true;
        },
      ),
      { numRuns: 300 },
    );
  });

  it('the declared pools keep ≥ 97 % of their budget for the sustained rate (≥ 75 % of the venue limit)', () => {
    for (const name of POOL_NAMES) {
      const spec = DEFAULT_POOLS[name];
      const plan = planBucket(spec, { slack: 1, minCapacity: 1 });
      const sustained = (plan.increaseAmount * spec.windowMs) / plan.increaseIntervalMs;
      expect(sustained / plan.budget, name).toBeGreaterThanOrEqual(0.97);
      expect(sustained / spec.limit, name).toBeGreaterThanOrEqual(0.75);
      expect(plan.capacity / plan.budget, name).toBeLessThanOrEqual(0.03);
    }
  });

  it('the heaviest job fits the bucket, and a budget below two tokens is refused', () => {
    const plan = planBucket({ limit: 100, windowMs: 1000, safetyMargin: 0.8 }, { slack: 0, minCapacity: 20 });
    expect(plan.capacity).toBeGreaterThanOrEqual(20);
    expect(() => planBucket({ limit: 1, windowMs: 300, safetyMargin: 1 }, { slack: 0, minCapacity: 1 })).toThrow(RangeError);
  });
});

describe('GridRefill (injected clock, real Bottleneck)', () => {
  const plan: BucketPlan = { budget: 13, capacity: 4, increaseAmount: 3, increaseIntervalMs: 100, heartbeatMs: 100, steps: 3, windowBound: 13 };
  const settle = async (): Promise<void> => {
    for (let i = 0; i < 5; i++) await new Promise((r) => setTimeout(r, 2));
  };

  it('adds A per grid point, catches up whole intervals after a late timer, never above C', async () => {
    const clock = new ManualClock(0);
    const limiter = new Bottleneck({ reservoir: 0 });
    const refill = new GridRefill(limiter, plan, clock, (err) => {
      throw err;
    });
    clock.advance(100);
    await settle();
    expect(await limiter.currentReservoir()).toBe(3);
    clock.advance(99);
    await settle();
    expect(await limiter.currentReservoir()).toBe(3);
    await limiter.incrementReservoir(-3);
    clock.advance(1); // grid point 200
    await settle();
    expect(await limiter.currentReservoir()).toBe(3);
    await limiter.incrementReservoir(-3);
    clock.advance(250); // 450: grid points 300 and 400 at once, clipped at C
    await settle();
    expect(await limiter.currentReservoir()).toBe(4);
    clock.advance(50); // 500: the grid did not move with the late timer
    await settle();
    expect(await limiter.currentReservoir()).toBe(4);
    refill.stop();
    await limiter.stop();
  });

  it('a pause below zero is paid back by the refill, one grid point at a time', async () => {
    const clock = new ManualClock(0);
    const limiter = new Bottleneck({ reservoir: 4 });
    const refill = new GridRefill(limiter, plan, clock, (err) => {
      throw err;
    });
    await refill.adjust((level) => -6 - level);
    expect(await limiter.currentReservoir()).toBe(-6);
    clock.advance(100);
    await settle();
    expect(await limiter.currentReservoir()).toBe(-3);
    clock.advance(200);
    await settle();
    expect(await limiter.currentReservoir()).toBe(3);
    refill.stop();
    await limiter.stop();
  });
});

describe('GridRefill on a clock that fires every grid point of a jump (the backtest clock)', () => {
  const plan: BucketPlan = { budget: 13, capacity: 4, increaseAmount: 3, increaseIntervalMs: 100, heartbeatMs: 100, steps: 3, windowBound: 13 };
  const settle = async (): Promise<void> => {
    for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
  };
  function bucket(level: number) {
    const b = {
      level,
      reads: 0,
      currentReservoir: () => {
        b.reads++;
        return Promise.resolve(b.level);
      },
      incrementReservoir: (by: number) => Promise.resolve((b.level += by)),
    };
    return b;
  }

  it('the grid points of one jump are applied with one read of the level, capped as one by one', async () => {
    const clock = new VirtualClock(0);
    const b = bucket(-20);
    const refill = new GridRefill(b, plan, clock, (err) => {
      throw err;
    });
    clock.advanceTo(500); // five grid points, each fired at its own due time
    await settle();
    expect(b.level).toBe(-5);
    expect(b.reads).toBe(1);
    clock.advanceTo(1000);
    await settle();
    expect(b.level).toBe(4); // -5 + 15, clipped at C
    expect(b.reads).toBe(2);
    refill.stop();
  });

  it('a change queued after a refill keeps its place: later grid points are applied after it', async () => {
    const clock = new VirtualClock(0);
    const b = bucket(0);
    const refill = new GridRefill(b, plan, clock, (err) => {
      throw err;
    });
    clock.advanceTo(100); // +3 queued
    void refill.adjust((level) => -6 - level); // a pause to -6
    clock.advanceTo(300); // two more grid points, after the pause: -6 + 6
    await settle();
    expect(b.level).toBe(0);
    refill.stop();
  });
});

describe('SendLog', () => {
  it('remembers only the sends of the last window, even when nobody reads it (no growth)', () => {
    const clock = new ManualClock(0);
    const log = new SendLog(clock, 1000);
    for (let i = 0; i < 300; i++) {
      log.record(1);
      clock.advance(100); // 10 sends per window
    }
    expect(log.size).toBeLessThanOrEqual(11);
    expect(log.used()).toBeLessThanOrEqual(10);
  });
});
