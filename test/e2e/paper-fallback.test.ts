/**
 * Set-up is `npm install` then `npm start`: with no `.env` and no `ENV_FILE`, the built daemon,
 * `ctl` and `status` (through the `v4-bot` launcher) read `config/paper.env` relative to their
 * working directory, say so, and `ctl` reaches the daemon on the port that file names.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort, ROOT, spawnDaemon, writeConfig, type DaemonProcess } from '../support/daemon-process.js';
import { tempDir } from '../support/temp-dir.js';
import { eventually } from '../support/eventually.js';

const WAIT = { timeoutMs: 45_000, everyMs: 250 };

const config = {
  markets: { BTC_USDT: { tick: '0.01', step: '0.000001', minAmount: '0.00001', minTotalQuote: '5.05', maxPositionBase: '1' } },
  strategies: [{ module: 'spot-grid', id: 'grid', budgetQuote: '5000', schedule: '* * * * * *', params: { market: 'BTC_USDT', levels: 2, spacingPct: '0.1', orderAmount: '0.001' } }],
  risk: { maxNotionalPerOrderQuote: '500' },
  paper: { startPrices: { BTC_USDT: '60000' } },
};

let running: DaemonProcess[] = [];
afterEach(() => {
  for (const d of running) d.child.kill('SIGKILL');
  running = [];
});

/** The launcher from `cwd` with none of the bot's variables in its environment. */
function launcher(cwd: string, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(BOT_|API_|ENV_FILE|LOG_LEVEL)/.test(k)));
  return new Promise((resolve) => {
    execFile(process.execPath, [path.join(ROOT, 'bin/v4-bot.js'), ...args], { cwd, env: clean }, (err, stdout, stderr) => {
      resolve({ code: err === null ? 0 : ((err as { code?: number }).code ?? -1), stdout, stderr });
    });
  });
}

describe('no .env: config/paper.env', () => {
  it('the daemon serves the port that file names, and ctl and status find it without any variable', async () => {
    const port = await freePort();
    const cwd = tempDir();
    const dataDir = path.join(tempDir(), 'data');
    mkdirSync(path.join(cwd, 'config'));
    writeFileSync(path.join(cwd, 'config/paper.env'), `BOT_MODE=paper\nBOT_CONFIG=${writeConfig(config)}\nBOT_DATA_DIR=${dataDir}\nBOT_HTTP_PORT=${port}\n`);
    const daemon = spawnDaemon({}, cwd);
    running.push(daemon);
    await eventually(async () => (await fetch(`http://127.0.0.1:${port}/healthz`).catch(() => null))?.status === 200, 'the daemon healthy on the fallback port', WAIT);
    expect(daemon.stdout()).toContain('no .env: using config/paper.env (paper mode)');

    const paused = await launcher(cwd, 'ctl', 'pause', 'grid');
    expect(paused).toMatchObject({ code: 0, stdout: 'pause grid: strategy grid paused\n' });
    expect(paused.stderr).toBe('ctl: no .env: using config/paper.env (paper mode)\n');

    const st = await launcher(cwd, 'status', '--json');
    expect(st.code).toBe(0);
    expect(st.stderr).toBe('status: no .env: using config/paper.env (paper mode)\n');
    expect(JSON.parse(st.stdout)).toMatchObject({ dataDir, mode: 'paper', paused: [{ strategyId: 'grid' }] });
  });
});
