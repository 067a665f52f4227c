import { describe, expect, it } from 'vitest';
import { RunBound } from '../../../src/engine/run-bound.js';

function deferred(): { promise: Promise<void>; resolve: () => void; reject: (e: Error) => void } {
  let resolve = (): void => {};
  let reject = (_e: Error): void => {};
  const promise = new Promise<void>((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
}

describe('RunBound (the scheduler global bound)', () => {
  it('starts work at once, synchronously, while a slot is free', () => {
    const bound = new RunBound(2);
    const started: string[] = [];
    void bound.run(async () => void started.push('a'));
    void bound.run(async () => void started.push('b'));
    expect(started).toEqual(['a', 'b']);
  });

  it('never runs more than its limit; waiting work starts in the order it came, as slots free', async () => {
    const bound = new RunBound(2);
    const gates = [deferred(), deferred(), deferred(), deferred()];
    const started: number[] = [];
    let peak = 0;
    const runs = gates.map((g, i) =>
      bound.run(async () => {
        started.push(i);
        peak = Math.max(peak, bound.active);
        await g.promise;
        return i;
      }),
    );
    expect(started).toEqual([0, 1]);
    expect(bound.queued).toBe(2);
    gates[1]?.resolve();
    await runs[1];
    await Promise.resolve();
    expect(started).toEqual([0, 1, 2]);
    gates[0]?.reject(new Error('x'));
    await expect(runs[0]).rejects.toThrow('x');
    await Promise.resolve();
    expect(started).toEqual([0, 1, 2, 3]);
    gates[2]?.resolve();
    gates[3]?.resolve();
    expect(await Promise.all(runs.slice(2))).toEqual([2, 3]);
    expect(peak).toBe(2);
    expect([bound.active, bound.queued]).toEqual([0, 0]);
  });

  it('refuses a limit below one', () => {
    expect(() => new RunBound(0)).toThrow(RangeError);
  });
});
