/**
 * The run loop's settling of a job fire (src/backtest/settle.ts): no event-loop turn when the work
 * ended on promise continuations alone and nothing a reply or a timer could move is pending; what
 * the job queued on a lane (a fill's onFill, an order event) still runs before the next job; real
 * turns as soon as something waits on a reply (the wire path) or a worker thread.
 */
import { describe, expect, it } from 'vitest';
import { settler } from '../../../src/backtest/run.js';
import type { Wired } from '../../../src/backtest/engine-wiring.js';
import type { BacktestVenue } from '../../../src/backtest/sim-venue.js';
import { VirtualClock } from '../../../src/backtest/virtual-clock.js';
import { Scheduler } from '../../../src/engine/scheduler.js';

/** A venue whose unanswered requests the test sets: the settler only asks it for its request counts. */
function venueOf(): BacktestVenue & { pending: number } {
  const v = { pending: 0, inFlight: () => v.pending, received: () => 0 };
  return v as unknown as BacktestVenue & { pending: number };
}

/** Counts event-loop turns until `stop` is called. */
function turnCounter(): { turns: () => number; stop: () => void } {
  let turns = 0;
  let stopped = false;
  const tick = (): void => {
    if (stopped) return;
    turns++;
    setImmediate(tick);
  };
  setImmediate(tick);
  return { turns: () => turns, stop: () => (stopped = true) };
}

/** `hops` promise continuations, then `fn`: work a job leaves behind without awaiting it. */
function later(hops: number, fn: () => void): void {
  let p = Promise.resolve();
  for (let i = 0; i < hops; i++) p = p.then(() => undefined);
  void p.then(fn);
}

/**
 * A scheduler as the engine's, wired to a settler: `reconcile` finds a fill and queues its onFill
 * on the strategy's lane at once (src/daemon/runners.ts), and an order's final state from a
 * continuation (src/daemon/order-events.ts), with `fillWaits` choosing how the onFill ends.
 */
function engine(venue = venueOf(), fillWaits: 'continuations' | 'turn' = 'continuations') {
  const clock = new VirtualClock(0);
  const scheduler = new Scheduler({ clock, maxConcurrent: 4 });
  const log: string[] = [];
  const fill = async (): Promise<void> => {
    if (fillWaits === 'turn') await new Promise((r) => setImmediate(r));
    log.push('onFill');
  };
  scheduler.add({
    name: 'reconcile',
    run: async () => {
      await Promise.resolve();
      log.push('reconcile');
      void scheduler.enqueue('strategy:g', 'fill:g', fill);
      later(5, () => void scheduler.enqueue('strategy:g', 'order:g', async () => void log.push('onOrder')));
    },
  });
  scheduler.add({ name: 'equity', run: async () => void log.push('equity') });
  const wired = { scheduler, link: { queued: () => 0 } } as unknown as Wired;
  const settle = settler(clock, venue, { wired, timerJumps: 0 });
  const fire = async (name: string): Promise<void> => void (await settle.drive(scheduler.trigger(name)));
  return { scheduler, settle, log, fire };
}

describe('the run loop settling a job', () => {
  it('takes no event-loop turn for work that ends on promise continuations alone', async () => {
    const settle = settler(new VirtualClock(0), venueOf(), { timerJumps: 0 });
    const counter = turnCounter();
    const work = Promise.resolve().then(() => Promise.resolve(7));
    await expect(settle.drive(work)).resolves.toBe(7);
    counter.stop();
    expect(counter.turns()).toBe(0);
  });

  it('hands on the failure of work that fails on continuations alone, still without a turn', async () => {
    const settle = settler(new VirtualClock(0), venueOf(), { timerJumps: 0 });
    const counter = turnCounter();
    const work = Promise.resolve().then(() => Promise.reject(new Error('early')));
    await expect(settle.drive(work)).rejects.toThrow('early');
    counter.stop();
    expect(counter.turns()).toBe(0);
  });

  it('runs what a job queued (onFill at once, an order event from a continuation) before the next job, without a turn', async () => {
    const e = engine();
    const counter = turnCounter();
    await e.fire('reconcile');
    expect(e.scheduler.inFlight).toBe(0);
    await e.fire('equity');
    counter.stop();
    expect(e.log).toEqual(['reconcile', 'onFill', 'onOrder', 'equity']);
    expect(counter.turns()).toBe(0);
  });

  it('the same fires give the same order of work every time', async () => {
    const orderOf = async (): Promise<string[]> => {
      const e = engine();
      for (const name of ['reconcile', 'equity', 'reconcile', 'equity']) await e.fire(name);
      return e.log;
    };
    const first = await orderOf();
    expect(first).toEqual(['reconcile', 'onFill', 'onOrder', 'equity', 'reconcile', 'onFill', 'onOrder', 'equity']);
    expect(await orderOf()).toEqual(first);
  });

  it('an onFill that waits on a later turn (a hook in a worker thread) still ends before the next job', async () => {
    const e = engine(venueOf(), 'turn');
    await e.fire('reconcile');
    expect(e.scheduler.inFlight).toBe(0);
    await e.fire('equity');
    expect(e.log).toEqual(['reconcile', 'onFill', 'onOrder', 'equity']);
  });

  it('waits real turns while a request is unanswered (the wire path): what its reply queues runs before the next job', async () => {
    const venue = venueOf();
    const e = engine(venue);
    const counter = turnCounter();
    venue.pending = 1;
    // The reply arrives on the next turn and queues work on a lane, after the job itself ended.
    setImmediate(() => {
      venue.pending = 0;
      void e.scheduler.enqueue('strategy:g', 'reply', async () => void e.log.push('reply'));
    });
    await e.fire('equity');
    counter.stop();
    expect(e.log).toEqual(['equity', 'reply']);
    expect(counter.turns()).toBeGreaterThanOrEqual(1);
  });

  it('still waits for work that needs a later turn, and hands on its failure', async () => {
    const settle = settler(new VirtualClock(0), venueOf(), { timerJumps: 0 });
    const late = new Promise<never>((_, reject) => setImmediate(() => setImmediate(() => reject(new Error('late')))));
    await expect(settle.drive(late)).rejects.toThrow('late');
  });
});
