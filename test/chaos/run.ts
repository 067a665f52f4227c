/**
 * `npm run chaos -- [--seed N] [--cycles N] [--minutes M] [--faults on|off]`: one chaos run of the
 * built daemon against the simulator (see run-chaos.ts). Prints the figures and the checks; exit
 * code 0 when every check passed, 1 when one failed, 2 on bad flags. Build first (`npm run build`).
 */
import { formatReport } from './report.js';
import { parseChaosArgs, UsageError, USAGE, type ChaosOptions } from './options.js';
import { runChaos } from './run-chaos.js';

let opts: ChaosOptions;
try {
  opts = parseChaosArgs(process.argv.slice(2));
} catch (err) {
  if (!(err instanceof UsageError)) throw err;
  process.stderr.write(`chaos: ${err.message}\n${USAGE}\n`);
  process.exit(2);
}
// Exit through process.exit so the daemon's orphan guard (daemon.ts) kills a running daemon.
process.on('SIGINT', () => process.exit(130));
process.on('SIGTERM', () => process.exit(143));
const report = await runChaos(opts);
process.stdout.write(`${formatReport(report)}\n`);
process.exit(report.ok ? 0 : 1);
