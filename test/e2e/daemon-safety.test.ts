/**
 * Operator safety with the built daemon: a live env file others can read is refused (exit 2,
 * naming the file and `chmod 600`); credentials in API_BASE_URL are refused without being echoed;
 * a paper env file and a data dir others can read are warnings (the JSON log's `code` field) and
 * the daemon still starts and serves /healthz.
 */
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { validFileConfig } from '../support/daemon-configs.js';
import { freePort, logLines, spawnDaemon, writeConfig, type DaemonProcess } from '../support/daemon-process.js';
import { tempDir } from '../support/temp-dir.js';
import { eventually } from '../support/eventually.js';

const SECRET = 'SECRET-safety-never-print-77';
let running: DaemonProcess | null = null;
afterEach(async () => {
  if (running !== null && running.child.exitCode === null) {
    running.child.kill('SIGTERM');
    await running.exited;
  }
  running = null;
});

/** A project dir with bot.json and an env file of `mode`. */
function project(envText: string, mode: number): string {
  const cwd = tempDir('v4bot-safety-');
  writeConfig(validFileConfig(), cwd);
  writeFileSync(path.join(cwd, 'app.env'), `BOT_CONFIG=bot.json\n${envText}`);
  chmodSync(path.join(cwd, 'app.env'), mode);
  return cwd;
}

describe('daemon operator safety', () => {
  it('refuses a live env file readable by others: exit 2 naming the file and chmod 600', async () => {
    const cwd = project(`BOT_MODE=live\nBOT_DATA_DIR=./data\nAPI_BASE_URL=https://venue.invalid\nAPI_KEY=key-1234\nAPI_SECRET=${SECRET}\n`, 0o644);
    const p = spawnDaemon({ ENV_FILE: 'app.env' }, cwd);
    const { code } = await p.exited;
    expect(code).toBe(2);
    expect(p.stderr()).toContain(`chmod 600 ${path.join(cwd, 'app.env')}`);
    expect(p.stderr() + p.stdout()).not.toContain(SECRET);
  });

  it('refuses credentials in API_BASE_URL without printing them', async () => {
    const cwd = project('BOT_MODE=live\nBOT_DATA_DIR=./data\nAPI_KEY=key-1234\n', 0o600);
    const p = spawnDaemon({ ENV_FILE: 'app.env', API_BASE_URL: 'https://user:url-pass-9911@venue.invalid', API_SECRET: SECRET }, cwd);
    const { code } = await p.exited;
    expect(code).toBe(2);
    expect(p.stderr()).toContain('API_BASE_URL');
    expect(p.stderr() + p.stdout()).not.toContain('url-pass-9911');
    expect(p.stderr() + p.stdout()).not.toContain(SECRET);
  });

  it('starts in paper mode with an env file and a data dir others can read, logging a coded warning for each', async () => {
    const port = await freePort();
    const cwd = project(`BOT_MODE=paper\nBOT_DATA_DIR=./data\nBOT_HTTP_PORT=${port}\nAPI_KEY=paper-key-5678\nAPI_SECRET=${SECRET}\n`, 0o644);
    mkdirSync(path.join(cwd, 'data'));
    chmodSync(path.join(cwd, 'data'), 0o755);
    running = spawnDaemon({ ENV_FILE: 'app.env' }, cwd);
    const p = running;
    await eventually(async () => (await fetch(`http://127.0.0.1:${port}/healthz`)).status === 200, 'healthy', { timeoutMs: 30_000, everyMs: 250 });
    const codes = logLines(p.stdout()).map((l) => l['code']);
    expect(codes).toContain('ENV_FILE_PERMISSIONS');
    expect(codes).toContain('DATA_DIR_PERMISSIONS');
  });
});
