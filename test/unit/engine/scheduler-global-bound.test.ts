/**
 * The scheduler without its global bound (Scheduler.withoutGlobalBound), where the bound can hold
 * nothing back (src/backtest/run.ts `globalBoundIdle`): the same lanes' work in the same order.
 */
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { Prng } from '../../../src/simulator/prng.js';
import { Scheduler } from '../../../src/engine/scheduler.js';
import { globalBoundIdle } from '../../../src/backtest/run.js';

const flush = (): Promise<void> => new Promise((r) => setImmediate(r));

interface Trace {
  log: string[];
  outcomes: string[];
}

/**
 * Random triggers and enqueues over `lanes` lanes (work that waits until the test releases it),
 * releases and event-loop turns, played on one scheduler: what started and ended, in order, and
 * each fire's outcome.
 */
async function play(seed: number, lanes: number, maxConcurrent: number, withoutBound: boolean): Promise<Trace> {
  const rng = new Prng(seed);
  const s = new Scheduler({ clock: new ManualClock(), maxConcurrent });
  if (withoutBound) s.withoutGlobalBound();
  const log: string[] = [];
  const outcomes: string[] = [];
  const waiting = new Map<string, () => void>();
  let n = 0;
  const work = (label: string) => async (): Promise<void> => {
    log.push(`start ${label}`);
    await new Promise<void>((r) => waiting.set(label, r));
    log.push(`end ${label}`);
  };
  for (let l = 0; l < lanes; l++) s.add({ name: `lane${l}`, cron: '* * * * * *', run: work(`tick${l}`) });
  const fired: Promise<void>[] = [];
  for (let step = 0; step < 120; step++) {
    const r = rng.next();
    const lane = `lane${Math.floor(rng.next() * lanes)}`;
    if (r < 0.3) fired.push(s.trigger(lane).then((o) => void outcomes.push(`${lane} ${o}`)));
    else if (r < 0.5) {
      const label = `job${n++}`;
      fired.push(s.enqueue(lane, label, work(label)).then((o) => void outcomes.push(`${label} ${o}`)));
    } else if (r < 0.85 && waiting.size > 0) {
      const labels = [...waiting.keys()];
      const label = labels[Math.floor(rng.next() * labels.length)] as string;
      const release = waiting.get(label) as () => void;
      waiting.delete(label);
      release();
    }
    await flush();
  }
  while (waiting.size > 0) {
    for (const [label, release] of [...waiting]) {
      waiting.delete(label);
      release();
    }
    await flush();
  }
  await Promise.all(fired);
  return { log, outcomes };
}

describe('the global bound skipped where it holds nothing back', () => {
  it('lanes run the same work in the same order without it while no more lanes than the bound are busy', async () => {
    for (let seed = 1; seed <= 30; seed++) {
      const lanes = 1 + (seed % 4);
      const kept = await play(seed, lanes, lanes, false);
      const skipped = await play(seed, lanes, lanes, true);
      expect(skipped).toEqual(kept);
      expect(kept.log.length).toBeGreaterThan(20);
    }
  });

  it('with more lanes busy than the bound, the bound holds work back: the run keeps it then', async () => {
    const kept = await play(7, 4, 1, false);
    const skipped = await play(7, 4, 1, true);
    expect(skipped.log).not.toEqual(kept.log);
    expect(globalBoundIdle(4, 3)).toBe(true);
    expect(globalBoundIdle(4, 4)).toBe(false);
    expect(globalBoundIdle(1, 0)).toBe(true);
  });

});
