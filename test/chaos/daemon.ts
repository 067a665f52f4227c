/**
 * The built daemon (`dist/src/cli/daemon.js`) as a child process in live mode, started, killed
 * and restarted by the chaos run. Readiness and state come from `/healthz` only (never logs).
 * Every run is recorded: how it ended and whether it ended on its own.
 */
import { freePort, spawnDaemon, type DaemonProcess } from '../support/daemon-process.js';
import { eventually } from '../support/eventually.js';

export interface DaemonRun {
  index: number;
  /** Reached `/healthz` 200 (start-up reconciliation done, schedules running). */
  ready: boolean;
  /** How the run was ended by the chaos run; null when it ended on its own (a failure). */
  endedBy: 'kill' | 'term' | null;
  code: number | null;
  signal: string | null;
}

export interface Health {
  status: string;
  tradingState: string;
  unknownOrders: number;
  jobs: Record<string, { lastRunMs: number | null }>;
}

export class ChaosDaemon {
  readonly runs: DaemonRun[] = [];
  private current: { proc: DaemonProcess; run: DaemonRun; port: number } | null = null;

  /** `env`: BOT_MODE, API_*, BOT_CONFIG, BOT_DATA_DIR (the port is chosen per run); `cwd`: the runs' working dir. */
  constructor(
    private readonly env: Record<string, string>,
    private readonly cwd: string,
  ) {}

  get running(): boolean {
    return this.current !== null;
  }

  /** Spawns a run without waiting for it to be ready. */
  async spawn(extraEnv: Record<string, string> = {}): Promise<void> {
    if (this.current !== null) throw new Error('daemon already running');
    const port = await freePort();
    const proc = spawnDaemon({ LOG_LEVEL: 'warn', ...this.env, ...extraEnv, BOT_HTTP_PORT: String(port) }, this.cwd);
    const run: DaemonRun = { index: this.runs.length, ready: false, endedBy: null, code: null, signal: null };
    this.runs.push(run);
    this.current = { proc, run, port };
    // A live daemon must not outlive the run that started it (Ctrl-C, a failed assertion).
    const orphanGuard = (): void => void proc.child.kill('SIGKILL');
    process.once('exit', orphanGuard);
    void proc.exited.then(({ code, signal }) => {
      process.off('exit', orphanGuard);
      run.code = code;
      run.signal = signal;
      if (this.current?.run === run) this.current = null;
    });
  }

  async healthz(): Promise<Health | undefined> {
    const cur = this.current;
    if (cur === null) return undefined;
    const res = await fetch(`http://127.0.0.1:${cur.port}/healthz`);
    return res.status === 200 ? ((await res.json()) as Health) : undefined;
  }

  /** Waits until the current run answers `/healthz` 200; throws when it exits first. */
  async waitReady(timeoutMs = 30_000): Promise<void> {
    const cur = this.current;
    if (cur === null) throw new Error('no daemon running');
    const exited = cur.proc.exited.then(({ code }) => {
      throw new Error(`daemon run ${cur.run.index} exited (code ${String(code)}) before it was ready`);
    });
    const ready = eventually(async () => (await this.healthz()) !== undefined, `daemon run ${cur.run.index} ready`, { timeoutMs, everyMs: 100 });
    // Whichever settles first; the loser's rejection is handled so it never goes unobserved.
    exited.catch(() => undefined);
    await Promise.race([ready, exited]);
    cur.run.ready = true;
  }

  /** Spawns and waits for readiness; a run that dies in start-up is recorded and retried. */
  async start(extraEnv: Record<string, string> = {}, attempts = 3): Promise<void> {
    for (let i = 1; ; i++) {
      await this.spawn(extraEnv);
      try {
        await this.waitReady();
        return;
      } catch (err) {
        if (this.current !== null) await this.end('kill');
        if (i >= attempts) throw err;
      }
    }
  }

  /** Ends the current run with SIGKILL (`kill`) or SIGTERM (`term`) and waits for the exit. */
  async end(how: 'kill' | 'term'): Promise<DaemonRun | undefined> {
    const cur = this.current;
    if (cur === null) return undefined;
    // A run that already exited on its own keeps endedBy null: that is what the checks look for.
    if (cur.run.code === null && cur.run.signal === null) cur.run.endedBy = how;
    cur.proc.child.kill(how === 'kill' ? 'SIGKILL' : 'SIGTERM');
    await cur.proc.exited;
    this.current = null;
    return cur.run;
  }
}
