/**
 * The drawdown kill switch never fires without a loss: when the run ended with trading HALTED by
 * the drawdown switch, the account's true equity (sampled from the simulator's truth,
 * ../true-equity.ts) must have fallen from its running peak by at least the configured limit
 * somewhere up to the halt (the first sample after it included: samples and checks interleave).
 */
import type { Decimal } from '../../../src/core/decimal.js';
import type { Evidence } from '../evidence.js';
import type { EquitySample } from '../true-equity.js';
import type { Check } from './types.js';

/** Largest fall from the running peak, in % of that peak; 0 for fewer than two samples. */
export function maxDrawdownPct(samples: readonly EquitySample[]): Decimal | null {
  let peak: Decimal | null = null;
  let worst: Decimal | null = null;
  for (const s of samples) {
    if (peak === null || s.equity.gt(peak)) peak = s.equity;
    if (!peak.gt(0)) continue;
    const dd = peak.minus(s.equity).div(peak).mul(100);
    if (worst === null || dd.gt(worst)) worst = dd;
  }
  return worst;
}

function falseHalts(ev: Evidence): string[] {
  const ts = ev.store.tradingState;
  if (ts === null || ts.state !== 'HALTED' || !ts.reason.startsWith('drawdown')) return [];
  const before = ev.equity.samples.filter((s) => s.atMs <= ts.atMs);
  const after = ev.equity.samples.find((s) => s.atMs > ts.atMs);
  const judged = after === undefined ? before : [...before, after];
  const dd = maxDrawdownPct(judged);
  if (dd !== null && dd.gte(ev.equity.limitPct)) return [];
  const fell = dd === null ? 'no true equity sample to show a loss' : `the true equity fell at most ${dd.toDecimalPlaces(4).toFixed()} % from its peak`;
  return [`drawdown halt at ${new Date(ts.atMs).toISOString()} ("${ts.reason}") while ${fell} (limit ${ev.equity.limitPct} %)`];
}

export const noFalseDrawdownHalt: Check = {
  name: 'no drawdown halt without a loss',
  asserts: 'a drawdown halt only follows a fall of the true equity (simulator truth: balances, held, positions, flex) by at least maxDrawdownPct',
  run: falseHalts,
};
