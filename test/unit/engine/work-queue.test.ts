import { describe, expect, it } from 'vitest';
import { WorkQueue } from '../../../src/engine/work-queue.js';

function deferred<T = void>(): { promise: Promise<T>; resolve: (v: T) => void; reject: (e: unknown) => void } {
  let resolve: (v: T) => void = () => undefined;
  let reject: (e: unknown) => void = () => undefined;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

const flush = (): Promise<void> => new Promise((r) => setImmediate(r));

describe('WorkQueue', () => {
  it('runs at most `limit` items at once, the others in the order they came', async () => {
    const q = new WorkQueue(2);
    const gates = [deferred(), deferred(), deferred(), deferred()];
    const started: number[] = [];
    const done = gates.map((g, i) =>
      q.add(async () => {
        started.push(i);
        await g.promise;
        return i * 10;
      }),
    );
    await flush();
    expect(started).toEqual([0, 1]);
    expect([q.pending, q.size]).toEqual([2, 2]);
    gates[1]?.resolve();
    await flush();
    expect(started).toEqual([0, 1, 2]);
    expect([q.pending, q.size]).toEqual([2, 1]);
    for (const g of gates) g.resolve();
    expect(await Promise.all(done)).toEqual([0, 10, 20, 30]);
    expect(started).toEqual([0, 1, 2, 3]);
    expect([q.pending, q.size]).toEqual([0, 0]);
  });

  it('starts an item at once when a slot is free and nothing waits (the caller sees it running)', () => {
    const q = new WorkQueue(1);
    let ran = false;
    void q.add(async () => void (ran = true));
    expect(ran).toBe(true);
    expect(q.pending).toBe(1);
  });

  it('a failing item rejects its own promise only and frees its slot', async () => {
    const q = new WorkQueue(1);
    const first = q.add(async () => {
      throw new Error('boom');
    });
    const second = q.add(async () => 'next');
    await expect(first).rejects.toThrow('boom');
    await expect(second).resolves.toBe('next');
    expect([q.pending, q.size]).toEqual([0, 0]);
  });

  it('an item that throws before its first await is a rejection too', async () => {
    const q = new WorkQueue(1);
    const bad = (): Promise<void> => {
      throw new Error('sync');
    };
    await expect(q.add(bad)).rejects.toThrow('sync');
    await expect(q.add(async () => 1)).resolves.toBe(1);
  });

  it('onIdle resolves once nothing runs or waits, at once when idle', async () => {
    const q = new WorkQueue(1);
    await q.onIdle();
    const g = deferred();
    void q.add(() => g.promise);
    void q.add(async () => undefined);
    let idle = false;
    void q.onIdle().then(() => (idle = true));
    await flush();
    expect(idle).toBe(false);
    g.resolve();
    await flush();
    expect(idle).toBe(true);
  });

  it('refuses a limit below one', () => {
    expect(() => new WorkQueue(0)).toThrow(RangeError);
    expect(() => new WorkQueue(1.5)).toThrow(RangeError);
  });
});
