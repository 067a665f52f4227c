/**
 * The short chaos run inside `npm test` (the long one is `npm run chaos`): the built daemon in
 * live mode against the simulator for a few price cycles with SIGKILLs, restarts, dropped write
 * replies and OCO legs cancelled at the venue, then every check against the venue's ground truth.
 *
 * While issue 9 is open, the four checks its defects break are held to "nothing but that
 * defect" (known-defects.ts); CHAOS_STRICT=1 holds every check to no violation at all, as
 * `npm run chaos` always does. When the fixes land, strict becomes the only mode: drop the
 * known-defect branch below and known-defects.ts.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { CHECKS } from './checks/index.js';
import { ISSUE_9_DEFECTS } from './known-defects.js';
import { formatReport } from './report.js';
import { runChaos, type ChaosReport } from './run-chaos.js';

const STRICT = process.env['CHAOS_STRICT'] === '1';

let report: ChaosReport;

describe('chaos: live daemon, kills, dropped replies, moving prices (seed 7, 5 cycles)', () => {
  beforeAll(async () => {
    report = await runChaos({ seed: 7, cycles: 5, faults: true, maxRunMs: undefined, settleUnknownMs: 8_000, keep: false });
    console.log(formatReport(report));
  }, 180_000);

  it('really traded: entries, fills, leg executions and restarts happened', () => {
    const ev = report.evidence;
    const entries = ev.store.orders.filter((o) => o.strategyId === 'sig' && o.stopLoss !== null);
    const legDeals = ev.venue.deals.filter((d) => d.clientOrderId === '');
    expect(entries.length, 'collateral entries').toBeGreaterThanOrEqual(2);
    expect(ev.store.fills.length, 'fills').toBeGreaterThanOrEqual(10);
    expect(legDeals.length, 'protective leg executions').toBeGreaterThanOrEqual(1);
    expect(ev.runs.length, 'daemon runs (restarts)').toBeGreaterThanOrEqual(3);
  });

  for (const check of CHECKS) {
    const known = STRICT ? undefined : ISSUE_9_DEFECTS.find((k) => k.check === check);
    if (known === undefined) {
      it(check.name, () => {
        const result = report.checks.find((c) => c.name === check.name);
        expect(result?.violations, check.asserts).toEqual([]);
      });
    } else {
      it(`${check.name} (while issue 9 is open: only ${known.part})`, () => {
        expect(known.unexplained(report.evidence), check.asserts).toEqual([]);
      });
    }
  }
});
