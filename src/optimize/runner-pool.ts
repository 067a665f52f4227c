/**
 * Trial runners: `size` child processes (runner-entry.ts), each running one trial at a time and
 * reused across trials. Child processes rather than worker threads: a trial's strategy already
 * runs in sandboxed worker threads of its own, the in-thread strategy mode locks down its whole
 * process, and a runner that crashes or runs out of memory takes only itself down. A runner that
 * dies fails the trial it was running (with why) and a fresh one takes its slot on the next trial.
 *
 * From source (tsx, vitest) the entry runs through tsx's loader; from `dist/` the compiled file
 * runs as is (as src/strategy-api/sandbox/entry-path.ts does for the sandbox's workers).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { scrubSecretEnv } from '../config/index.js';
import { SystemClock } from '../core/clock.js';
import type { StudyInputs, TrialFailure, TrialOutcome, TrialSpec } from './types.js';

/** How a trial ended in a runner. `refused`: the runner's data differs from the study's (not run). */
export type TrialEnd = { ok: true; outcome: TrialOutcome } | { ok: false; failure: TrialFailure; refused: boolean };

export interface RunnerRequest {
  id: number;
  inputs: StudyInputs;
  spec: TrialSpec;
  ranBy: string;
}

export interface RunnerReply {
  id: number;
  end: TrialEnd;
}

/**
 * The runner's own temp dir, which it makes its TMPDIR once its loader is up (tsx keeps its
 * compile cache in the usual one, shared by every runner) and removes if its parent dies.
 */
export const RUNNER_TMPDIR_ENV = 'V4_BOT_RUNNER_TMPDIR';

/** Time a stopped runner has to exit on SIGTERM before it is killed. */
const STOP_GRACE_MS = 5_000;
/** Characters of a runner's stderr kept, to say why it died. */
const STDERR_TAIL = 2_000;

function runnerEntry(): { file: string; execArgv: string[] } {
  const here = import.meta.url;
  if (!here.endsWith('.ts')) return { file: fileURLToPath(new URL('./runner-entry.js', here)), execArgv: [] };
  const tsx = pathToFileURL(path.join(path.dirname(createRequire(here).resolve('tsx/package.json')), 'dist/esm/index.mjs')).href;
  return { file: fileURLToPath(new URL('./runner-entry.ts', here)), execArgv: ['--import', tsx] };
}

/** One child process; `end` settles when it answers or exits. */
class Runner {
  readonly child: ChildProcess;
  private pending: { id: number; key: string; resolve: (end: TrialEnd) => void } | null = null;
  private stderr = '';
  private nextId = 0;
  readonly exited: Promise<void>;

  constructor(onExit: (r: Runner) => void) {
    // Its own temp dir (the backtest's stores go there), removed when it exits, even if killed.
    const tmp = mkdtempSync(path.join(os.tmpdir(), 'v4-bot-trial-runner-'));
    const env: Record<string, string | undefined> = { ...process.env, [RUNNER_TMPDIR_ENV]: tmp };
    scrubSecretEnv(env);
    const entry = runnerEntry();
    this.child = fork(entry.file, [], { execArgv: entry.execArgv, env, serialization: 'advanced', stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
    this.child.stderr?.on('data', (d: Buffer) => (this.stderr = (this.stderr + d.toString()).slice(-STDERR_TAIL)));
    this.child.on('message', (m: RunnerReply | { ready: true }) => {
      if (!('id' in m) || this.pending?.id !== m.id) return;
      const { resolve } = this.pending;
      this.pending = null;
      resolve(m.end);
    });
    this.exited = new Promise((resolve) => {
      const gone = (why: string): void => {
        rmSync(tmp, { recursive: true, force: true });
        this.failPending(why);
        onExit(this);
        resolve();
      };
      this.child.once('exit', (code, signal) => gone(`exited (${signal === null ? `exit code ${code}` : `signal ${signal}`})`));
      this.child.once('error', (err) => {
        if (this.child.exitCode === null && this.child.signalCode === null && this.child.pid === undefined) gone(`could not start (${err.message})`);
      });
    });
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  get busy(): boolean {
    return this.pending !== null;
  }

  run(inputs: StudyInputs, spec: TrialSpec, ranBy: string): Promise<TrialEnd> {
    return new Promise((resolve) => {
      const id = ++this.nextId;
      this.pending = { id, key: spec.key, resolve };
      this.child.send({ id, inputs, spec, ranBy } satisfies RunnerRequest, (err) => {
        if (err !== null) this.failPending(`could not be sent the trial (${err.message})`);
      });
    });
  }

  private failPending(why: string): void {
    const p = this.pending;
    if (p === null) return;
    this.pending = null;
    const last = this.stderr.trim().split('\n').at(-1)?.slice(0, 300);
    const error = `the trial runner (pid ${this.pid ?? '?'}) ${why} while running the trial${last === undefined || last === '' ? '' : `: ${last}`}`;
    p.resolve({ ok: false, failure: { key: p.key, error }, refused: false });
  }

  async stop(): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) {
      this.child.kill('SIGTERM');
      const grace = new AbortController();
      new SystemClock().sleep(STOP_GRACE_MS, grace.signal).then(
        () => this.child.kill('SIGKILL'),
        () => undefined,
      );
      await this.exited;
      grace.abort();
    }
    await this.exited;
  }
}

/** `size` reusable runners; `run` waits for a free one. */
export class RunnerPool {
  private readonly runners: Array<Runner | null>;
  private readonly free: number[];
  private readonly waiting: Array<(slot: number) => void> = [];

  constructor(
    readonly size: number,
    private readonly label: (slot: number) => string,
  ) {
    if (!Number.isInteger(size) || size < 1) throw new RangeError(`runner pool: size must be an integer >= 1, got ${size}`);
    this.runners = Array.from({ length: size }, () => null);
    this.free = Array.from({ length: size }, (_, i) => i);
  }

  /** Process ids of the runners busy with a trial (for tests that kill one mid-trial). */
  busyPids(): number[] {
    return this.runners.flatMap((r) => (r?.busy === true && r.pid !== undefined ? [r.pid] : []));
  }

  async run(inputs: StudyInputs, spec: TrialSpec): Promise<TrialEnd> {
    const slot = this.free.shift() ?? (await new Promise<number>((resolve) => this.waiting.push(resolve)));
    try {
      const runner = this.runners[slot] ?? this.spawn(slot);
      return await runner.run(inputs, spec, this.label(slot));
    } finally {
      const next = this.waiting.shift();
      if (next === undefined) this.free.push(slot);
      else next(slot);
    }
  }

  private spawn(slot: number): Runner {
    const runner = new Runner((r) => {
      // A dead runner's slot gets a fresh one on its next trial.
      if (this.runners[slot] === r) this.runners[slot] = null;
    });
    this.runners[slot] = runner;
    return runner;
  }

  /** Stops every runner (trials in flight end as failures); the pool starts fresh ones if used again. */
  async stop(): Promise<void> {
    await Promise.all(this.runners.map((r) => r?.stop()));
  }
}
