/**
 * What the backtest command prints on stderr: `--help`, the progress bar on a terminal (candles
 * per second and the time left), and the lines said once (the job resolution, the summary).
 */
import { ConfigError, errorCode, errorMessage } from '../core/errors.js';
import type { BacktestSummary } from './index.js';
import type { Progress } from './run.js';
import type { Stall } from './run-watch.js';

export const HELP = `Usage: npm run backtest -- --prices <file.csv|dir> [options]

Replays price candles through the configured strategies on the live engine and a simulated venue
(docs/backtesting.md). Writes result.json, report.html and venue-fills.json into --out.

  --prices <path>           CSV file or directory of <MARKET>.csv files: time,open,high,low,close[,volume]
                            (one-minute candles) or time,price[,volume]
  --config <file>           bot config (default config/bot.json)
  --from <time>, --to <time>  span (ISO-8601 UTC or Unix seconds/ms; default: the whole file)
  --out <dir>               output directory (default backtest-out)
  --job-resolution <r>      step (default): a job scheduled more often than the candles fires once per
                            candle; cron: every fire of every schedule, as the daemon
  --venue <v>               in-process (default) or http (the simulator over loopback HTTP: the wire path)
  --strategies <s>          thread (default): hooks in the run's thread under the sandbox's evaluation
                            (faster; a hook past its deadline, or the run past its heap bound, ends
                            the run); worker: one sandboxed worker per instance, as the daemon (such
                            an instance is stopped and the run goes on)
  --fill <through|at>       a resting order fills when the price trades through it (default) or touches it
  --volume-share <d>        share of a candle's volume one order may take (default 0.1)
  --volume-per-step <d>     volume of a candle without one (default: the config's paper.volumePerStep)
  --maker-fee <d>, --taker-fee <d>  fee rates (default 0.001)
  --log-level <level>       engine log level on stderr (default error)
  --help                    this text
`;

function iso(ms: number): string {
  return new Date(ms).toISOString().replace(/:\d\d\.\d{3}Z$/, 'Z');
}

function duration(s: number): string {
  if (!Number.isFinite(s)) return '--';
  const m = Math.floor(s / 60);
  return m > 0 ? `${m}m${String(Math.round(s % 60)).padStart(2, '0')}s` : `${s.toFixed(0)}s`;
}

/** A progress bar for a terminal: `wallMs` is the real time since the run started. */
export function progressBar(p: Progress, wallMs: number, width = 24): string {
  const share = Math.min(1, (p.nowMs - p.fromMs) / Math.max(1, p.toMs - p.fromMs));
  const filled = Math.round(share * width);
  const candles = Math.floor((p.nowMs - p.fromMs) / p.stepMs);
  const rate = candles / Math.max(0.001, wallMs / 1000);
  const left = ((p.toMs - p.nowMs) / p.stepMs) / rate;
  const bar = `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}]`;
  return `\r${bar} ${(share * 100).toFixed(1).padStart(5)} %  ${iso(p.nowMs)}  ${Math.round(rate)} candles/s  ETA ${duration(left)}  orders ${p.orders}  fills ${p.fills}   `;
}

/** Said once, when some schedules are finer than the candles: which jobs and how they fired. */
export function resolutionLine(s: BacktestSummary, resolution: string): string | undefined {
  if (s.finerJobs.length === 0) return undefined;
  const stepS = Number(s.result.inputs.fillModel['stepMs'] ?? '0') / 1000;
  const how = resolution === 'step' ? 'fired once per candle (--job-resolution cron for their exact schedules)' : 'fired at every cron time (--job-resolution cron)';
  return `job resolution ${resolution}: ${s.finerJobs.join(', ')} are scheduled more often than the ${stepS} s candles; ${how}\n`;
}

/** Said when strategies declare candle history: which candles warmed their windows up, and where trading starts. */
export function warmUpLine(s: BacktestSummary): string | undefined {
  const w = s.result.inputs.warmUp;
  if (w === undefined) return undefined;
  return `warm-up ${iso(w.fromMs)} .. ${iso(w.untilMs)}: the input's candles fill the declared history (${w.windows}); trading and metrics start at ${iso(w.untilMs)}\n`;
}

export function summaryLine(s: BacktestSummary, wallMs: number): string {
  const t = s.result.total;
  const { fromMs, toMs } = s.result.inputs;
  const candles = Math.round((toMs - fromMs) / Number(s.result.inputs.fillModel['stepMs'] ?? '60000'));
  return (
    `backtest ${iso(fromMs)} .. ${iso(toMs)}: ${candles} candles in ${(wallMs / 1000).toFixed(1)} s, orders ${t.orders}, fills ${t.fills}, ` +
    `trades ${t.trades}, net PnL ${t.netPnl}, fees ${t.fees}, max drawdown ${t.maxDrawdown} → ${s.outDir}/result.json, ${s.outDir}/report.html\n`
  );
}

/** A run that failed: exit code 2 for a bad flag, config or input file (the message names it), else 1. */
export function failure(err: unknown): { code: 1 | 2; text: string } {
  if (err instanceof ConfigError) return { code: 2, text: `v4-bot backtest: ${err.message}\n` };
  return { code: 1, text: `v4-bot backtest: failed: ${errorCode(err)}: ${errorMessage(err)}\n` };
}

const WORKER_MODE = 'with --strategies worker each instance runs in a worker of its own, which is stopped alone and the run goes on';

/** The supervisor stopped a run that no longer moved (run-supervisor.ts). */
export function stallText(s: Stall, deadlineMs: number): string {
  const seconds = (s.ms / 1000).toFixed(1);
  if (s.kind === 'hook') {
    const who = `strategy ${s.instanceId ?? '?'}: ${s.hook ?? 'a hook'}`;
    return `v4-bot backtest: stopped: ${who} ran ${seconds} s, past its deadline (plugins.hookDeadlineMs = ${deadlineMs}); a hook in the run's thread cannot be stopped alone (${WORKER_MODE})\n`;
  }
  const last = s.lastInstanceId === undefined ? '' : ` (the last hook called: ${s.lastInstanceId} ${s.lastHook ?? ''}; an async hook's code after its first await runs outside its call)`;
  return `v4-bot backtest: stopped: the run made no progress for ${seconds} s outside any hook call${last}\n`;
}

/** The run's worker passed its heap bound (run-supervisor.ts). */
export function heapText(boundMb: number): string {
  return `v4-bot backtest: stopped: the run passed its heap bound of ${boundMb} MB (the engine's share and sandbox.memoryMb for each instance in the run's thread; ${WORKER_MODE})\n`;
}
