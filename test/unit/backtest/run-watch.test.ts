/**
 * The run's heartbeat (src/backtest/run-watch.ts): what the run writes is what the supervisor
 * reads, and the judge stops a run only when its beat stood still for
 * the hook deadline inside a call, or for the longer bound outside one while the loop runs.
 */
import { describe, expect, it } from 'vitest';
import { readWatch, RunWatch, runWatchBuffer, StallJudge } from '../../../src/backtest/run-watch.js';

const IDS = ['grid1', 'trend1'];

describe('the run watch', () => {
  it('carries the last call, whether one is running, and whether the loop runs', () => {
    const buffer = runWatchBuffer();
    const watch = new RunWatch(buffer, IDS);
    expect(readWatch(buffer, IDS)).toEqual({ beat: 0, armed: false, inHook: false, instanceId: 'grid1', hook: 'init' });
    watch.arm();
    watch.enter('trend1', 'onFill');
    const inCall = readWatch(buffer, IDS);
    expect(inCall).toMatchObject({ armed: true, inHook: true, instanceId: 'trend1', hook: 'onFill' });
    watch.leave();
    const after = readWatch(buffer, IDS);
    expect(after).toMatchObject({ inHook: false, instanceId: 'trend1', hook: 'onFill' });
    expect(after.beat).toBeGreaterThan(inCall.beat);
    watch.step();
    expect(readWatch(buffer, IDS).beat).toBe(after.beat + 1);
    watch.disarm();
    expect(readWatch(buffer, IDS).armed).toBe(false);
  });
});

describe('the stall judge', () => {
  const reading = (beat: number, over: Partial<ReturnType<typeof readWatch>> = {}): ReturnType<typeof readWatch> => ({
    beat,
    armed: true,
    inHook: false,
    instanceId: 'grid1',
    hook: 'onTick',
    ...over,
  });

  it('stops a call whose beat stood still for the hook deadline, naming it', () => {
    const judge = new StallJudge(500, 30_000);
    expect(judge.look(reading(7, { inHook: true }), 1_000)).toBeUndefined();
    expect(judge.look(reading(7, { inHook: true }), 1_499)).toBeUndefined();
    expect(judge.look(reading(7, { inHook: true }), 1_500)).toEqual({ kind: 'hook', instanceId: 'grid1', hook: 'onTick', ms: 500 });
  });

  it('lets a moving run go on, however long it runs', () => {
    const judge = new StallJudge(500, 1_000);
    for (let t = 0; t < 100; t++) expect(judge.look(reading(t, { inHook: t % 2 === 0 }), t * 400)).toBeUndefined();
  });

  it('outside a call, waits for the longer bound and names the last call', () => {
    const judge = new StallJudge(500, 2_000);
    expect(judge.look(reading(3), 0)).toBeUndefined();
    expect(judge.look(reading(3), 1_999)).toBeUndefined();
    expect(judge.look(reading(3), 2_000)).toEqual({ kind: 'run', lastInstanceId: 'grid1', lastHook: 'onTick', ms: 2_000 });
  });

  it('does not judge before the loop starts or after it ends, unless a hook runs (start-up and stop hooks)', () => {
    const judge = new StallJudge(500, 2_000);
    expect(judge.look(reading(0, { armed: false }), 0)).toBeUndefined();
    expect(judge.look(reading(0, { armed: false }), 60_000)).toBeUndefined();
    expect(judge.look(reading(1, { armed: false, inHook: true }), 60_000)).toBeUndefined();
    expect(judge.look(reading(1, { armed: false, inHook: true }), 60_600)).toMatchObject({ kind: 'hook', ms: 600 });
  });
});
