/**
 * The shared compile worker (src/strategy-api/sandbox/compile-worker.ts): modules asked for
 * together are compiled in one worker, each as a worker of its own compiles it; a module past its
 * deadline ends that worker and the next module is compiled in a new one.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ManualClock, SystemClock } from '../../../src/core/clock.js';
import { CompileWorker } from '../../../src/strategy-api/sandbox/compile-worker.js';
import { compileStrategy } from '../../../src/strategy-api/sandbox/transform.js';

const MODULES = ['spot-grid', 'collateral-signal', 'treasury'].map((m) => path.resolve('strategies', `${m}.ts`));

describe('CompileWorker', () => {
  it('compiles modules asked for together in one worker, each as compiled alone', async () => {
    const worker = new CompileWorker(512);
    const clock = new SystemClock();
    const outs = await Promise.all(MODULES.map((file) => worker.compile(file, 60_000, clock)));
    expect(worker.started).toBe(1);
    outs.forEach((out, i) => expect(out).toEqual({ type: 'message', value: compileStrategy(MODULES[i] as string) }));
    // Asked for later, after the worker ended: a new one.
    const again = await worker.compile(MODULES[0] as string, 60_000, clock);
    expect(again).toEqual(outs[0]);
    expect(worker.started).toBe(2);
  });

  it('ends a worker whose module passed its deadline, and compiles the next module in a new one', async () => {
    const worker = new CompileWorker(512);
    const clock = new ManualClock();
    const first = worker.compile(MODULES[0] as string, 1000, clock);
    const second = worker.compile(MODULES[1] as string, 1000, clock);
    // The first module's deadline passes before its worker could have answered.
    clock.advance(1000);
    expect(await first).toEqual({ type: 'deadline' });
    expect(await second).toEqual({ type: 'message', value: compileStrategy(MODULES[1] as string) });
    expect(worker.started).toBe(2);
  });
});
