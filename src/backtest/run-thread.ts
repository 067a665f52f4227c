/**
 * The backtest command's run, in a worker of the command's process (run-supervisor.ts starts,
 * bounds and watches it): the command line parsed again, the run (index.ts `backtest`), the
 * progress bar and the lines said at the end. Everything is written to descriptor 2 directly
 * (synchronous, in order with the engine's log lines): a worker's `process.stderr` reaches the
 * terminal only through the main thread, later. A failure writes its line and ends the worker
 * with the exit code the command ends with (1, or 2 for a bad flag, config or input file).
 */
import { writeSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import pino from 'pino';
import { parseArgs } from './args.js';
import { failure, progressBar, resolutionLine, summaryLine, warmUpLine } from './cli-text.js';
import { backtest, type BacktestHooks } from './index.js';
import { installZeroDelayTimers } from './zero-delay-timers.js';
import { SystemClock } from '../core/clock.js';
import { createLogger } from '../observability/logger.js';

/** What the supervisor hands the run's worker. */
export interface RunThreadData {
  argv: string[];
  /** stderr is a terminal: draw the progress bar. */
  tty: boolean;
  /** When the command started (the system clock's `now()` in the main thread: the same clock here). */
  startedAtMs: number;
  watch: SharedArrayBuffer;
}

/** A message from the supervisor: end now with `code` (a signal), so that the exit hooks run. */
export interface StopMessage {
  type: 'stop';
  code: number;
}

const say = (text: string): void => void writeSync(2, text);

async function run(data: RunThreadData): Promise<void> {
  const args = parseArgs(data.argv);
  installZeroDelayTimers();
  const logger = createLogger({ level: args.logLevel, destination: pino.destination(2), base: { app: 'v4-bot-backtest' } });
  const clock = new SystemClock();
  const elapsed = (): number => clock.now() - data.startedAtMs;
  const hooks: BacktestHooks = { watchBuffer: data.watch };
  if (data.tty) hooks.onProgress = (p) => say(progressBar(p, elapsed()));
  const s = await backtest(args, logger, hooks);
  if (data.tty) say('\n');
  for (const line of [warmUpLine(s), resolutionLine(s, args.jobResolution)]) if (line !== undefined) say(line);
  say(summaryLine(s, elapsed()));
}

parentPort?.on('message', (m: StopMessage) => {
  if (m.type === 'stop') process.exit(m.code);
});
// The port alone does not keep the run's worker alive once the run is over.
parentPort?.unref();

run(workerData as RunThreadData).then(
  () => process.exit(0),
  (err: unknown) => {
    const f = failure(err);
    say(f.text);
    process.exit(f.code);
  },
);
