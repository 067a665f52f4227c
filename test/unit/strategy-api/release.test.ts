/** Lifting a quarantine (the console's `unquarantine`): hooks run again and the error budget starts afresh. */
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import type { StrategyError } from '../../../src/core/errors.js';
import { HookGuard } from '../../../src/strategy-api/safe-call.js';

describe('HookGuard.release', () => {
  it('answers null when not quarantined, and lifts a quarantine with a fresh budget', async () => {
    const quarantines: StrategyError[] = [];
    const g = new HookGuard({ clock: new ManualClock(), instanceId: 'x', deadlineMs: 1_000, errorBudget: 2, errorWindowMs: 60_000, onQuarantine: (e) => quarantines.push(e) });
    expect(g.release()).toBeNull();
    const boom = (): never => {
      throw new Error('boom');
    };
    await g.call('onTick', boom);
    await g.call('onTick', boom);
    expect(g.quarantined).toBe(true);
    expect((await g.call('onTick', () => 1)).ok).toBe(false);
    expect(g.release()?.kind).toBe('threw');
    expect(g.quarantined).toBe(false);
    expect(await g.call('onTick', () => 1)).toEqual({ ok: true, value: 1 });
    // One failure after the release does not quarantine again: the old failures were forgotten.
    await g.call('onTick', boom);
    expect(g.quarantined).toBe(false);
    await g.call('onTick', boom);
    expect(g.quarantined).toBe(true);
    expect(quarantines).toHaveLength(2);
  });
});
