/**
 * The backtest command runs its run in a worker (run-thread.ts) and supervises it from the
 * process's main thread. With the strategies in the run's thread (`--strategies thread`, the
 * default), nothing inside that thread can stop a hook that runs on or allocates without end; from
 * outside it can be:
 * - **time**: the run writes a heartbeat into shared memory (run-watch.ts); a hook call that has
 *   not returned within `plugins.hookDeadlineMs`, or a run loop that has not moved for
 *   `RUN_STALL_MS` outside any call, ends the run with a line naming the instance and the hook;
 * - **heap**: the worker's V8 heap is bounded (`heapBoundMb`); past it V8 stops the worker and the
 *   run ends with a line saying so, where it would otherwise take the machine's memory.
 * In the daemon and under `--strategies worker` each instance has its own worker, which is stopped
 * alone (docs/sandbox.md); here the run's thread holds every instance, so the run ends.
 *
 * The worker's environment leaves out the live venue's keys and links (a backtest holds no
 * secret), and its temp dir is one the supervisor made and removes whatever ended the run (a
 * stopped worker's own exit hooks do not run).
 */
import { Worker } from 'node:worker_threads';
import type { BotConfig } from '../config/index.js';
import type { Clock, TimerHandle } from '../core/clock.js';
import { privateTempDir, removeDir } from '../store/files.js';
import { workerEntry } from '../strategy-api/sandbox/entry-path.js';
import { failure, heapText, stallText } from './cli-text.js';
import type { StrategiesIn } from './engine-wiring.js';
import { LIVE_ONLY_ENV } from './backtest-config.js';
import type { RunThreadData, StopMessage } from './run-thread.js';
import { readWatch, runWatchBuffer, StallJudge, watchedInstances } from './run-watch.js';

/**
 * The heap the engine itself may take, MB: a year of the default config peaks near 310 MB of
 * RSS with a live heap well under half of it (docs/backtesting.md § Speed); the rest is headroom.
 */
const ENGINE_HEAP_MB = 1024;

/** Real time the run loop may stay still outside any hook call: a step's engine work takes milliseconds. */
const RUN_STALL_MS = 30_000;

/** After a signal, how long the run has to end by itself (its exit hooks) before it is stopped (a second signal: at once). */
const STOP_GRACE_MS = 2_000;

/** The run's heap bound: the engine's share, and each enabled instance's `sandbox.memoryMb` when they run in its thread. */
function heapBoundMb(config: BotConfig, strategiesIn: StrategiesIn): number {
  const instances = strategiesIn === 'thread' ? config.strategies.filter((s) => s.enabled).length : 0;
  return ENGINE_HEAP_MB + instances * config.sandbox.memoryMb;
}

export interface SuperviseInputs {
  /** The command line, parsed again in the worker. */
  argv: string[];
  config: BotConfig;
  strategiesIn: StrategiesIn;
  tty: boolean;
  /** When the command started (the system clock's `now()`). */
  startedAtMs: number;
  /** Writes a line of the command's own to stderr. */
  say: (text: string) => void;
  /** Real time, for the watchdog's looks and the grace after a signal. */
  clock: Clock;
}

/** The process's environment without the live venue's keys and links, its temp dir `tmp`. */
function runEnv(tmp: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, TMPDIR: tmp };
  for (const name of LIVE_ONLY_ENV) delete env[name];
  return env;
}

/** The run's worker: its heartbeat `watch`, its temp dir `tmp`, its heap bounded to `heapMb`. */
function startRun(i: SuperviseInputs, watch: SharedArrayBuffer, tmp: string, heapMb: number): Worker {
  const entry = workerEntry(import.meta.url, 'run-thread');
  const data: RunThreadData = { argv: i.argv, tty: i.tty, startedAtMs: i.startedAtMs, watch };
  // The command's own Node options are the run's (`node --cpu-prof …` profiles the run): unlike a
  // strategy's worker, this one runs the engine, not untrusted code.
  const options = { ...entry.options, execArgv: undefined, workerData: data, env: runEnv(tmp), resourceLimits: { maxOldGenerationSizeMb: heapMb } };
  return new Worker(entry.script, options);
}

/** Starts the run's worker and resolves with the exit code the command ends with. */
export function superviseRun(i: SuperviseInputs): Promise<number> {
  const tmp = privateTempDir('v4bot-backtest-run-');
  const watch = runWatchBuffer();
  const heapMb = heapBoundMb(i.config, i.strategiesIn);
  const worker = startRun(i, watch, tmp, heapMb);
  return new Promise<number>((resolve) => {
    let ended: number | undefined;
    const end = (code: number, text?: string): void => {
      if (ended !== undefined) return;
      ended = code;
      if (text !== undefined) i.say(text);
      watching?.stop();
      process.off('SIGINT', onInt).off('SIGTERM', onTerm);
      void worker.terminate().finally(() => {
        removeDir(tmp);
        resolve(code);
      });
    };
    const watching = i.strategiesIn === 'thread' ? watchStalls(i, watch, (text) => end(1, text)) : undefined;
    let stopping = false;
    // A second signal (an impatient Ctrl-C) ends the run at once; it must not meet Node's default
    // action, which would kill the process before the run's temp dir is removed.
    const stop = (code: number): void => {
      if (stopping) return end(code);
      stopping = true;
      worker.postMessage({ type: 'stop', code } satisfies StopMessage);
      i.clock.setTimeout(() => end(code), STOP_GRACE_MS);
    };
    const onInt = (): void => stop(130);
    const onTerm = (): void => stop(143);
    process.on('SIGINT', onInt).on('SIGTERM', onTerm);
    worker.once('error', (err: Error & { code?: string }) => end(1, err.code === 'ERR_WORKER_OUT_OF_MEMORY' ? heapText(heapMb) : failure(err).text));
    worker.once('exit', (code) => end(code));
  });
}

/** Looks at the run's heartbeat a few times per deadline; `stalled` hears the line to end the run with. */
function watchStalls(i: SuperviseInputs, watch: SharedArrayBuffer, stalled: (text: string) => void): { stop: () => void } {
  const ids = watchedInstances(i.config);
  const deadlineMs = i.config.plugins.hookDeadlineMs;
  const judge = new StallJudge(deadlineMs, RUN_STALL_MS);
  const every = Math.min(1000, Math.max(5, Math.floor(deadlineMs / 5)));
  let timer: TimerHandle | undefined;
  const look = (): void => {
    const stall = judge.look(readWatch(watch, ids), i.clock.now());
    if (stall !== undefined) stalled(stallText(stall, deadlineMs));
    else timer = i.clock.setTimeout(look, every);
  };
  timer = i.clock.setTimeout(look, every);
  return { stop: () => timer !== undefined && i.clock.clearTimeout(timer) };
}
