/**
 * `HookGuard.callNow` (the in-thread executors' path) gives every outcome `call` gives: a value
 * at once with no timer left behind, a throw counted as one, a thenable awaited against the same
 * deadline counted from the call's start, and a refusal while quarantined; the budget and the
 * quarantine move exactly as through `call`.
 */
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { HookGuard, type GuardedResult } from '../../../src/strategy-api/safe-call.js';
import { eventually } from '../../support/eventually.js';

function guard(clock: ManualClock, budget = 3): HookGuard {
  return new HookGuard({ clock, instanceId: 'x', deadlineMs: 1_000, errorBudget: budget, errorWindowMs: 60_000 });
}

/** Both paths' outcome of `fn` on fresh guards, as comparable data. */
async function both(fn: () => unknown): Promise<[unknown, unknown]> {
  const shape = (r: GuardedResult<unknown>): unknown => (r.ok ? { ok: true, value: r.value } : { ok: false, kind: r.error.kind, message: r.error.message });
  const a = guard(new ManualClock());
  const b = guard(new ManualClock());
  return [shape(await a.call('onTick', fn)), shape(await b.callNow('onTick', fn))];
}

describe('HookGuard.callNow', () => {
  it('answers a hook that returns at once at once, with no timer left', () => {
    const clock = new ManualClock();
    const g = guard(clock);
    const r = g.callNow('onTick', () => [1, 2]);
    expect(r).toEqual({ ok: true, value: [1, 2] });
    expect(clock.pendingCount).toBe(0);
    expect(g.callNow('onTick', () => undefined)).toEqual({ ok: true, value: undefined });
  });

  it('gives what call gives for values, throws, promises, rejections and thenables', async () => {
    const cases: (() => unknown)[] = [
      () => 7,
      () => null,
      () => ({ type: 'cancelAll' }),
      () => {
        throw new Error('boom');
      },
      async () => 'later',
      async () => {
        throw new Error('late boom');
      },
      () => ({ then: (ok: (v: unknown) => void) => ok('thenable') }),
      () => ({
        get then(): never {
          throw new Error('getter boom');
        },
      }),
    ];
    for (const fn of cases) {
      const [viaCall, viaNow] = await both(fn);
      expect(viaNow).toEqual(viaCall);
    }
  });

  it('counts a synchronous throw against the budget and quarantines as call does', () => {
    const g = guard(new ManualClock(), 2);
    const bad = (): never => {
      throw new Error('x');
    };
    expect(g.callNow('onTick', bad)).toMatchObject({ ok: false, error: { kind: 'threw' } });
    expect(g.recentFailures).toBe(1);
    g.callNow('onTick', bad);
    expect(g.quarantined).toBe(true);
    expect(g.callNow('onTick', () => 1)).toMatchObject({ ok: false, error: { kind: 'quarantined' } });
  });

  it('abandons a promise that hangs past the deadline, counted from the call start', async () => {
    const clock = new ManualClock();
    const g = guard(clock);
    let abandoned = 0;
    const pending = g.callNow(
      'onTick',
      () => {
        clock.advance(400); // the synchronous part took 400 ms of the deadline
        return new Promise<never>(() => {});
      },
      () => abandoned++,
    );
    expect(pending).toBeInstanceOf(Promise);
    await eventually(() => clock.pendingCount > 0, 'the deadline timer');
    clock.advance(599);
    await Promise.resolve();
    expect(abandoned).toBe(0);
    clock.advance(1);
    const r = await pending;
    expect(r).toMatchObject({ ok: false, error: { kind: 'deadline' } });
    expect(abandoned).toBe(1);
  });
});
