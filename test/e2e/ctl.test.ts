/**
 * `npm run ctl` against the real built daemon: pause stops a strategy's ticks and resume restarts
 * them (and a pause survives a restart), unquarantine lets a quarantined strategy's hooks run
 * again, halt shows in `/healthz`, cancel-all leaves no open order, resume-trading; the CLI's
 * errors and exit codes (unknown strategy, wrong token, daemon not running). The cancel-all test
 * runs the daemon live against a simulator in this process, so the venue's own book is checked.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SystemClock } from '../../src/core/clock.js';
import { readQuarantined } from '../../src/engine/status-records.js';
import { openStoreReadOnly } from '../../src/store/index.js';
import { startSimulator, type SimulatorHandle } from '../../src/simulator/index.js';
import { freePort, ROOT, spawnDaemon, writeConfig, type DaemonProcess } from '../support/daemon-process.js';
import { tempDir } from '../support/temp-dir.js';
import { eventually } from '../support/eventually.js';

/** A daemon needs seconds to start and trade: poll slowly, and long enough. */
const WAIT = { timeoutMs: 45_000, everyMs: 250 };

const grid = (id: string, spacingPct: string): Record<string, unknown> => ({
  module: 'spot-grid',
  id,
  budgetQuote: '5000',
  schedule: '* * * * * *',
  params: { market: 'BTC_USDT', levels: 3, spacingPct, orderAmount: '0.001' },
});

/** `bad` asks for negative prices (3 levels of 40 %): invalid intents, quarantined on its first tick. */
const config = {
  markets: { BTC_USDT: { tick: '0.01', step: '0.000001', minAmount: '0.00001', minTotalQuote: '5.05', maxPositionBase: '1' } },
  strategies: [grid('grid', '0.1'), grid('bad', '40')],
  risk: { maxNotionalPerOrderQuote: '500' },
  plugins: { errorBudget: 1, hookDeadlineMs: 10_000 },
};

interface StrategyState {
  id: string;
  paused: boolean;
  quarantined: boolean;
  ticks: { ran: number; held: number };
  openOrders: number;
}
interface ConsoleState {
  tradingState: string;
  strategies: StrategyState[];
  openOrders: { state: string }[];
}

let running: DaemonProcess[] = [];
let sims: SimulatorHandle[] = [];
afterEach(async () => {
  for (const d of running) d.child.kill('SIGKILL');
  for (const s of sims) await s.close();
  running = [];
  sims = [];
});

function ctl(env: Record<string, string>, cwd: string, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(BOT_|API_|ENV_FILE)/.test(k)));
  return new Promise((resolve) => {
    execFile(process.execPath, [path.join(ROOT, 'dist/src/cli/ctl.js'), ...args], { cwd, env: { ...clean, ...env } }, (err, stdout, stderr) => {
      resolve({ code: err === null ? 0 : ((err as { code?: number }).code ?? -1), stdout, stderr });
    });
  });
}

async function state(port: number): Promise<ConsoleState> {
  const r = await fetch(`http://127.0.0.1:${port}/api/state`);
  return (await r.json()) as ConsoleState;
}

const strategy = (st: ConsoleState, id: string): StrategyState => st.strategies.find((s) => s.id === id) as StrategyState;

function storedQuarantines(dataDir: string): string[] {
  const store = openStoreReadOnly(dataDir, new SystemClock());
  try {
    return readQuarantined(store.meta).map((q) => q.strategyId);
  } finally {
    store.close();
  }
}

async function healthz(port: number): Promise<{ code: number; tradingState: string }> {
  const r = await fetch(`http://127.0.0.1:${port}/healthz`);
  return { code: r.status, tradingState: ((await r.json()) as { tradingState: string }).tradingState };
}

describe('ctl against a paper daemon', () => {
  it('pauses and resumes ticks, lifts a quarantine, halts, cancels everything and resumes trading', async () => {
    const port = await freePort();
    const cwd = tempDir();
    const env = { BOT_CONFIG: writeConfig(config), BOT_DATA_DIR: path.join(tempDir(), 'data'), BOT_HTTP_PORT: String(port) };
    const daemon = spawnDaemon(env, cwd);
    running.push(daemon);
    await eventually(async () => {
      const st = await state(port);
      return strategy(st, 'grid').openOrders > 0 && strategy(st, 'bad').quarantined;
    }, 'grid orders and bad quarantined', WAIT);

    // pause: no tick runs any more while the schedule keeps firing.
    const paused = await ctl(env, cwd, 'pause', 'grid');
    expect(paused).toMatchObject({ code: 0 });
    expect(paused.stdout).toContain('pause grid: strategy grid paused');
    const ranAtPause = strategy(await state(port), 'grid').ticks.ran;
    const held = await eventually(async () => {
      const g = strategy(await state(port), 'grid');
      return g.ticks.held >= 3 ? g : undefined;
    }, 'three held ticks', WAIT);
    expect(held.ticks.ran).toBe(ranAtPause);
    expect(held.paused).toBe(true);
    // The job reads as paused, not as a tick that ran, on /healthz and on the dashboard.
    const jobsNow = async (url: string) => ((await (await fetch(url)).json()) as { jobs: Record<string, { lastOutcome: string }> }).jobs;
    expect((await jobsNow(`http://127.0.0.1:${port}/healthz`))['strategy:grid']?.lastOutcome).toBe('paused');
    expect((await jobsNow(`http://127.0.0.1:${port}/api/state`))['strategy:grid']?.lastOutcome).toBe('paused');

    expect((await ctl(env, cwd, 'resume', 'grid')).code).toBe(0);
    await eventually(async () => strategy(await state(port), 'grid').ticks.ran > ranAtPause, 'ticks after resume', WAIT);

    // unquarantine: paused first, so the broken strategy stays released until it runs again.
    expect((await ctl(env, cwd, 'pause', 'bad')).code).toBe(0);
    const lifted = await ctl(env, cwd, 'unquarantine', 'bad');
    expect(lifted.code).toBe(0);
    expect(lifted.stdout).toContain('released from quarantine');
    expect(strategy(await state(port), 'bad').quarantined).toBe(false);
    // `npm run status` reads quarantines from the store: the lifted one is gone there too.
    expect(storedQuarantines(env.BOT_DATA_DIR)).not.toContain('bad');
    const twice = await ctl(env, cwd, 'unquarantine', 'bad');
    expect(twice.code).toBe(1);
    expect(twice.stderr).toContain('not quarantined');
    // Resumed, its hooks run again (a fresh worker) and fail again: quarantined anew.
    expect((await ctl(env, cwd, 'resume', 'bad')).code).toBe(0);
    await eventually(async () => strategy(await state(port), 'bad').quarantined, 'bad quarantined again', WAIT);

    // halt: /healthz degraded and HALTED; cancel-all: nothing open, and nothing placed again.
    expect((await ctl(env, cwd, 'halt')).code).toBe(0);
    expect(await healthz(port)).toEqual({ code: 503, tradingState: 'HALTED' });
    const cancelled = await ctl(env, cwd, 'cancel-all');
    expect(cancelled.code).toBe(0);
    expect(cancelled.stdout).toMatch(/cancel-all: \d+ cancelled/);
    const ranAtCancel = strategy(await state(port), 'grid').ticks.ran;
    await eventually(async () => strategy(await state(port), 'grid').ticks.ran >= ranAtCancel + 2, 'two ticks while halted', WAIT);
    expect((await state(port)).openOrders.filter((o) => o.state === 'OPEN' || o.state === 'PARTIALLY_FILLED')).toEqual([]);

    expect((await ctl(env, cwd, 'resume-trading')).code).toBe(0);
    await eventually(async () => (await healthz(port)).code === 200, 'healthy after resume-trading', WAIT);
    expect((await healthz(port)).tradingState).toBe('ACTIVE');

    // Errors: unknown strategy (1), wrong token (4), bad arguments (2).
    const unknown = await ctl(env, cwd, 'pause', 'nope');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('unknown strategy nope (configured: grid, bad)');
    const wrong = await ctl({ ...env, BOT_CONTROL_TOKEN: 'a-wrong-token-of-enough-length-000' }, cwd, 'halt');
    expect(wrong.code).toBe(4);
    expect(wrong.stderr).toContain('wrong token');
    expect(wrong.stderr).not.toContain('a-wrong-token');
    expect((await ctl(env, cwd, 'pause')).code).toBe(2);
    expect((await healthz(port)).tradingState).toBe('ACTIVE');

    // A pause survives a restart; with the daemon gone the CLI says so.
    expect((await ctl(env, cwd, 'pause', 'grid')).code).toBe(0);
    daemon.child.kill('SIGINT');
    expect((await daemon.exited).code).toBe(0);
    const down = await ctl(env, cwd, 'halt');
    expect(down.code).toBe(3);
    expect(down.stderr).toMatch(/control-token does not exist|not reachable/);
    const again = spawnDaemon(env, cwd);
    running.push(again);
    const restarted = await eventually(async () => {
      const g = strategy(await state(port), 'grid');
      return g.ticks.held >= 1 ? g : undefined;
    }, 'a held tick after restart', WAIT);
    expect(restarted).toMatchObject({ paused: true, ticks: { ran: 0 } });
    again.child.kill('SIGINT');
    expect((await again.exited).code).toBe(0);
  });
});

describe('ctl cancel-all, checked at the venue', () => {
  it('leaves zero open orders in the venue book', async () => {
    const apiKey = 'ctl-test-key';
    const apiSecret = 'ctl-test-secret-value';
    const sim = await startSimulator({ seed: 7, accounts: [{ apiKey, apiSecret, balances: { USDT: '10000', BTC: '0.5' } }] });
    sims.push(sim);
    const port = await freePort();
    const cwd = tempDir();
    const env = {
      BOT_MODE: 'live',
      API_BASE_URL: sim.baseUrl,
      API_KEY: apiKey,
      API_SECRET: apiSecret,
      BOT_CONFIG: writeConfig({ ...config, strategies: [grid('grid', '0.1')] }),
      BOT_DATA_DIR: path.join(tempDir(), 'data'),
      BOT_HTTP_PORT: String(port),
    };
    const daemon = spawnDaemon(env, cwd);
    running.push(daemon);
    await eventually(() => sim.truth(apiKey).openOrders.length >= 4, 'grid orders at the venue', WAIT);
    expect((await ctl(env, cwd, 'halt')).code).toBe(0);
    const out = await ctl(env, cwd, 'cancel-all');
    expect(out.code).toBe(0);
    expect(sim.truth(apiKey).openOrders).toEqual([]);
    daemon.child.kill('SIGINT');
    expect((await daemon.exited).code).toBe(0);
  });
});
