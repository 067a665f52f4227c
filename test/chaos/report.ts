/** The printed report of a chaos run: figures, then one line per check, violations below it. */
import { formatFigures } from './figures.js';
import type { ChaosReport } from './run-chaos.js';

/** Violations shown per check; the count says how many there were. */
const SHOWN = 12;

export function formatReport(r: ChaosReport): string {
  const lines = ['chaos run', formatFigures(r.figures), 'checks'];
  for (const c of r.checks) {
    lines.push(`  ${c.violations.length === 0 ? 'PASS' : 'FAIL'}  ${c.name}${c.violations.length === 0 ? '' : ` (${c.violations.length})`}`);
    for (const v of c.violations.slice(0, SHOWN)) lines.push(`          ${v}`);
    if (c.violations.length > SHOWN) lines.push(`          … ${c.violations.length - SHOWN} more`);
  }
  lines.push(r.ok ? 'all checks passed' : `${r.checks.filter((c) => c.violations.length > 0).length} check(s) failed`);
  return lines.join('\n');
}
