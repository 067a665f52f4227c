/**
 * The three defects of issue 9 ("the bot never trades on a stale view of its own position") as
 * the checks see them, so that while the issue is open the in-suite chaos test can tell them
 * apart from anything new. Each entry names the check it breaks and returns the violations that
 * are NOT that defect's shape: those still fail the test. `npm run chaos` and `CHAOS_STRICT=1`
 * ignore this file and judge every check strictly.
 *
 * 1. An entry FILLED in the placement reply records no fill until the next history scan, so the
 *    strategy enters again on a stale flat view: breaches of the limit by collateral-signal
 *    entries, and by legs whose position such an entry (or an exit of part 2) had offset.
 * 2. A protective leg executing between the history scan and the listing is flagged missing, and
 *    the strategy exits a position the venue already closed: false alerts whose leg had executed,
 *    and exits that grew the venue position after such an alert.
 * 3. With two bracketed positions in one market, leg fills are credited to the other parent.
 */
import type { OrderRecord } from '../../src/store/index.js';
import type { Evidence } from './evidence.js';
import type { Check } from './checks/index.js';
import { exitsOnlyReduce, growingExits } from './checks/exits.js';
import { falseLegAlerts, noFalseLegAlert } from './checks/leg-alerts.js';
import { legFillsToTrueParent, misattributedLegFills } from './checks/leg-attribution.js';
import { limitBreaches, positionWithinLimit } from './checks/position-limit.js';

export interface KnownDefect {
  check: Check;
  /** Which part of issue 9. */
  part: string;
  /** Violations of `check` that this defect does not explain. */
  unexplained(ev: Evidence): string[];
}

function signalEntries(ev: Evidence): Map<string, OrderRecord> {
  const instances = new Set(ev.signalInstances);
  return new Map(ev.store.orders.filter((o) => instances.has(o.strategyId) && o.stopLoss !== null).map((o) => [o.clientOrderId, o]));
}

/** Exits that grew the venue position after a false "leg missing" alert of their instance (defect 2). */
function exitsAfterFalseAlerts(ev: Evidence): Set<string> {
  const owners = new Map(ev.store.orders.map((o) => [o.clientOrderId, o.strategyId]));
  const alerts = falseLegAlerts(ev).filter((f) => f.kind === 'executed');
  const explained = growingExits(ev).filter(({ exit }) => alerts.some((f) => owners.get(f.alert.subject) === exit.strategyId && f.alert.atMs <= exit.createdMs));
  return new Set(explained.map((g) => g.exit.clientOrderId));
}

/**
 * A leg that executes after another collateral-signal order (an entry made on a stale flat view,
 * or an exit) already offset the position it protects: the leg then opens or grows a position.
 */
function legAfterOffset(ev: Evidence, dealId: number, orderId: number): boolean {
  const b = ev.venue.brackets.find((x) => x.stopLoss?.orderId === orderId || x.takeProfit?.orderId === orderId);
  if (b === undefined) return false;
  const parentFilled = Math.max(...ev.venue.deals.filter((d) => d.orderId === b.parentOrderId).map((d) => d.dealId));
  const signal = new Set(ev.store.orders.filter((o) => ev.signalInstances.includes(o.strategyId)).map((o) => o.clientOrderId));
  return ev.venue.deals.some((d) => d.dealId > parentFilled && d.dealId < dealId && d.market === b.market && d.clientOrderId !== b.parentClientOrderId && signal.has(d.clientOrderId));
}

const doubleEntries: KnownDefect = {
  check: positionWithinLimit,
  part: 'issue 9 (1): an entry on a stale flat view (and what follows from it or from an exit of part 2)',
  unexplained: (ev) => {
    const entries = signalEntries(ev);
    const exits = exitsAfterFalseAlerts(ev);
    return limitBreaches(ev)
      .map((b) => b.step.deal)
      .filter((d) => !entries.has(d.clientOrderId) && !exits.has(d.clientOrderId) && !legAfterOffset(ev, d.dealId, d.orderId))
      .map((d) => `deal ${d.dealId} (${d.clientOrderId || `leg ${d.orderId}`}) is no collateral-signal entry, no exit after a false alert, no leg of an offset position`);
  },
};

const executedLegsFlagged: KnownDefect = {
  check: noFalseLegAlert,
  part: 'issue 9 (2): a leg that executed before the listing flagged as missing',
  unexplained: (ev) => falseLegAlerts(ev).filter((f) => f.kind !== 'executed').map((f) => `alert ${f.alert.id} for ${f.alert.subject}: ${f.reason}`),
};

const exitsAfterFalseAlert: KnownDefect = {
  check: exitsOnlyReduce,
  part: 'issue 9 (2): an exit for a position its leg had already closed',
  unexplained: (ev) => {
    const explained = exitsAfterFalseAlerts(ev);
    return growingExits(ev)
      .filter(({ exit }) => !explained.has(exit.clientOrderId))
      .map(({ exit }) => `exit ${exit.clientOrderId} follows no false leg alert of ${exit.strategyId}`);
  },
};

const crossedParents: KnownDefect = {
  check: legFillsToTrueParent,
  part: 'issue 9 (3): leg fills credited to the other bracketed position in the market',
  unexplained: (ev) => {
    const entries = signalEntries(ev);
    return misattributedLegFills(ev)
      .filter(({ deal, fill }) => {
        const other = entries.get(fill.ownerClientOrderId ?? '');
        return other === undefined || other.market !== deal.market;
      })
      .map(({ deal, fill }) => `deal ${deal.dealId} credited to ${fill.ownerClientOrderId ?? 'nobody'}, no other bracketed entry`);
  },
};

export const ISSUE_9_DEFECTS: readonly KnownDefect[] = [doubleEntries, executedLegsFlagged, exitsAfterFalseAlert, crossedParents];
