import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { TransientError } from '../../../src/core/errors.js';
import { PRIORITY, RatePool } from '../../../src/exchange/rate-limits.js';

// Jobs resume on promise continuations: let the event loop run a little between clock steps.
const tick = (): Promise<void> => new Promise((r) => setTimeout(r, 2));

/** Advances the manual clock in steps, letting the jobs run between them. */
async function step(clock: ManualClock, ms: number, stepMs: number): Promise<void> {
  for (let t = 0; t < ms; t += stepMs) {
    clock.advance(Math.min(stepMs, ms - t));
    await tick();
  }
}

function pool(clock: ManualClock, over: { limit?: number; windowMs?: number; maxQueued?: number } = {}): RatePool {
  return new RatePool({
    name: 'orders',
    spec: { limit: over.limit ?? 10, windowMs: over.windowMs ?? 1000, safetyMargin: 0.5 },
    clock,
    maxQueued: over.maxQueued ?? 100,
    pause: { baseMs: 100, maxMs: 1000 },
    random: () => 0.5,
  });
}

describe('RatePool (manual clock)', () => {
  it('never starts more than the budget within any sliding window', async () => {
    const clock = new ManualClock(0);
    const p = pool(clock); // budget 5 per 1000 ms
    const starts: number[] = [];
    const jobs: Promise<void>[] = [];
    // Arrivals spread unevenly so aligned and unaligned windows both get tested.
    for (let i = 0; i < 40; i++) {
      jobs.push(p.schedule(PRIORITY.read, 1, async () => { starts.push(clock.now()); }));
      if (i % 7 === 0) await step(clock, 130, 10);
    }
    for (let i = 0; i < 200 && starts.length < 40; i++) await step(clock, 50, 10);
    await Promise.all(jobs);
    expect(starts).toHaveLength(40);
    for (const t of starts) {
      expect(starts.filter((s) => s >= t && s < t + 1000).length).toBeLessThanOrEqual(5);
    }
    expect(p.status().limit).toBe(5);
    await p.stop();
  });

  it('remembers only the sends of the last window, even when nobody reads its status (no growth)', async () => {
    const clock = new ManualClock(0);
    const p = new RatePool({ name: 'orders', spec: { limit: 10_000, windowMs: 1000, safetyMargin: 0.8 }, clock, maxQueued: 100, pause: { baseMs: 100, maxMs: 1000 }, random: () => 0.5 });
    for (let i = 0; i < 300; i++) {
      await p.schedule(PRIORITY.read, 1, async () => undefined);
      clock.advance(100); // 10 sends per window
    }
    expect(p.remembered).toBeLessThanOrEqual(11);
    expect(p.status().used).toBeLessThanOrEqual(10);
  });

  it('lets bursts up to the budget go at once, then waits for the window', async () => {
    const clock = new ManualClock(0);
    const p = pool(clock);
    let done = 0;
    const jobs = Array.from({ length: 7 }, () => p.schedule(PRIORITY.read, 1, async () => { done++; }));
    for (let i = 0; i < 10; i++) await tick();
    expect(done).toBe(5);
    expect(p.status()).toMatchObject({ used: 5, queued: 2 });
    await step(clock, 1000, 100);
    await Promise.all(jobs);
    expect(done).toBe(7);
    await p.stop();
  });

  it('counts weight', async () => {
    const clock = new ManualClock(0);
    const p = pool(clock);
    let done = 0;
    const jobs = [0, 1].map(() => p.schedule(PRIORITY.placement, 3, async () => { done++; }).catch((e: unknown) => e));
    for (let i = 0; i < 10; i++) await tick();
    expect(done).toBe(1);
    expect(p.status().used).toBe(3);
    await p.stop();
    // Stopping drops the waiting job with a clear error instead of leaving it hanging.
    expect(((await jobs[1]) as Error).message).toContain('closed');
  });

  it('runs queued cancels before queued reads', async () => {
    const clock = new ManualClock(0);
    const p = pool(clock, { limit: 2 }); // budget 1
    const order: string[] = [];
    const jobs = [p.schedule(PRIORITY.read, 1, async () => { order.push('r0'); })];
    for (let i = 1; i <= 3; i++) jobs.push(p.schedule(PRIORITY.read, 1, async () => { order.push(`r${i}`); }));
    jobs.push(p.schedule(PRIORITY.cancel, 1, async () => { order.push('c'); }));
    for (let i = 0; i < 6; i++) await step(clock, 1000, 250);
    await Promise.all(jobs);
    expect(order).toEqual(['r0', 'c', 'r1', 'r2', 'r3']);
    await p.stop();
  });

  it('refuses new jobs beyond the bounded queue with a rate_limited TransientError', async () => {
    const clock = new ManualClock(0);
    const p = pool(clock, { limit: 2, maxQueued: 2 });
    const jobs = [0, 1, 2].map(() => p.schedule(PRIORITY.read, 1, async () => undefined));
    await tick();
    const err = await p.schedule(PRIORITY.read, 1, async () => undefined).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TransientError);
    expect((err as TransientError).kind).toBe('rate_limited');
    expect((err as Error).message).toContain('queue');
    await step(clock, 3000, 500);
    await Promise.all(jobs);
    await p.stop();
  });

  it('a venue 429 pauses the pool with growing backoff', async () => {
    const clock = new ManualClock(0);
    const p = pool(clock);
    expect(p.pauseFor429()).toBe(75); // 100 × (0.5 + 0.5 × 0.5)
    expect(p.pauseFor429()).toBe(150);
    let ran = false;
    const job = p.schedule(PRIORITY.read, 1, async () => { ran = true; });
    await step(clock, 100, 10);
    expect(ran).toBe(false);
    expect(p.status().paused).toBe(true);
    await step(clock, 100, 10);
    await job;
    expect(ran).toBe(true);
    p.noteSuccess();
    expect(p.pauseFor429()).toBe(75);
    await p.stop();
  });
});
