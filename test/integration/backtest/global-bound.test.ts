/**
 * A backtest skips the scheduler's global bound only where it can hold nothing back
 * (src/backtest/run.ts `globalBoundIdle`): with the default config it does, and the run is the
 * run with the bound; a config whose strategies outnumber the bound keeps it.
 */
import { describe, expect, it, vi } from 'vitest';
import { Scheduler } from '../../../src/engine/scheduler.js';
import { buildResult, truthFills } from '../../../src/backtest/collect.js';
import { runBacktest } from '../../../src/backtest/run.js';
import { sampleInputs } from '../../support/sample-backtest.js';

describe('a backtest without the global bound', () => {
  it('skips it with the default config and gives the run it gives with the bound; keeps it when the strategies outnumber it', async () => {
    // Every input (its logger included) made before the first run locks the thread down for its strategies.
    const [a, b, c] = [await sampleInputs('in-process', 'thread', 3), await sampleInputs('in-process', 'thread', 3), await sampleInputs('in-process', 'thread', 1)];
    const run = (s: typeof a) => runBacktest(s.inputs, (st) => ({ result: buildResult(st, s.meta), truth: truthFills(st), jobs: st.jobsRun }));
    const skip = vi.spyOn(Scheduler.prototype, 'withoutGlobalBound');
    const without = await run(a);
    expect(skip).toHaveBeenCalledTimes(1);
    skip.mockImplementation(() => undefined);
    const withBound = await run(b);
    expect(without.truth.length).toBeGreaterThan(0);
    expect(without).toEqual(withBound);
    skip.mockClear();
    const config = { ...c.inputs.config, jobs: { ...c.inputs.config.jobs, maxConcurrentJobs: c.inputs.strategies.length } };
    await runBacktest({ ...c.inputs, config }, () => undefined);
    expect(skip).not.toHaveBeenCalled();
    skip.mockRestore();
  });
});
