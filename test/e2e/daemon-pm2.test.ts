/**
 * pm2 runs the ecosystem file: with a temp PM2_HOME and data dir, the app goes online only after
 * the daemon signalled ready (its `/healthz` answers ok), and `pm2 stop` stops it gracefully (pm2
 * records SIGINT and exit code 0, no SIGKILL; the store is closed). `pm2 kill` in teardown.
 */
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LOCK_PID_FILE } from '../../src/store/lock.js';
import { freePort, ROOT, tempDir } from '../support/daemon-process.js';
import { eventually } from '../support/eventually.js';

/** A daemon needs seconds to start and trade: poll for its effects slowly, and long enough. */
const WAIT = { timeoutMs: 30_000, everyMs: 250 };
const PM2 = path.join(ROOT, 'node_modules/pm2/bin/pm2');
const pm2Home = tempDir('v4bot-pm2-');
const dataDir = tempDir();
const httpPort = await freePort();

function env(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !/^(BOT_|API_|ENV_FILE|PM2_)/.test(k)) out[k] = v;
  return { ...out, PM2_HOME: pm2Home, BOT_DATA_DIR: dataDir, BOT_HTTP_PORT: String(httpPort), LOG_LEVEL: 'info' };
}

function pm2(...args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [PM2, ...args], { cwd: ROOT, env: env(), timeout: 60_000 }, (err, stdout) => (err === null ? resolve(stdout) : reject(err)));
  });
}

interface Proc {
  name: string;
  pm2_env: { status: string; restart_time: number };
}

async function list(): Promise<Proc[]> {
  return JSON.parse(await pm2('jlist')) as Proc[];
}


afterAll(async () => {
  await pm2('kill').catch(() => undefined);
});

describe('pm2', () => {
  it('starts the ecosystem (online after ready) and stops it gracefully', async () => {
    await pm2('start', path.join(ROOT, 'ecosystem.config.cjs'));
    // With wait_ready, `pm2 start` returns once the app is online, i.e. after process.send('ready').
    const online = await eventually(async () => (await list()).find((p) => p.name === 'v4-bot' && p.pm2_env.status === 'online'), 'online', WAIT);
    expect(online.pm2_env.restart_time).toBe(0);
    const health = await fetch(`http://127.0.0.1:${httpPort}/healthz`);
    expect(health.status).toBe(200);

    await pm2('stop', 'v4-bot');
    await eventually(async () => (await list()).find((p) => p.name === 'v4-bot')?.pm2_env.status === 'stopped', 'stopped', WAIT);
    // pm2's own record of how the process ended (not the daemon's log).
    const pm2Log = readFileSync(path.join(pm2Home, 'pm2.log'), 'utf8');
    expect(pm2Log).toMatch(/exited with code \[0\] via signal \[SIGINT\]/);
    expect(pm2Log).not.toMatch(/SIGKILL/);
    expect(existsSync(path.join(dataDir, LOCK_PID_FILE))).toBe(false);
  });
});
