import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadObjective } from '../../../src/optimize/objective.js';
import { gridPoints } from '../../../src/optimize/search.js';
import { parseSpace } from '../../../src/optimize/space.js';
import { StudyMismatchError, StudyStore } from '../../../src/optimize/study-store.js';
import { runStudy, type StudyPlan } from '../../../src/optimize/study.js';
import type { StudyInputs, TrialExecutor, TrialSpec } from '../../../src/optimize/types.js';
import { Coordinator, ExecutorGapError } from '../../../src/optimize/coordinator.js';
import { trialSpecs } from '../../../src/optimize/trial-specs.js';
import { DAY_MS } from '../../../src/optimize/walk-forward.js';
import { tempDir } from '../../support/temp-dir.js';
import { FakeExecutor, pureTrial } from './fake-executor.js';

const INPUTS: StudyInputs = {
  configText: '{}', configSha256: 'c'.repeat(64), prices: 'prices', pricesSha256: 'p'.repeat(64), strategySha256: 's'.repeat(64), strategy: 'grid1', backtestFlags: [],
};
const SPACE = parseSpace(JSON.stringify({ strategy: 'grid1', params: { levels: { range: [1, 6], step: 1 }, spacingPct: { values: ['1', '2'] } } }));
const FROM = Date.UTC(2024, 0, 1);

async function plan(walkForward: StudyPlan['walkForward'] = null, space = SPACE): Promise<StudyPlan> {
  return { name: 'study', inputs: INPUTS, space, search: 'grid', points: gridPoints(space), seed: 7, objective: await loadObjective('net'), span: { fromMs: FROM, toMs: FROM + 30 * DAY_MS }, walkForward };
}

const identity = { inputs: 'x', seed: 7 };

function open(dir: string, id: Record<string, unknown> = identity): StudyStore {
  const store = StudyStore.open(path.join(dir, 'study.sqlite'), id);
  return store;
}

describe('a study over the whole span', () => {
  it('ranks every trial by the objective and picks the best, ties to the lower index', async () => {
    const store = open(tempDir('opt-study-'));
    const out = await runStudy(await plan(), { executor: new FakeExecutor(), store, signal: new AbortController().signal });
    store.close();
    if (out.aborted) throw new Error('aborted');
    expect(out.result.trials).toHaveLength(12);
    expect(out.result.trials.map((t) => t.index)).toEqual([...Array(12).keys()]);
    // net = levels × spacing − |levels − 4| × 15: levels 4 spacing 2 gives 8, the next best 4 × 1.
    expect(out.result.best?.params).toEqual({ levels: 4, spacingPct: '2' });
    expect(out.result.best?.objective).toBe('8');
    expect(out.result.walkForward).toBeNull();
    expect(out.result.flags).toEqual([]);
  });

  it('resumes after an abort: finished trials are kept and not run again, and the result equals an uninterrupted run', async () => {
    const dir = tempDir('opt-resume-');
    const abort = new AbortController();
    const first: FakeExecutor = new FakeExecutor({ slots: 1, before: (): void => (first.ran.length === 5 ? abort.abort() : undefined) });
    let store = open(dir);
    const cut = await runStudy(await plan(), { executor: first, store, signal: abort.signal });
    store.close();
    expect(cut).toEqual({ aborted: true, done: 5, total: 12 });
    store = open(dir);
    const second = new FakeExecutor();
    const resumed = await runStudy(await plan(), { executor: second, store, signal: new AbortController().signal });
    store.close();
    expect(second.ran).toHaveLength(7);
    expect(second.ran.filter((k) => first.ran.includes(k))).toEqual([]);
    const whole = open(tempDir('opt-whole-'));
    const uninterrupted = await runStudy(await plan(), { executor: new FakeExecutor(), store: whole, signal: new AbortController().signal });
    whole.close();
    expect(resumed).toEqual(uninterrupted);
  });

  it('records a failed trial with its error and does not run it again; --retry-failed forgets it', async () => {
    const dir = tempDir('opt-fail-');
    const space = parseSpace(JSON.stringify({ strategy: 'grid1', params: { levels: { values: [3, 4] }, fail: { values: [false, true] } } }));
    let store = open(dir);
    const out = await runStudy(await plan(null, space), { executor: new FakeExecutor(), store, signal: new AbortController().signal });
    store.close();
    if (out.aborted) throw new Error('aborted');
    expect(out.result.trials.map((t) => t.index)).toEqual([0, 2]);
    expect(out.result.failures?.map((f) => [f.index, f.error])).toEqual([[1, 'trial 1 refused: fail is set'], [3, 'trial 3 refused: fail is set']]);
    store = open(dir);
    const again = new FakeExecutor();
    await runStudy(await plan(null, space), { executor: again, store, signal: new AbortController().signal });
    expect(again.ran).toEqual([]);
    expect(store.forgetFailed()).toBe(2);
    const retry = new FakeExecutor();
    await runStudy(await plan(null, space), { executor: retry, store, signal: new AbortController().signal });
    store.close();
    expect(retry.ran).toHaveLength(2);
  });
});

describe('the study store', () => {
  it('refuses to continue a study with other inputs, naming what differs, and leaves it intact', () => {
    const dir = tempDir('opt-mismatch-');
    open(dir, { objective: 'net', seed: 7, space: { a: 1 } }).close();
    expect(() => open(dir, { objective: 'sharpe', seed: 7, space: { a: 2 } })).toThrow(StudyMismatchError);
    expect(() => open(dir, { objective: 'sharpe', seed: 7, space: { a: 2 } })).toThrow(/study .*study\.sqlite was started with other inputs \(objective, space differ\)/);
    // Key order does not matter; the original identity still opens.
    open(dir, { space: { a: 1 }, seed: 7, objective: 'net' }).close();
  });

  it('records a trial exactly once: a repeated report is ignored and counted', async () => {
    const dir = tempDir('opt-once-');
    const store = open(dir);
    const out = await runStudy(await plan(), { executor: new FakeExecutor({ repeat: 3 }), store, signal: new AbortController().signal });
    if (out.aborted) throw new Error('aborted');
    expect(out.duplicates).toBe(24);
    expect(store.finished().size).toBe(12);
    store.close();
    // The count is kept in the study file.
    const reopened = open(dir);
    expect(reopened.duplicates).toBe(24);
    reopened.close();
  });
});

describe('a walk-forward study', () => {
  it('picks the best per fold on train, runs it on test, stitches the test equity and flags what it sees', async () => {
    // The best levels move: 1 in fold 0's train window, 6 afterwards; fold 1's test window favours 1 again.
    const target = (spec: TrialSpec): number => (spec.window.fold === 0 && spec.window.phase === 'train') || (spec.window.fold === 1 && spec.window.phase === 'test') ? 1 : 6;
    const executor = new FakeExecutor({ trial: (spec) => pureTrial(spec, target(spec)) });
    const store = open(tempDir('opt-wf-'));
    const out = await runStudy(await plan({ folds: 3, trainDays: 12, testDays: 6 }), { executor, store, signal: new AbortController().signal });
    store.close();
    if (out.aborted) throw new Error('aborted');
    const wf = out.result.walkForward;
    // net = levels × spacing − |levels − target| × days / 2. Train (12 days): levels 1 → 2 when it is the target,
    // levels 6 → 12. Test (6 days): 1 × 2 − 5 × 3 = −13; 6 × 2 − 5 × 3 = −3; 6 × 2 = 12.
    expect(wf?.folds.map((f) => [f.fold, f.bestParams, f.inSample, f.outOfSample])).toEqual([
      [0, { levels: 1, spacingPct: '2' }, '2', '-13'],
      [1, { levels: 6, spacingPct: '2' }, '12', '-3'],
      [2, { levels: 6, spacingPct: '2' }, '12', '12'],
    ]);
    expect(wf?.folds[1]?.train).toEqual({ fromMs: FROM + 6 * DAY_MS, toMs: FROM + 18 * DAY_MS });
    expect(wf?.folds[1]?.test).toEqual({ fromMs: FROM + 18 * DAY_MS, toMs: FROM + 24 * DAY_MS });
    expect(wf?.stitchedEquity.map((p) => p.equity)).toEqual(['1000', '987', '987', '984', '984', '996']);
    expect(out.result.trials).toHaveLength(3 * 12 + 3);
    expect(out.result.best?.params).toEqual({ levels: 6, spacingPct: '2' });
    expect(out.result.flags.map((f) => [f.code, f.fold])).toEqual([
      ['oos_far_below_is', 0],
      ['oos_far_below_is', 1],
      ['params_unstable', 1],
      ['few_trades', 0],
    ]);
  });
});

describe('a study whose objective fails', () => {
  it('stops running trials and says why; the trials finished so far stay recorded', async () => {
    const store = open(tempDir('opt-objfail-'));
    let calls = 0;
    const objective = { name: 'custom' as const, file: 'bad.js', close: () => Promise.resolve(), value: () => (++calls === 3 ? Promise.reject(new Error('custom objective bad.js: it threw: boom')) : Promise.resolve('1')) };
    const executor = new FakeExecutor({ slots: 1 });
    await expect(runStudy({ ...(await plan()), objective }, { executor, store, signal: new AbortController().signal })).rejects.toThrow(/bad\.js: it threw: boom/);
    expect(executor.ran.length).toBeLessThan(12);
    expect(store.finished().size).toBe(executor.ran.length);
    store.close();
  });
});

describe('the coordinator', () => {
  it('ignores reports of keys it did not ask for, and refuses an executor that drops a trial', async () => {
    const store = open(tempDir('opt-gap-'));
    const specs = trialSpecs(INPUTS, gridPoints(SPACE).slice(0, 3), { fromMs: FROM, toMs: FROM + DAY_MS, fold: null, phase: 'full' }, 7, 0);
    const executor: TrialExecutor = {
      slots: 1,
      run: (_inputs, trials, onEnd) => {
        onEnd({ ok: false, failure: { key: 'not-asked', error: 'stray' } });
        for (const t of trials.slice(1)) onEnd(pureTrial(t));
        return Promise.resolve();
      },
      close: () => Promise.resolve(),
    };
    const coordinator = new Coordinator({ executor, store, inputs: INPUTS });
    const err = await coordinator.run(specs, new AbortController().signal).then(() => null, (e: unknown) => e);
    expect(err).toBeInstanceOf(ExecutorGapError);
    expect((err as ExecutorGapError).missing).toEqual([specs[0]?.key]);
    // The two reported trials are recorded; the dropped one runs next time.
    expect([...store.finished().keys()].sort()).toEqual([specs[1]?.key, specs[2]?.key].sort());
    store.close();
  });
});
