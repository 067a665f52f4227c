/**
 * The fast path of a local pool (src/exchange/rate-limits/fast-path.ts) on real, short windows:
 * tokens are taken at the claim, so a call that waited (for the strict send lane) after the
 * bucket ran dry sends nothing then and goes through Bottleneck's queue, exactly once; no call
 * takes the fast path while a job waits in Bottleneck; the calls waiting before their claim are
 * bounded; a fast call is held to its deadline while it waits.
 */
import Bottleneck from 'bottleneck';
import { describe, expect, it } from 'vitest';
import { SystemClock } from '../../../src/core/clock.js';
import type { TransientError } from '../../../src/core/errors.js';
import { PRIORITY, type PoolSpec } from '../../../src/exchange/rate-limits/pools.js';
import { planBucket } from '../../../src/exchange/rate-limits/bucket.js';
import { FastPath } from '../../../src/exchange/rate-limits/fast-path.js';
import { PoolLimiter } from '../../../src/exchange/rate-limits/pool-limiter.js';
import type { JobTicket } from '../../../src/exchange/rate-limits/ticket.js';
import { maxInWindow } from '../../support/counting-proxy.js';
import { eventually } from '../../support/eventually.js';
import { failure } from '../../support/fixture-client.js';

function pool(spec: PoolSpec, deadlineMs = 10_000): PoolLimiter {
  return new PoolLimiter({
    name: 'orders',
    spec,
    plan: planBucket(spec, { slack: 0, minCapacity: 1 }),
    clock: new SystemClock(),
    maxQueued: 1000,
    deadlineMs,
    pause: { baseMs: 100, maxMs: 1000, maxRetryAfterMs: 1000 },
    random: () => 0.5,
  });
}

const send = (log: number[]) => async (ticket: JobTicket): Promise<void> => {
  ticket.claim();
  log.push(performance.now());
};

/** A job that waits for `gate` (as for the send lane) before it claims; counts its starts. */
function gated(gate: Promise<void>, log: number[], starts: { n: number }) {
  return async (ticket: JobTicket): Promise<string> => {
    starts.n += 1;
    await gate;
    ticket.claim();
    log.push(performance.now());
    return 'sent';
  };
}

describe('PoolLimiter fast path', () => {
  it('a call that finds the bucket dry at its claim sends nothing then, queues, and is sent once within the budget', async () => {
    const spec = { limit: 6, windowMs: 400, safetyMargin: 1 };
    const p = pool(spec);
    const sent: number[] = [];
    let open!: () => void;
    const gate = new Promise<void>((r) => {
      open = r;
    });
    const starts = { n: 0 };
    const waiting = p.schedule(PRIORITY.placement, 1, gated(gate, sent, starts));
    expect(starts.n).toBe(1); // started at once: the bucket had tokens
    // Others drain the bucket meanwhile (fast) and then queue in Bottleneck.
    const others = Array.from({ length: 10 }, () => p.schedule(PRIORITY.read, 1, send(sent)));
    await eventually(() => p.status().queued > 0, 'calls queued in Bottleneck');
    open();
    expect(await waiting).toBe('sent');
    await Promise.all(others);
    expect(starts.n).toBe(2); // once on the fast path, once granted by Bottleneck
    expect(sent).toHaveLength(11);
    expect(maxInWindow(sent, spec.windowMs)).toBeLessThanOrEqual(p.budget);
    await p.stop();
  });

  it('no call takes the fast path while a job waits in Bottleneck, even when the bucket would cover it', async () => {
    const limiter = new Bottleneck({ reservoir: 5 });
    const fast = FastPath.of(limiter)!;
    expect(fast.open(1)).toBe(true);
    // A job heavier than the bucket waits in Bottleneck's queue.
    const heavy = limiter.schedule({ weight: 10 }, async () => 'heavy');
    heavy.catch(() => undefined);
    await eventually(() => limiter.counts().QUEUED === 1, 'the heavy job queued');
    expect(fast.open(1)).toBe(false);
    expect(fast.take(1)).toBe(false);
    expect(await limiter.currentReservoir()).toBe(5);
    await limiter.stop({ dropWaitingJobs: true });
    expect(fast.take(1)).toBe(true);
    expect(await limiter.currentReservoir()).toBe(4);
  });

  it('at most 16 fast calls wait before their claim; the rest go through Bottleneck (bounded, by priority)', async () => {
    const p = pool({ limit: 100, windowMs: 1000, safetyMargin: 1 });
    const sent: number[] = [];
    let open!: () => void;
    const gate = new Promise<void>((r) => {
      open = r;
    });
    const starts = { n: 0 };
    const calls = Array.from({ length: 20 }, () => p.schedule(PRIORITY.read, 1, gated(gate, sent, starts)));
    expect(starts.n).toBe(16); // started at once; the other four were handed to Bottleneck
    await eventually(() => starts.n === 20, 'Bottleneck granted the other four');
    open();
    await Promise.all(calls);
    expect(sent).toHaveLength(20);
    await p.stop();
  });

  it('a fast call waiting before its claim is held to the deadline, and never sends later', async () => {
    const p = pool({ limit: 10, windowMs: 1000, safetyMargin: 1 }, 50);
    const sent: number[] = [];
    let open!: () => void;
    const gate = new Promise<void>((r) => {
      open = r;
    });
    const err = await failure(p.schedule(PRIORITY.read, 1, gated(gate, sent, { n: 0 })));
    expect((err as TransientError).context).toMatchObject({ pool: 'orders', reason: 'deadline' });
    open();
    await p.stop();
    expect(sent).toHaveLength(0);
  });
});
