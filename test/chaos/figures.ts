/** The figures of a chaos run, printed with the check results. */
import type { ChaosCounters } from './cycle.js';
import type { Evidence } from './evidence.js';
import { auditFigures } from './checks/balance-audit.js';
import { exitOrders, growingExits } from './checks/exits.js';
import { legParents } from './checks/leg-attribution.js';
import { maxPositions } from './checks/position-limit.js';

export type Figures = Record<string, string | number>;

function countBy<T>(items: readonly T[], key: (t: T) => string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const i of items) out[key(i)] = (out[key(i)] ?? 0) + 1;
  return out;
}

const show = (r: Record<string, number>): string => Object.entries(r).sort().map(([k, n]) => `${k} ${n}`).join(', ') || 'none';

export function figuresOf(ev: Evidence, counters: ChaosCounters): Figures {
  const byCid = new Map(ev.store.orders.map((o) => [o.clientOrderId, o]));
  const stillUnknown = ev.store.everUnknown.filter((c) => byCid.get(c)?.state === 'UNKNOWN').length;
  const legs = legParents(ev);
  const instances = new Set(ev.signalInstances);
  const out: Figures = {
    cycles: counters.cycles,
    'daemon runs': ev.runs.length,
    'SIGKILLs (in start-up)': `${counters.kills + counters.startupKills} (${counters.startupKills})`,
    'graceful restarts': counters.gracefulRestarts,
    'OCOs cancelled at the venue': counters.ocoCancels,
    'orders journaled': `${ev.store.orders.length} (${show(countBy(ev.store.orders, (o) => o.state))})`,
    'collateral entries / exits': `${ev.store.orders.filter((o) => instances.has(o.strategyId) && o.stopLoss !== null).length} / ${exitOrders(ev).length}`,
    'venue deals (of legs)': `${ev.venue.deals.length} (${ev.venue.deals.filter((d) => legs.has(d.orderId)).length})`,
    'fills stored': ev.store.fills.length,
    'UNKNOWN seen / resolved / unresolved': `${ev.store.everUnknown.length} / ${ev.store.everUnknown.length - stillUnknown} / ${stillUnknown}`,
    alerts: show(countBy(ev.store.alerts, (a) => a.kind)),
    'exits that grew a position': growingExits(ev).length,
    'balance audits': show(countBy(ev.store.audits, (a) => a.outcome)),
    ...auditFigures(ev),
  };
  for (const [market, max] of Object.entries(maxPositions(ev))) out[`max |position| ${market} (limit)`] = `${max.toFixed()} (${ev.limits[market] ?? '?'})`;
  return out;
}

export function formatFigures(f: Figures): string {
  const width = Math.max(...Object.keys(f).map((k) => k.length));
  return Object.entries(f).map(([k, v]) => `  ${k.padEnd(width)}  ${v}`).join('\n');
}
