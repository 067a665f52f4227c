import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { Scheduler } from '../../../src/engine/scheduler.js';

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve = (): void => {};
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

const flush = (): Promise<void> => new Promise((r) => setImmediate(r));

describe('Scheduler', () => {
  it('runs a job and records its last run on the clock', async () => {
    const clock = new ManualClock(1_000);
    const s = new Scheduler({ clock, maxConcurrent: 2 });
    let runs = 0;
    s.add({ name: 'a', cron: '* * * * * *', run: async () => void runs++ });
    expect(await s.trigger('a')).toBe('ran');
    expect(runs).toBe(1);
    expect(s.lastRun('a')).toEqual({ startedMs: 1_000, endedMs: 1_000, outcome: 'ran' });
  });

  it('a run a pause held back reads as paused, and the last real run keeps its time', async () => {
    const clock = new ManualClock(1_000);
    const s = new Scheduler({ clock, maxConcurrent: 2 });
    let paused = false;
    const outcomes: string[] = [];
    const events = { onRun: (_job: string, outcome: string) => void outcomes.push(outcome) };
    const t = new Scheduler({ clock, maxConcurrent: 2, events });
    for (const sch of [s, t]) sch.add({ name: 'strategy:g', cron: '* * * * * *', run: async () => (paused ? 'paused' : undefined) });
    expect(await t.trigger('strategy:g')).toBe('ran');
    clock.advance(5_000);
    paused = true;
    expect(await t.trigger('strategy:g')).toBe('paused');
    expect(t.report()).toEqual({ 'strategy:g': { lastRunMs: 1_000, lastOutcome: 'paused', skipped: 0 } });
    expect(t.lastRun('strategy:g')).toMatchObject({ endedMs: 1_000, outcome: 'ran' });
    expect(await s.trigger('strategy:g')).toBe('paused');
    expect(s.report()['strategy:g']).toEqual({ lastRunMs: null, lastOutcome: 'paused', skipped: 0 });
    paused = false;
    clock.advance(1_000);
    expect(await t.trigger('strategy:g')).toBe('ran');
    expect(t.report()['strategy:g']).toEqual({ lastRunMs: 7_000, lastOutcome: 'ran', skipped: 0 });
    expect(outcomes).toEqual(['ran', 'paused', 'ran']);
  });

  it('skips and counts a tick while the previous one is still running', async () => {
    const s = new Scheduler({ clock: new ManualClock(), maxConcurrent: 2 });
    const gate = deferred();
    let runs = 0;
    s.add({ name: 'slow', cron: '* * * * * *', run: async () => { runs++; await gate.promise; } });
    const first = s.trigger('slow');
    await flush();
    expect(await s.trigger('slow')).toBe('skipped');
    expect(await s.trigger('slow')).toBe('skipped');
    gate.resolve();
    expect(await first).toBe('ran');
    expect(runs).toBe(1);
    expect(s.skipped('slow')).toBe(2);
    expect(await s.trigger('slow')).toBe('ran');
  });

  it('gives each lane its own no-overlap rule: a busy lane does not block another', async () => {
    const s = new Scheduler({ clock: new ManualClock(), maxConcurrent: 4 });
    const gate = deferred();
    s.add({ name: 'a', cron: '* * * * * *', run: () => gate.promise });
    s.add({ name: 'b', cron: '* * * * * *', run: async () => {} });
    const a = s.trigger('a');
    await flush();
    expect(await s.trigger('b')).toBe('ran');
    gate.resolve();
    await a;
  });

  it('serialises enqueued work with ticks on the same lane', async () => {
    const s = new Scheduler({ clock: new ManualClock(), maxConcurrent: 4 });
    const order: string[] = [];
    const gate = deferred();
    s.add({ name: 'strategy:x', cron: '* * * * * *', run: async () => { order.push('tick-start'); await gate.promise; order.push('tick-end'); } });
    const tick = s.trigger('strategy:x');
    await flush();
    const fill = s.enqueue('strategy:x', 'fill', async () => void order.push('fill'));
    await flush();
    expect(order).toEqual(['tick-start']);
    gate.resolve();
    await Promise.all([tick, fill]);
    expect(order).toEqual(['tick-start', 'tick-end', 'fill']);
  });

  it('bounds global concurrency', async () => {
    const s = new Scheduler({ clock: new ManualClock(), maxConcurrent: 1 });
    const gate = deferred();
    let bRan = false;
    s.add({ name: 'a', cron: '* * * * * *', run: () => gate.promise });
    s.add({ name: 'b', cron: '* * * * * *', run: async () => void (bRan = true) });
    const a = s.trigger('a');
    const b = s.trigger('b');
    await flush();
    expect(bRan).toBe(false);
    gate.resolve();
    await Promise.all([a, b]);
    expect(bRan).toBe(true);
  });

  it('catches failures, records the error code and reports them', async () => {
    const failures: string[] = [];
    const s = new Scheduler({ clock: new ManualClock(), maxConcurrent: 1, events: { onRun: (job, outcome) => outcome === 'failed' && failures.push(job) } });
    s.add({ name: 'bad', cron: '* * * * * *', run: async () => { throw new Error('x'); } });
    expect(await s.trigger('bad')).toBe('failed');
    expect(s.lastRun('bad')).toMatchObject({ outcome: 'failed', errorCode: 'UNEXPECTED' });
    expect(failures).toEqual(['bad']);
  });

  it('recording failures only: a run leaves no record or event, a failure is recorded and reported as before', async () => {
    const clock = new ManualClock(1_000);
    const events: string[] = [];
    const s = new Scheduler({ clock, maxConcurrent: 1, events: { onRun: (job, outcome) => void events.push(`${outcome} ${job}`) } });
    s.recordFailuresOnly();
    let fail = false;
    s.add({ name: 'job', cron: '* * * * * *', run: async () => { if (fail) throw new Error('x'); } });
    expect(await s.trigger('job')).toBe('ran');
    expect(s.lastRun('job')).toBeUndefined();
    expect(s.report()).toEqual({ job: { lastRunMs: null, lastOutcome: null, skipped: 0 } });
    fail = true;
    expect(await s.trigger('job')).toBe('failed');
    expect(s.lastRun('job')).toEqual({ startedMs: 1_000, endedMs: 1_000, outcome: 'failed', errorCode: 'UNEXPECTED' });
    expect(events).toEqual(['failed job']);
  });

  it('recording failures only: the same outcomes and failure reports as the full path, for a throw, a rejection, a pause and a fill', async () => {
    type Step = 'ok' | 'paused' | 'reject' | 'throw';
    const steps: Step[] = ['ok', 'throw', 'paused', 'reject', 'ok', 'paused', 'throw', 'reject'];
    const outcomesOf = async (failuresOnly: boolean) => {
      const clock = new ManualClock(1_000);
      const events: string[] = [];
      const s = new Scheduler({ clock, maxConcurrent: 1, events: { onRun: (job, outcome, startedMs, endedMs) => void events.push(`${outcome} ${job} ${startedMs}-${endedMs}`) } });
      if (failuresOnly) s.recordFailuresOnly();
      let step: Step = 'ok';
      // The run moves the clock: a failure's record keeps the time it started.
      const run = (): Promise<'paused' | void> => {
        clock.advance(5);
        if (step === 'throw') throw new Error('sync');
        return Promise.resolve().then(() => {
          clock.advance(5);
          if (step === 'reject') throw new Error('async');
          return step === 'paused' ? 'paused' : undefined;
        });
      };
      s.add({ name: 'job', cron: '* * * * * *', run });
      const out: unknown[] = [];
      for (const next of steps) {
        step = next;
        out.push(await s.trigger('job'));
        out.push(await s.enqueue('lane', 'fill', async () => void clock.advance(1)));
      }
      return { out, failures: events.filter((e) => e.startsWith('failed')) };
    };
    const full = await outcomesOf(false);
    const only = await outcomesOf(true);
    expect(only).toEqual(full);
    expect(only.failures).toEqual(['failed job 1011-1016', 'failed job 1028-1038', 'failed job 1061-1066', 'failed job 1067-1077']);
  });

  it('after stop, refuses new work; drain waits for in-flight work up to its bound', async () => {
    const clock = new ManualClock();
    const s = new Scheduler({ clock, maxConcurrent: 2 });
    const gate = deferred();
    s.add({ name: 'hang', cron: '* * * * * *', run: () => gate.promise });
    void s.trigger('hang');
    await flush();
    await s.stop();
    expect(await s.trigger('hang')).toBe('stopped');
    expect(await s.enqueue('hang', 'x', async () => {})).toBe('stopped');
    const draining = s.drain(5_000);
    await flush();
    clock.advance(5_000);
    expect(await draining).toBe(false);
    gate.resolve();
    await flush();
    expect(await s.drain(5_000)).toBe(true);
    expect(s.inFlight).toBe(0);
  });

  it('start creates cron tasks and stop removes them', async () => {
    const s = new Scheduler({ clock: new ManualClock(), maxConcurrent: 1 });
    s.add({ name: 'a', cron: '0 0 1 1 *', run: async () => {} });
    s.start();
    await s.stop();
    expect(s.jobNames).toEqual(['a']);
  });
});
