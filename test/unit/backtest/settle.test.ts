import { describe, expect, it } from 'vitest';
import { settler } from '../../../src/backtest/run.js';
import type { BacktestVenue } from '../../../src/backtest/sim-venue.js';
import { VirtualClock } from '../../../src/backtest/virtual-clock.js';

/** A venue with nothing in flight: the settler only asks it for its request counts. */
const quietVenue = { inFlight: () => 0, received: () => 0 } as unknown as BacktestVenue;

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

describe('the run loop settling a job', () => {
  it('takes one event-loop turn for work that ends on promise continuations alone', async () => {
    const settle = settler(new VirtualClock(0), quietVenue, { timerJumps: 0 });
    const counter = turnCounter();
    const work = Promise.resolve().then(() => Promise.resolve(7));
    await expect(settle.drive(work)).resolves.toBe(7);
    counter.stop();
    expect(counter.turns()).toBe(1);
  });

  it('still waits for work that needs a later turn, and hands on its failure', async () => {
    const settle = settler(new VirtualClock(0), quietVenue, { timerJumps: 0 });
    const late = new Promise<never>((_, reject) => setImmediate(() => setImmediate(() => reject(new Error('late')))));
    await expect(settle.drive(late)).rejects.toThrow('late');
  });
});
