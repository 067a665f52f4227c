/**
 * Delivery on a ManualClock: retries after the backoff (or the receiver's retry_after), a
 * permanent refusal is not retried, the last attempt's failure is counted, a hanging receiver
 * times out on the clock, `push` returns at once while a delivery hangs, overflow drops by
 * priority with one log line, and a stop loses (and counts) what is still queued.
 */
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { seededRandom } from '../../../src/notify/backoff.js';
import { Channel, type DeliveryPolicy } from '../../../src/notify/channel.js';
import { alertEvent, fillEvent, notifyMetrics, recordingLogger, refusalEvent, ScriptedSink } from '../../support/notify-fixtures.js';
import { eventually } from '../../support/eventually.js';

const policy: Partial<DeliveryPolicy> = { baseMs: 1_000, maxMs: 60_000, maxAttempts: 4, timeoutMs: 5_000, capacity: 3 };

function setup(p: Partial<DeliveryPolicy> = policy) {
  const clock = new ManualClock(1_700_000_000_000);
  const sink = new ScriptedSink(() => clock.now());
  const m = notifyMetrics();
  const log = recordingLogger();
  const channel = new Channel({ sink, clock, logger: log.logger, metrics: m.metrics, random: () => 0, policy: p });
  return { clock, sink, channel, m, log };
}

const fail = (error = 'HTTP 503') => ({ ok: false as const, retry: true, error });

/** The channel counts a retry right before it starts the backoff timer: only then may the clock move. */
async function backingOff(m: ReturnType<typeof notifyMetrics>, n: number): Promise<void> {
  await eventually(async () => (await m.value('bot_notifications_retries_total', { sink: 'scripted' })) >= n, `retry ${n} scheduled`);
}

describe('Channel', () => {
  it('retries a failure after the exponential backoff and delivers', async () => {
    const { clock, sink, channel, m } = setup();
    sink.then(fail(), fail());
    const t0 = clock.now();
    channel.push(fillEvent());
    await backingOff(m, 1);
    // random() = 0: delays are exactly step/2 = 500 ms, then 1000 ms.
    await clock.advanceAsync(499, 1);
    expect(sink.attempts.length).toBe(1);
    await clock.advanceAsync(1, 1);
    await eventually(() => sink.attempts.length === 2, 'second attempt');
    await backingOff(m, 2);
    await clock.advanceAsync(1_000, 10);
    await eventually(() => sink.attempts.length === 3, 'third attempt');
    expect(sink.attempts.map((a) => a.atMs - t0)).toEqual([0, 500, 1_500]);
    await eventually(async () => (await m.value('bot_notifications_sent_total', { sink: 'scripted' })) === 1, 'sent counted');
    expect(await m.value('bot_notifications_retries_total', { sink: 'scripted' })).toBe(2);
  });

  it('waits the receiver’s retry_after when it is longer than the backoff', async () => {
    const { clock, sink, channel, m } = setup();
    sink.then({ ok: false, retry: true, retryAfterMs: 7_000, error: 'HTTP 429' });
    const t0 = clock.now();
    channel.push(fillEvent());
    await backingOff(m, 1);
    await clock.advanceAsync(6_999, 100);
    expect(sink.attempts.length).toBe(1);
    await clock.advanceAsync(1, 1);
    await eventually(() => sink.attempts.length === 2, 'retry after 7 s');
    expect((sink.attempts[1]?.atMs ?? 0) - t0).toBe(7_000);
  });

  it('does not retry a permanent refusal; the next event goes out', async () => {
    const { sink, channel, m, log } = setup();
    sink.then({ ok: false, retry: false, error: 'HTTP 400: Bad Request: chat not found' });
    channel.push(alertEvent(1));
    channel.push(alertEvent(2));
    await eventually(() => sink.attempts.length === 2, 'both events tried once');
    expect(sink.attempts.map((a) => (a.event.type === 'alert' ? a.event.subject : ''))).toEqual(['o-1', 'o-2']);
    await eventually(async () => (await m.value('bot_notifications_dropped_total', { sink: 'scripted', reason: 'failed' })) === 1, 'failure counted');
    expect(log.lines.join('')).toContain('chat not found');
  });

  it('gives up after maxAttempts and counts the loss', async () => {
    const { clock, sink, channel, m } = setup();
    sink.then(fail(), fail(), fail(), fail(), fail());
    channel.push(fillEvent());
    for (let n = 1; n <= 3; n++) {
      await backingOff(m, n);
      await clock.advanceAsync(10_000, 100);
    }
    await eventually(async () => (await m.value('bot_notifications_dropped_total', { sink: 'scripted', reason: 'failed' })) === 1, 'loss counted');
    expect(sink.attempts.length).toBe(4);
  });

  it('times out a receiver that never answers, on the clock, and retries', async () => {
    const { clock, sink, channel, m } = setup();
    sink.then('hang');
    const t0 = clock.now();
    channel.push(fillEvent());
    await eventually(() => sink.attempts.length === 1, 'first attempt');
    await clock.advanceAsync(4_999, 100);
    expect(sink.attempts.length).toBe(1);
    await clock.advanceAsync(1 + 500, 1);
    await eventually(() => sink.attempts.length === 2, 'retry after the timeout and the backoff');
    expect((sink.attempts[1]?.atMs ?? 0) - t0).toBe(5_500);
    await eventually(async () => (await m.value('bot_notifications_sent_total', { sink: 'scripted' })) === 1, 'delivered');
  });

  it('push returns at once while a delivery hangs; a thrown error is logged without its message', async () => {
    const { sink, channel, log } = setup();
    sink.then('throw', 'hang');
    channel.push(fillEvent());
    const started = performance.now();
    for (let i = 0; i < 100; i++) channel.push(fillEvent());
    // 100 pushes against a receiver that throws then hangs: no await, no wait on the receiver.
    expect(channel.queued).toBeLessThanOrEqual(3);
    expect(performance.now() - started).toBeLessThan(1_000);
    await eventually(() => log.lines.some((l) => l.includes('retrying')), 'retry logged');
    const text = log.lines.join('');
    expect(text).toContain('TypeError');
    expect(text).not.toContain('SECRET');
    expect(text).not.toContain('secret-host');
  });

  it('drops by priority when full, counts each drop, and logs one line per overflow', async () => {
    const { sink, channel, m, log } = setup();
    sink.then('hang');
    channel.push(alertEvent(0)); // in flight
    await eventually(() => sink.attempts.length === 1, 'in flight');
    channel.push(refusalEvent(1));
    channel.push(alertEvent(1));
    channel.push(refusalEvent(2));
    channel.push(fillEvent()); // drops refusal 1
    channel.push(alertEvent(2)); // drops refusal 2
    channel.push(refusalEvent(3)); // dropped itself
    expect(channel.queued).toBe(3);
    expect(await m.value('bot_notifications_dropped_total', { sink: 'scripted', reason: 'queue_full' })).toBe(3);
    expect(log.lines.filter((l) => l.includes('notification queue full')).length).toBe(1);
    const lost = await channel.close(0);
    expect(lost).toBe(4);
    expect(await m.value('bot_notifications_dropped_total', { sink: 'scripted', reason: 'shutdown' })).toBe(4);
  });

  it('a stop waits for the queue up to the flush bound', async () => {
    const { clock, sink, channel } = setup();
    channel.push(fillEvent());
    channel.push(fillEvent());
    const closed = channel.close(2_000);
    await eventually(() => sink.attempts.length === 2, 'both delivered during the flush');
    await clock.advanceAsync(2_000, 100);
    expect(await closed).toBe(0);
  });

  it('an event pushed at any moment while the queue drains is delivered (no stale pump)', async () => {
    for (let depth = 0; depth < 12; depth++) {
      const { sink, channel, m } = setup();
      const origDelivered = m.metrics.delivered.bind(m.metrics);
      let pushed = false;
      // Right after the first delivery, push again `depth` microtasks later: one of these lands
      // between the drain's last (empty) shift and the end of the pump.
      m.metrics.delivered = (name: string): void => {
        origDelivered(name);
        if (pushed) return;
        pushed = true;
        const later = (n: number): void => (n === 0 ? channel.push(alertEvent(2)) : queueMicrotask(() => later(n - 1)));
        later(depth);
      };
      channel.push(alertEvent(1));
      await eventually(() => sink.attempts.length === 2, `the second event (push ${depth} microtasks after the first delivery)`, { timeoutMs: 1_000 });
    }
  });

  it('deterministic jitter: the same seed gives the same retry times', async () => {
    const times = async (seed: number): Promise<number[]> => {
      const clock = new ManualClock(0);
      const sink = new ScriptedSink(() => clock.now()).then(fail(), fail(), fail());
      const m = notifyMetrics();
      const channel = new Channel({ sink, clock, logger: recordingLogger().logger, metrics: m.metrics, random: seededRandom(seed), policy });
      channel.push(fillEvent());
      for (let n = 1; n <= 3; n++) {
        await backingOff(m, n);
        await clock.advanceAsync(10_000, 50);
      }
      await eventually(() => sink.attempts.length === 4, 'delivered on the fourth attempt');
      return sink.attempts.map((a) => a.atMs);
    };
    const a = await times(7);
    expect(await times(7)).toEqual(a);
    expect(a[1]).toBeGreaterThanOrEqual(500);
    expect(a[1]).toBeLessThan(1_000);
  });
});
