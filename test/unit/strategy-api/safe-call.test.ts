import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { StrategyError } from '../../../src/core/errors.js';
import { HookGuard } from '../../../src/strategy-api/safe-call.js';
import { eventually } from '../../support/eventually.js';

function guard(clock: ManualClock, budget = 2): { g: HookGuard; quarantines: StrategyError[] } {
  const quarantines: StrategyError[] = [];
  const g = new HookGuard({ clock, instanceId: 'x', deadlineMs: 1_000, errorBudget: budget, errorWindowMs: 60_000, onQuarantine: (e) => quarantines.push(e) });
  return { g, quarantines };
}

describe('HookGuard', () => {
  it('returns the value of a hook that succeeds', async () => {
    const { g } = guard(new ManualClock());
    expect(await g.call('onTick', () => 42)).toEqual({ ok: true, value: 42 });
    expect(await g.call('onTick', async () => 'a')).toEqual({ ok: true, value: 'a' });
  });

  it('turns a throw into StrategyError(threw) and counts it', async () => {
    const { g } = guard(new ManualClock(), 5);
    const r = await g.call('onTick', () => {
      throw new Error('boom');
    });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.kind).toBe('threw');
    expect(g.recentFailures).toBe(1);
  });

  it('abandons a hook that hangs past its deadline', async () => {
    const clock = new ManualClock();
    const { g } = guard(clock, 5);
    const pending = g.call('onTick', () => new Promise<never>(() => {}));
    await eventually(() => clock.pendingCount > 0, 'the deadline timer');
    clock.advance(1_000);
    const r = await pending;
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.kind).toBe('deadline');
  });

  it('clears its deadline timer when the hook finishes', async () => {
    const clock = new ManualClock();
    const { g } = guard(clock);
    await g.call('onTick', () => 1);
    expect(clock.pendingCount).toBe(0);
  });

  it('quarantines when the budget is spent within the window, then refuses calls', async () => {
    const clock = new ManualClock();
    const { g, quarantines } = guard(clock, 2);
    let called = 0;
    const bad = (): never => {
      called++;
      throw new Error('x');
    };
    await g.call('onTick', bad);
    expect(g.quarantined).toBe(false);
    await g.call('onTick', bad);
    expect(g.quarantined).toBe(true);
    expect(quarantines).toHaveLength(1);
    const r = await g.call('onTick', bad);
    expect(called).toBe(2);
    if (!r.ok) expect(r.error.kind).toBe('quarantined');
  });

  it('forgets failures older than the window', async () => {
    const clock = new ManualClock();
    const { g } = guard(clock, 2);
    g.recordFailure(new StrategyError('bad_intent', 'x'));
    clock.advance(61_000);
    g.recordFailure(new StrategyError('bad_intent', 'y'));
    expect(g.quarantined).toBe(false);
  });
});
