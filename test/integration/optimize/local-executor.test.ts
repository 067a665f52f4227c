/**
 * The local executor (src/optimize/local-executor.ts): trials in reusable runner processes. Two
 * slots give the same outcomes as one (compared by trial key: order does not matter); a runner
 * killed mid-trial fails that trial, with why, and the rest of the study still runs; an abort
 * stops the runners and nothing is reported after it.
 */
import { describe, expect, it } from 'vitest';
import { LocalExecutor, type ExecutorEnd } from '../../../src/optimize/local-executor.js';
import type { StudyInputs, TrialSpec } from '../../../src/optimize/types.js';
import { closeAfterTest } from '../../support/test-scope.js';
import { eventually } from '../../support/eventually.js';
import { comparable, gridTrials, studyInputs } from './study-fixture.js';

async function runAll(executor: LocalExecutor, inputs: StudyInputs, trials: readonly TrialSpec[]): Promise<ExecutorEnd[]> {
  const ends: ExecutorEnd[] = [];
  await executor.run(inputs, trials, (end) => ends.push(end), new AbortController().signal);
  return ends;
}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('LocalExecutor', () => {
  it('gives the same outcomes on two slots as on one', async () => {
    const inputs = studyInputs(1);
    const trials = gridTrials(inputs, 4);
    const one = await runAll(closeAfterTest(new LocalExecutor({ workers: 1 })), inputs, trials);
    const two = await runAll(closeAfterTest(new LocalExecutor({ workers: 2 })), inputs, trials);
    expect(one.every((e) => e.ok)).toBe(true);
    expect(new Set(two.flatMap((e) => (e.ok ? [e.outcome.ranBy] : [])))).toEqual(new Set(['local:0', 'local:1']));
    expect(comparable(two)).toEqual(comparable(one));
    expect(comparable(one).size).toBe(trials.length);
  }, 240_000);

  it('fails the trial of a runner killed mid-trial and runs the others on a fresh runner', async () => {
    const inputs = studyInputs(1);
    const trials = gridTrials(inputs, 3);
    const executor = closeAfterTest(new LocalExecutor({ workers: 1 }));
    const ends: ExecutorEnd[] = [];
    const done = executor.run(inputs, trials, (end) => ends.push(end), new AbortController().signal);
    const [pid] = await eventually(() => executor.busyPids().length > 0 && executor.busyPids(), 'a runner busy with a trial', { timeoutMs: 30_000 });
    process.kill(pid as number, 'SIGKILL');
    await done;
    const failed = ends.filter((e) => !e.ok);
    expect(failed).toHaveLength(1);
    expect(failed[0]?.ok === false && failed[0].failure.error).toMatch(/^the trial runner \(pid \d+\) exited \(signal SIGKILL\) while running the trial/);
    expect(failed[0]?.ok === false && failed[0].failure.key).toBe(trials[0]?.key);
    expect(ends.filter((e) => e.ok).map((e) => e.ok && e.outcome.key)).toEqual([trials[1]?.key, trials[2]?.key]);
  }, 240_000);

  it('stops its runners on abort and reports nothing after it', async () => {
    const inputs = studyInputs(1);
    const executor = closeAfterTest(new LocalExecutor({ workers: 2 }));
    const ends: ExecutorEnd[] = [];
    const abort = new AbortController();
    const done = executor.run(inputs, gridTrials(inputs, 4), (end) => ends.push(end), abort.signal);
    const pids = await eventually(() => executor.busyPids().length === 2 && executor.busyPids(), 'both runners busy', { timeoutMs: 30_000 });
    abort.abort();
    await done;
    const reported = ends.length;
    expect(pids.some(alive)).toBe(false);
    expect(executor.busyPids()).toEqual([]);
    expect(reported).toBeLessThan(4);
    expect(ends).toHaveLength(reported);
  }, 240_000);
});
