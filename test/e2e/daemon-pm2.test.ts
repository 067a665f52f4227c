/**
 * pm2 runs the ecosystem file from an install dir (the repository's dist/ and node_modules linked
 * in, its own config and env files), with a temp PM2_HOME:
 * - `--env live` starts `v4-bot-live` (a live daemon against a standalone simulator on loopback);
 *   the app goes online only after the daemon signalled ready;
 * - a plain `pm2 start ecosystem.config.cjs` then starts `v4-bot-paper` beside it and, run again,
 *   never touches the live app (same pid, no restart, still live);
 * - `pm2 stop v4-bot-paper` stops it gracefully (pm2 records SIGINT and exit code 0, no SIGKILL;
 *   the store is closed) while the live app stays online.
 * `pm2 kill` and the simulator's stop in teardown.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LOCK_PID_FILE } from '../../src/store/lock.js';
import { freePort, ROOT } from '../support/daemon-process.js';
import { tempDir } from '../support/temp-dir.js';
import { eventually } from '../support/eventually.js';

/** A daemon needs seconds to start and trade: poll for its effects slowly, and long enough. */
const WAIT = { timeoutMs: 60_000, everyMs: 250 };
const PM2 = path.join(ROOT, 'node_modules/pm2/bin/pm2');
const pm2Home = tempDir('v4bot-pm2-');
const install = tempDir('v4bot-install-');
const paperData = tempDir();
const liveData = tempDir();
const paperPort = await freePort();
const livePort = await freePort();
const simPort = await freePort();

/** The install dir: the real ecosystem file and build, the repository's config, a live env file for the simulator. */
function prepareInstall(): void {
  symlinkSync(path.join(ROOT, 'dist'), path.join(install, 'dist'));
  symlinkSync(path.join(ROOT, 'node_modules'), path.join(install, 'node_modules'));
  copyFileSync(path.join(ROOT, 'ecosystem.config.cjs'), path.join(install, 'ecosystem.config.cjs'));
  mkdirSync(path.join(install, 'config'));
  for (const f of ['bot.json', 'paper.env']) copyFileSync(path.join(ROOT, 'config', f), path.join(install, 'config', f));
  const liveConfig = {
    markets: { BTC_USDT: { tick: '0.01', step: '0.000001', minAmount: '0.00001', minTotalQuote: '5.05', maxPositionBase: '1' } },
    risk: { maxNotionalPerOrderQuote: '500' },
  };
  writeFileSync(path.join(install, 'live.json'), JSON.stringify(liveConfig));
  const envLive = path.join(install, '.env.live');
  writeFileSync(envLive, `BOT_MODE=live\nBOT_CONFIG=live.json\nAPI_BASE_URL=http://127.0.0.1:${simPort}\nAPI_KEY=pm2-test-key\nAPI_SECRET=pm2-test-secret-123\n`);
  chmodSync(envLive, 0o600);
}
prepareInstall();

let sim: ChildProcess | null = null;

function env(over: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !/^(BOT_|API_|ENV_FILE|PM2_|LOG_)/.test(k)) out[k] = v;
  return { ...out, PM2_HOME: pm2Home, LOG_LEVEL: 'info', ...over };
}

const paperEnv = { BOT_DATA_DIR: paperData, BOT_HTTP_PORT: String(paperPort) };
const liveEnv = { BOT_DATA_DIR: liveData, BOT_HTTP_PORT: String(livePort) };

function pm2(over: Record<string, string>, ...args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [PM2, ...args], { cwd: install, env: env(over), timeout: 90_000 }, (err, stdout) => (err === null ? resolve(stdout) : reject(err)));
  });
}

interface Proc {
  name: string;
  pid: number;
  pm2_env: { status: string; restart_time: number };
}

async function list(): Promise<Proc[]> {
  return JSON.parse(await pm2({}, 'jlist')) as Proc[];
}

async function health(port: number): Promise<{ code: number; mode: string }> {
  const r = await fetch(`http://127.0.0.1:${port}/healthz`);
  return { code: r.status, mode: ((await r.json()) as { mode: string }).mode };
}

async function startSimulator(): Promise<void> {
  const child = spawn(process.execPath, [path.join(ROOT, 'dist/src/cli/sim.js'), '--port', String(simPort), '--api-key', 'pm2-test-key'], {
    env: { PATH: process.env['PATH'] ?? '', SIM_API_SECRET: 'pm2-test-secret-123' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  sim = child;
  let out = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  await eventually(() => out.includes('simulator listening'), 'the simulator listening', WAIT);
}

afterAll(async () => {
  await pm2({}, 'kill').catch(() => undefined);
  sim?.kill('SIGINT');
});

describe('pm2', () => {
  it('runs live and paper under their own names: starting paper never touches the live app', async () => {
    await startSimulator();
    await pm2(liveEnv, 'start', 'ecosystem.config.cjs', '--env', 'live');
    // With wait_ready, `pm2 start` returns once the app is online, i.e. after process.send('ready').
    const live = await eventually(async () => (await list()).find((p) => p.name === 'v4-bot-live' && p.pm2_env.status === 'online'), 'live online', WAIT);
    expect((await list()).map((p) => p.name)).toEqual(['v4-bot-live']);
    expect(await health(livePort)).toEqual({ code: 200, mode: 'live' });

    await pm2(paperEnv, 'start', 'ecosystem.config.cjs');
    await eventually(async () => (await list()).find((p) => p.name === 'v4-bot-paper' && p.pm2_env.status === 'online'), 'paper online', WAIT);
    expect(await health(paperPort)).toEqual({ code: 200, mode: 'paper' });
    // Again, as an operator who forgot it was running: pm2 restarts the paper app only.
    await pm2(paperEnv, 'start', 'ecosystem.config.cjs');
    await eventually(async () => (await list()).find((p) => p.name === 'v4-bot-paper' && p.pm2_env.status === 'online'), 'paper online again', WAIT);

    const liveAfter = (await list()).find((p) => p.name === 'v4-bot-live');
    expect(liveAfter?.pid).toBe(live.pid);
    expect(liveAfter?.pm2_env).toMatchObject({ status: 'online', restart_time: 0 });
    expect(await health(livePort)).toEqual({ code: 200, mode: 'live' });

    await pm2({}, 'stop', 'v4-bot-paper');
    await eventually(async () => (await list()).find((p) => p.name === 'v4-bot-paper')?.pm2_env.status === 'stopped', 'paper stopped', WAIT);
    // pm2's own record of how the process ended (not the daemon's log).
    const pm2Log = readFileSync(path.join(pm2Home, 'pm2.log'), 'utf8');
    expect(pm2Log).toMatch(/v4-bot-paper.*exited with code \[0\] via signal \[SIGINT\]/);
    expect(pm2Log).not.toMatch(/SIGKILL/);
    expect(existsSync(path.join(paperData, LOCK_PID_FILE))).toBe(false);
    expect((await list()).find((p) => p.name === 'v4-bot-live')?.pm2_env.status).toBe('online');
  });
});
