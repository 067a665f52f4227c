import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { CUSTOM_OBJECTIVE_DEADLINE_MS, ObjectiveError, loadObjective, type Objective } from '../../../src/optimize/objective.js';
import type { BacktestMetrics } from '../../../src/backtest/result.js';
import { eventually } from '../../support/eventually.js';
import { tempDir } from '../../support/temp-dir.js';

const METRICS: BacktestMetrics = {
  realisedPnl: '12', fees: '2', realisedPnlAfterFees: '10', unrealisedPnl: '0', flexEarnings: '0', netPnl: '10.5',
  orders: 4, fills: 4, trades: 3, winRate: '0.5', maxDrawdown: '0.25', exposure: '0.5', sharpeDaily: null,
};
const OUTCOME = { metrics: METRICS, equity: [{ timeMs: 0, equity: '1000' }], tradePnls: ['3', '-1', '2.5'] };

function module(source: string): string {
  const file = path.join(tempDir('opt-objective-'), 'objective.js');
  writeFileSync(file, source);
  return file;
}

async function withObjective<T>(source: string, use: (o: Objective) => Promise<T>, clock?: ManualClock): Promise<T> {
  const objective = await loadObjective(module(source), clock);
  try {
    return await use(objective);
  } finally {
    await objective.close();
  }
}

describe('a custom objective', () => {
  it('maps an outcome to a decimal string, numbers and strings alike; null stays null', async () => {
    const source = 'export default function (o) { if (o.metrics.trades === 0) return null; return Number(o.metrics.netPnl) / (1 + Number(o.metrics.maxDrawdown)) + o.tradePnls.length; }';
    await withObjective(source, async (o) => {
      expect(o.name).toBe('custom');
      expect(await o.value(OUTCOME)).toBe('11.4');
      expect(await o.value({ ...OUTCOME, metrics: { ...METRICS, trades: 0 } })).toBeNull();
    });
    await withObjective("export default (o) => o.metrics.netPnl;", async (o) => expect(await o.value(OUTCOME)).toBe('10.5'));
  });

  it('a throwing objective is a clear error naming the file', async () => {
    await withObjective("export default () => { throw new Error('no figures'); };", async (o) => {
      await expect(o.value(OUTCOME)).rejects.toThrow(ObjectiveError);
      await expect(o.value(OUTCOME)).rejects.toThrow(/custom objective .*objective\.js: it threw: no figures/);
    });
  });

  it('runs in the sandbox: no host globals, no way to reach the file system', async () => {
    const globals = ['process', 'require', 'fetch', 'setTimeout', 'Function', 'eval'].map((g) => `typeof ${g} === 'undefined'`).join(' && ');
    await withObjective(`export default () => (${globals} ? 1 : 0);`, async (o) => expect(await o.value(OUTCOME)).toBe('1'));
    await withObjective('export default () => process.exit(3);', async (o) => expect(o.value(OUTCOME)).rejects.toThrow(/it threw: .*'exit'/));
    const importing = module("import fs from 'node:fs';\nexport default () => fs.readFileSync('/etc/passwd').length;");
    await expect(loadObjective(importing)).rejects.toThrow(/custom objective .*imports "node:fs"/);
  });

  it('refuses a result that is not a number, a decimal string or null, and a module without a function', async () => {
    await withObjective('export default () => ({ score: 1 });', async (o) => expect(o.value(OUTCOME)).rejects.toThrow(/it returned object; expected a number, a decimal string or null/));
    await withObjective('export default 42;', async (o) => expect(o.value(OUTCOME)).rejects.toThrow(/default export is number, not a function of the outcome/));
  });

  it('is stopped past its time bound', async () => {
    const clock = new ManualClock();
    await withObjective(
      'export default (o) => { if (o.metrics.trades === 3) return 1; for (;;) {} };',
      async (o) => {
        // A first call that returns: the worker is loaded, its load timer gone.
        expect(await o.value(OUTCOME)).toBe('1');
        const result = o.value({ ...OUTCOME, metrics: { ...METRICS, trades: 4 } }).then(
          () => 'returned',
          (err: unknown) => (err as Error).message,
        );
        await eventually(() => clock.pendingCount === 1, 'the deadline timer');
        clock.advance(CUSTOM_OBJECTIVE_DEADLINE_MS);
        expect(await result).toMatch(/custom objective .*: did not return within 2000 ms/);
      },
      clock,
    );
  });

  it('names a missing file as neither a built-in nor a file', async () => {
    await expect(loadObjective('./no-such-objective.js')).rejects.toThrow(/--objective \.\/no-such-objective\.js: neither a built-in objective \(sharpe, sortino, calmar, net, profit-factor\) nor a file/);
  });
});
