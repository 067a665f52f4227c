/**
 * A fault raised by a strategy module's own code outside its hooks (a timer started at import)
 * quarantines every instance of that module and is not the bot's; any other error is left to the
 * daemon's handlers.
 */
import { describe, expect, it } from 'vitest';
import { SystemClock } from '../../../src/core/clock.js';
import { quarantineFaulting, type Runners } from '../../../src/daemon/runners.js';
import { strategyLoaderPaths } from '../../../src/daemon/strategies.js';
import type { StrategyRunner } from '../../../src/engine/strategy-runner.js';
import { HookGuard, resolveStrategyFile, type LoadedStrategy } from '../../../src/strategy-api/host.js';

function runner(id: string): StrategyRunner {
  const guard = new HookGuard({ clock: new SystemClock(), instanceId: id, deadlineMs: 1000, errorBudget: 3, errorWindowMs: 60_000 });
  return { id, guard, get quarantined() { return guard.quarantined; } } as unknown as StrategyRunner;
}

const loaded = (id: string, module: string): LoadedStrategy => ({ id, module, params: {}, schedule: '* * * * * *' }) as unknown as LoadedStrategy;

describe('quarantineFaulting', () => {
  const strategies = [loaded('grid1', 'spot-grid'), loaded('grid2', 'spot-grid'), loaded('sig', 'collateral-signal')];
  const fresh = (): Runners => new Map(strategies.map((s) => [s.id, runner(s.id)]));

  it("quarantines every instance of the module named in the error's stack", () => {
    const runners = fresh();
    const file = resolveStrategyFile('spot-grid', strategyLoaderPaths()) as string;
    const err = new Error('boom');
    err.stack = `Error: boom\n    at Timeout._onTimeout (${file}:12:11)\n    at listOnTimeout (node:internal/timers:573:17)`;
    expect(quarantineFaulting(runners, strategies, err)).toBe(true);
    expect([...runners.values()].map((r) => [r.id, r.quarantined])).toEqual([['grid1', true], ['grid2', true], ['sig', false]]);
  });

  it('leaves any other error to the daemon', () => {
    const runners = fresh();
    expect(quarantineFaulting(runners, strategies, new Error('disk full'))).toBe(false);
    expect(quarantineFaulting(runners, strategies, 'not an error')).toBe(false);
    expect([...runners.values()].some((r) => r.quarantined)).toBe(false);
  });
});
