/**
 * No false protective-leg alert. A `protective_leg_missing` alert (subject: the parent's
 * clientOrderId) is true only when, at the alert's time, the venue had nothing protecting that
 * parent: no OTO listed, and every OCO leg cancelled without executing (by the venue or an
 * operator). It is false when a leg of that parent had executed (the position was closed by its
 * own protection) or was still listed at that time.
 */
import type { Bracket, BracketLeg } from '../../../src/simulator/index.js';
import type { AlertRecord } from '../../../src/store/index.js';
import type { Evidence } from '../evidence.js';
import type { Check } from './types.js';

export const LEG_ALERT = 'protective_leg_missing';

/** Why a leg makes the alert false: it had executed, or it was listed (or its OTO was). */
export type FalseAlertKind = 'executed' | 'listed';

export interface FalseAlert {
  alert: AlertRecord;
  kind: FalseAlertKind;
  reason: string;
}

function legVerdict(leg: BracketLeg, name: string, atMs: number): { kind: FalseAlertKind; reason: string } | null {
  if (leg.createdMs > atMs) return null;
  if (leg.status === 'FILLED' && leg.mtimeMs <= atMs) return { kind: 'executed', reason: `its ${name} leg ${leg.orderId} had executed ${atMs - leg.mtimeMs} ms before` };
  if (leg.status === 'NEW' || leg.mtimeMs > atMs) return { kind: 'listed', reason: `its ${name} leg ${leg.orderId} was listed at the venue` };
  return null;
}

/** Why the alert is false, or null when the venue really had no protection then. */
export function falseAlertReason(b: Bracket | undefined, atMs: number): { kind: FalseAlertKind; reason: string } | null {
  if (b === undefined) return null;
  const verdicts = [
    b.stopLoss === null ? null : legVerdict(b.stopLoss, 'stop-loss', atMs),
    b.takeProfit === null ? null : legVerdict(b.takeProfit, 'take-profit', atMs),
  ].filter((v) => v !== null);
  const first = verdicts[0];
  if (first !== undefined) return { kind: verdicts.some((v) => v.kind === 'executed') ? 'executed' : first.kind, reason: verdicts.map((v) => v.reason).join('; ') };
  // The OTO is listed until the parent ends, which is when its legs are created.
  const legsCreated = b.stopLoss?.createdMs ?? b.takeProfit?.createdMs;
  if (b.otoActive || (legsCreated !== undefined && legsCreated > atMs)) return { kind: 'listed', reason: `its OTO ${b.otoId} was listed (the parent was still resting)` };
  return null;
}

export function falseLegAlerts(ev: Evidence): FalseAlert[] {
  const byParent = new Map(ev.venue.brackets.map((b) => [b.parentClientOrderId, b]));
  const out: FalseAlert[] = [];
  for (const alert of ev.store.alerts.filter((x) => x.kind === LEG_ALERT)) {
    const verdict = falseAlertReason(byParent.get(alert.subject), alert.atMs);
    if (verdict !== null) out.push({ alert, ...verdict });
  }
  return out;
}

export const noFalseLegAlert: Check = {
  name: 'no false protective-leg alert',
  asserts: 'each protective_leg_missing alert names a parent whose venue legs were cancelled unexecuted before the alert (none executed, none listed)',
  run: (ev) => falseLegAlerts(ev).map(({ alert: a, reason }) => `alert ${a.id} "${a.detail}" for ${a.subject}: ${reason}`),
};
