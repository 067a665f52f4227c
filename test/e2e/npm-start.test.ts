/**
 * `npm start` runs the daemon in the foreground: SIGTERM to npm (as a service manager or a
 * terminal sends it) reaches the daemon, which stops cleanly and releases its store, leaving no
 * orphan holding the lock.
 */
import { execFile, spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/clock.js';
import { silentLogger } from '../../src/observability/logger.js';
import { openStore } from '../../src/store/index.js';
import { LOCK_PID_FILE } from '../../src/store/lock.js';
import { freePort, ROOT } from '../support/daemon-process.js';
import { tempDir } from '../support/temp-dir.js';
import { eventually } from '../support/eventually.js';

const healthy = async (port: number): Promise<boolean> => {
  try {
    return (await fetch(`http://127.0.0.1:${port}/healthz`)).status === 200;
  } catch {
    return false;
  }
};

describe('npm start', () => {
  it('stops the daemon on SIGTERM to npm, store released', async () => {
    const port = await freePort();
    const dataDir = tempDir();
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !/^(BOT_|API_|ENV_FILE|LOG_LEVEL|PM2_|npm_)/.test(k)) env[k] = v;
    const npm = spawn('npm', ['start', '--silent'], {
      cwd: ROOT,
      env: { ...env, ENV_FILE: 'config/paper.env', BOT_DATA_DIR: dataDir, BOT_HTTP_PORT: String(port), LOG_LEVEL: 'warn' },
      stdio: 'ignore',
    });
    const exited = new Promise<void>((resolve) => npm.once('close', () => resolve()));
    try {
      await eventually(() => healthy(port), 'the daemon healthy', { timeoutMs: 60_000, everyMs: 250 });
      expect(existsSync(path.join(dataDir, LOCK_PID_FILE))).toBe(true);
      npm.kill('SIGTERM');
      await exited;
      await eventually(async () => !existsSync(path.join(dataDir, LOCK_PID_FILE)) && !(await healthy(port)), 'the daemon stopped', { timeoutMs: 20_000, everyMs: 100 });
    } finally {
      npm.kill('SIGKILL');
    }
  });

  it('npm run status does not rebuild when dist/ is current: no file in dist/ is rewritten', async () => {
    const dataDir = tempDir();
    openStore({ dataDir, clock: new ManualClock(), logger: silentLogger() }).close();
    const stamps = (): Map<string, number> => {
      const out = new Map<string, number>();
      const walk = (dir: string): void => {
        for (const e of readdirSync(dir, { withFileTypes: true })) {
          const p = path.join(dir, e.name);
          if (e.isDirectory()) walk(p);
          else out.set(p, statSync(p).mtimeMs);
        }
      };
      walk(path.join(ROOT, 'dist'));
      return out;
    };
    const before = stamps();
    const stdout = await new Promise<string>((resolve, reject) => {
      execFile('npm', ['run', 'status', '--silent', '--', '--json', '--data-dir', dataDir], { cwd: ROOT }, (err, out) => (err === null ? resolve(out) : reject(err)));
    });
    expect((JSON.parse(stdout) as { dataDir: string }).dataDir).toBe(dataDir);
    const after = stamps();
    expect(after.size).toBe(before.size);
    expect([...after].filter(([file, ms]) => before.get(file) !== ms)).toEqual([]);
  });
});
