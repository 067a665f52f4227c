/**
 * One pool's Bottleneck limiter on real, short windows (Bottleneck keeps its own timers, so a
 * manual clock cannot drive it): the budget over every sliding window, priorities, the bounded
 * queue's refusals, the 429 pause and its backoff, deadlines and stop.
 */
import { describe, expect, it } from 'vitest';
import { eventually } from '../../support/eventually.js';
import { SystemClock } from '../../../src/core/clock.js';
import { TransientError } from '../../../src/core/errors.js';
import { PRIORITY, type PoolSpec } from '../../../src/exchange/rate-limits/pools.js';
import { planBucket } from '../../../src/exchange/rate-limits/bucket.js';
import { PoolLimiter } from '../../../src/exchange/rate-limits/pool-limiter.js';
import type { JobTicket } from '../../../src/exchange/rate-limits/ticket.js';
import { maxInWindow } from '../../support/counting-proxy.js';
import { failure } from '../../support/fixture-client.js';

interface Over {
  spec?: Partial<PoolSpec>;
  maxQueued?: number;
  deadlineMs?: number;
  pause?: { baseMs: number; maxMs: number; maxRetryAfterMs: number };
  maxWeight?: number;
}

function pool(over: Over = {}): PoolLimiter {
  const spec = { limit: 20, windowMs: 500, safetyMargin: 1, ...over.spec };
  return new PoolLimiter({
    name: 'orders',
    spec,
    plan: planBucket(spec, { slack: 0, minCapacity: over.maxWeight ?? 1 }),
    clock: new SystemClock(),
    maxQueued: over.maxQueued ?? 1000,
    deadlineMs: over.deadlineMs ?? 10_000,
    pause: over.pause ?? { baseMs: 100, maxMs: 1000, maxRetryAfterMs: 1000 },
    random: () => 0.5,
  });
}

/** A job that records when it was sent. */
const send = (log: number[], tag?: string[], name?: string) => async (ticket: JobTicket): Promise<void> => {
  ticket.claim();
  log.push(performance.now());
  if (name !== undefined) tag?.push(name);
};

describe('PoolLimiter (Bottleneck, real time)', () => {
  it('never sends more than the budget within any sliding window, under uneven arrivals', async () => {
    const p = pool(); // budget 20 per 500 ms
    const sent: number[] = [];
    const jobs: Promise<void>[] = [];
    for (let i = 0; i < 60; i++) {
      jobs.push(p.schedule(PRIORITY.read, 1, send(sent)));
      if (i % 13 === 0) await new Promise((r) => setTimeout(r, 60));
    }
    await Promise.all(jobs);
    expect(sent).toHaveLength(60);
    expect(maxInWindow(sent, 500)).toBeLessThanOrEqual(20);
    expect(p.status().limit).toBe(20);
    await p.stop();
  });

  it('counts weight against the bucket and the used figure', async () => {
    const p = pool({ maxWeight: 3 });
    await p.schedule(PRIORITY.placement, 3, send([]));
    expect(p.status().used).toBe(3);
    await expect(p.schedule(PRIORITY.placement, 30, send([]))).rejects.toThrow(RangeError);
    await p.stop();
  });

  it('a queued cancel starts before queued reads', async () => {
    const p = pool({ spec: { limit: 4, windowMs: 400 } });
    const sent: number[] = [];
    const order: string[] = [];
    const jobs = Array.from({ length: 8 }, (_, i) => p.schedule(PRIORITY.read, 1, send(sent, order, `r${i}`)));
    await eventually(() => p.status().queued >= 5, 'p.status().queued >= 5');
    const queuedReads = p.status().queued;
    jobs.push(p.schedule(PRIORITY.cancel, 1, send(sent, order, 'c')));
    await Promise.all(jobs);
    // Every read still queued when the cancel arrived went after it.
    expect(order.length - 1 - order.indexOf('c')).toBeGreaterThanOrEqual(queuedReads);
    await p.stop();
  });

  it('a full queue displaces the oldest lower-priority job, and refuses when nothing is lower (with a clear error)', async () => {
    const p = pool({ spec: { limit: 2, windowMs: 5000 }, maxQueued: 2 });
    const granted = p.schedule(PRIORITY.read, 1, send([])); // the bucket's one token
    const reads = [p.schedule(PRIORITY.read, 1, send([])), p.schedule(PRIORITY.read, 1, send([]))];
    await eventually(() => p.status().queued === 2, 'p.status().queued === 2');
    const cancels = [p.schedule(PRIORITY.cancel, 1, send([])), p.schedule(PRIORITY.cancel, 1, send([]))];
    // Both reads were displaced by the cancels, and their callers were told.
    for (const r of reads) {
      const err = await failure(r);
      expect(err).toBeInstanceOf(TransientError);
      expect((err as TransientError).kind).toBe('rate_limited');
      expect((err as TransientError).context).toMatchObject({ pool: 'orders', reason: 'queue_full' });
    }
    // A third cancel finds only cancels: it is refused, loudly.
    const refused = await failure(p.schedule(PRIORITY.cancel, 1, send([])));
    expect((refused as TransientError).context).toMatchObject({ reason: 'queue_full' });
    expect(p.status().refused).toBe(3);
    await granted;
    await p.stop();
    for (const c of cancels) expect((await failure(c)).message).toContain('closed');
  });

  it('a venue 429 pauses the pool; backoff grows per episode, not per reply of one episode', async () => {
    const p = pool({ pause: { baseMs: 100, maxMs: 1000, maxRetryAfterMs: 1000 } });
    expect(p.pauseFor429()).toBe(75); // 100 × (0.5 + 0.5 × 0.5)
    expect(p.pauseFor429()).toBe(75); // a second reply of the same episode
    const pausedAt = performance.now();
    const sent: number[] = [];
    const job = p.schedule(PRIORITY.read, 1, send(sent));
    await eventually(() => p.status().paused, 'p.status().paused');
    await job;
    expect(sent[0]! - pausedAt).toBeGreaterThanOrEqual(70);
    await eventually(() => !p.status().paused, '!p.status().paused');
    expect(p.pauseFor429()).toBe(150); // the next episode backs off further
    p.noteSuccess();
    await eventually(() => !p.status().paused, '!p.status().paused');
    expect(p.pauseFor429()).toBe(75);
    await p.stop();
  });

  it('Retry-After is honoured up to its cap', async () => {
    const p = pool({ pause: { baseMs: 10, maxMs: 20, maxRetryAfterMs: 300 } });
    expect(p.pauseFor429(999_999_000)).toBe(300);
    await p.stop();
  });

  it('a call still queued at its deadline fails unsent, and its job never sends later', async () => {
    const p = pool({ spec: { limit: 2, windowMs: 600 }, deadlineMs: 100 });
    const sent: number[] = [];
    await p.schedule(PRIORITY.read, 1, send(sent));
    const started = performance.now();
    const err = await failure(p.schedule(PRIORITY.read, 1, send(sent)));
    expect(performance.now() - started).toBeLessThan(500);
    expect((err as TransientError).context).toMatchObject({ pool: 'orders', reason: 'deadline' });
    // The abandoned job leaves the queue when the bucket refills, and sends nothing.
    await eventually(() => p.status().queued === 0, 'p.status().queued === 0');
    await new Promise((r) => setTimeout(r, 20));
    expect(sent).toHaveLength(1);
    await p.stop();
  });

  it('stop fails queued calls and refuses new ones', async () => {
    const p = pool({ spec: { limit: 2, windowMs: 5000 } });
    await p.schedule(PRIORITY.read, 1, send([]));
    const queued = p.schedule(PRIORITY.read, 1, send([]));
    await eventually(() => p.status().queued === 1, 'p.status().queued === 1');
    await p.stop();
    expect((await failure(queued)).message).toContain('closed');
    expect((await failure(p.schedule(PRIORITY.read, 1, send([])))).message).toContain('closed');
  });
});
