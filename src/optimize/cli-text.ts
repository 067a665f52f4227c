/**
 * What the optimise command prints: `--help`, the progress bar on a terminal (trials done of the
 * total, the best objective so far, the time left), the summary line otherwise, and the closing
 * one-screen summary (best params, objective, walk-forward table, flags).
 */
import type { StudyProgress } from './study.js';
import type { StudyResult } from './types.js';

export const HELP = `Usage: npm run optimize -- --prices <file.csv|dir> --space <file.json> --objective <name|file.js> --out <dir> [options]
       npm run optimize -- worker --redis <url> [--concurrency N]

Tunes one strategy instance's params by running real backtests of it (docs/optimize.md). Writes
result.json and report.html into --out; the study (every finished trial) lives in a SQLite file,
so running the same command again continues where it stopped.

  --config <file>           bot config (default config/bot.json)
  --prices <path>           CSV file or directory of <MARKET>.csv files, as for the backtest
  --space <file>            the search space (JSON: strategy instance id, params and their domains)
  --strategy <id>           the tuned instance; must match the space file's "strategy" when given
  --objective <o>           sharpe, sortino, calmar, net, profit-factor, or the path of a module whose
                            default export maps a trial's outcome to a number (run in the sandbox)
  --search <grid|random>    the whole grid (default), or --trials random points of it
  --trials <n>              random search: how many distinct points to draw
  --seed <n>                random draws and every trial's simulation (default: the config's paper.seed)
  --walk-forward <k>        k rolling folds, each with --train <days> and --test <days> windows
  --from <time>, --to <time>  span of the prices to use (ISO-8601 UTC or Unix seconds/ms)
  --workers <n>             trials at once on this machine (default: every core)
  --redis <url>             run trials on workers elsewhere (BullMQ over Redis) instead
  --study <name>            keep the study in studies/<name>.sqlite (default: <out>/study.sqlite)
  --retry-failed            run the study's failed trials again (they are otherwise kept as failed)
  --out <dir>               output directory
  --fill, --volume-share, --volume-per-step, --maker-fee, --taker-fee, --job-resolution
                            the backtest's fill model and job resolution for every trial
  --help                    this text

Exit codes: 0 done; 1 the study failed; 2 bad flags, config, space or prices; 130 interrupted
(finished trials are kept: run the same command to continue).
`;

function duration(s: number): string {
  if (!Number.isFinite(s)) return '--';
  const m = Math.floor(s / 60);
  return m > 0 ? `${m}m${String(Math.round(s % 60)).padStart(2, '0')}s` : `${s.toFixed(0)}s`;
}

/** Seconds left at the rate of the trials this process ran. */
function etaSeconds(p: StudyProgress, wallMs: number): number {
  if (p.ranNow === 0) return Number.POSITIVE_INFINITY;
  return ((p.total - p.done) * wallMs) / p.ranNow / 1000;
}

/** A progress bar for a terminal: `wallMs` is the real time since the trials started. */
export function progressBar(p: StudyProgress, wallMs: number, width = 24): string {
  const share = p.total === 0 ? 1 : p.done / p.total;
  const filled = Math.round(share * width);
  const bar = `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}]`;
  const failed = p.failed > 0 ? `  failed ${p.failed}` : '';
  return `\r${bar} ${p.done}/${p.total} trials  best ${p.best ?? '--'}  ETA ${duration(etaSeconds(p, wallMs))}${failed}   `;
}

/** The line said instead of the bar when stderr is not a terminal (once at the end). */
export function progressLine(p: StudyProgress, wallMs: number): string {
  return `optimize: ${p.done}/${p.total} trials (${p.ranNow} run now in ${(wallMs / 1000).toFixed(1)} s, ${p.failed} failed), best objective ${p.best ?? 'none'}\n`;
}

function params(values: Readonly<Record<string, unknown>>): string {
  return Object.entries(values)
    .map(([k, v]) => `${k}=${String(v)}`)
    .join(' ');
}

function day(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

function foldTable(result: StudyResult): string[] {
  const folds = result.walkForward?.folds ?? [];
  if (folds.length === 0) return [];
  const rows = folds.map((f) => [String(f.fold), `${day(f.train.fromMs)}..${day(f.train.toMs)}`, `${day(f.test.fromMs)}..${day(f.test.toMs)}`, f.inSample ?? '--', f.outOfSample ?? '--', String(f.testMetrics.trades), params(f.bestParams)]);
  const head = ['fold', 'train', 'test', 'in-sample', 'out-of-sample', 'trades', 'params'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] as string).length)));
  const line = (cells: string[]): string => cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i] as number))).join('  ');
  return ['walk-forward:', `  ${line(head)}`, ...rows.map((r) => `  ${line(r)}`)];
}

/** The closing summary: where the outputs are, the best params, the folds and the flags. */
export function summary(result: StudyResult, outDir: string, studyFile: string): string {
  const failed = result.failures?.length ?? 0;
  const lines = [
    `study ${result.study}: ${result.trials.length} trials${failed > 0 ? ` (+${failed} failed)` : ''}, objective ${result.objective}, ${result.search} search, seed ${result.seed}`,
    result.best === null
      ? 'best: none (no trial produced an outcome)'
      : `best: ${params(result.best.params)}  objective ${result.best.objective ?? 'undefined'}  net PnL ${result.best.metrics.netPnl}  trades ${result.best.metrics.trades}`,
    ...foldTable(result),
    ...(result.flags.length === 0 ? ['flags: none'] : ['flags:', ...result.flags.map((f) => `  ${f.code}: ${f.message}`)]),
    `→ ${outDir}/result.json, ${outDir}/report.html (study file ${studyFile})`,
  ];
  return `${lines.join('\n')}\n`;
}
