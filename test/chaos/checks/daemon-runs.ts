/** The daemon never died on its own: every run ended by the run's own SIGKILL or SIGTERM, and a SIGTERM ended with exit code 0. */
import type { Evidence } from '../evidence.js';
import type { Check } from './types.js';

function badRuns(ev: Evidence): string[] {
  const out: string[] = [];
  for (const r of ev.runs) {
    if (r.endedBy === null) out.push(`daemon run ${r.index} ended on its own (exit code ${String(r.code)}, signal ${String(r.signal)}${r.ready ? '' : ', never ready'})`);
    else if (r.endedBy === 'term' && r.code !== 0) out.push(`daemon run ${r.index} stopped by SIGTERM with exit code ${String(r.code)} (signal ${String(r.signal)})`);
  }
  return out;
}

export const daemonNeverDied: Check = {
  name: 'the daemon never died on its own',
  asserts: 'every daemon run ended by the chaos run (SIGKILL, or SIGTERM with exit code 0)',
  run: badRuns,
};
