/**
 * The built `status` CLI reads the store the daemon with the same environment uses: the data dir
 * and mode come from the daemon's config loading (ENV_FILE, environment, BOT_CONFIG). Unknown
 * flags and invalid configuration are refused with exit code 2.
 */
import { execFile } from 'node:child_process';
import { chmodSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/clock.js';
import { silentLogger } from '../../src/observability/logger.js';
import { openStore } from '../../src/store/index.js';
import { validFileConfig } from '../support/daemon-configs.js';
import { distEntry, writeConfig } from '../support/daemon-process.js';
import { tempDir } from '../support/temp-dir.js';

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** The built status CLI in `cwd` with only `env` (and PATH). */
function status(args: string[], cwd: string, env: Record<string, string>): Promise<Run> {
  return new Promise((resolve) => {
    execFile(process.execPath, [distEntry('status'), ...args], { cwd, env: { PATH: process.env['PATH'] ?? '', ...env } }, (err, stdout, stderr) => {
      resolve({ code: err === null ? 0 : Number((err as { code?: number }).code ?? -1), stdout, stderr });
    });
  });
}

// Made at file level (not in beforeAll) so that it is removed after the last test.
const cwd = tempDir('v4bot-status-');
const liveData = path.join(cwd, 'data-live');
beforeAll(() => {
  writeConfig(validFileConfig(), cwd);
  openStore({ dataDir: liveData, clock: new ManualClock(1_700_000_000_000), logger: silentLogger() }).close();
  writeFileSync(path.join(cwd, '.env.live'), `BOT_MODE=live\nBOT_CONFIG=bot.json\nBOT_DATA_DIR=./data-live\nAPI_BASE_URL=https://venue.example\nAPI_KEY=key-1234\nAPI_SECRET=secret-status-5678\n`);
  chmodSync(path.join(cwd, '.env.live'), 0o600);
});

describe('status uses the daemon configuration', () => {
  it('reads the data dir of ENV_FILE and names it and the mode (JSON)', async () => {
    const r = await status(['--json'], cwd, { ENV_FILE: '.env.live' });
    expect(r.code).toBe(0);
    const st = JSON.parse(r.stdout) as Record<string, unknown>;
    expect(st['dataDir']).toBe(liveData);
    expect(st['mode']).toBe('live');
    expect(st['envFile']).toBe(path.join(cwd, '.env.live'));
    expect(r.stdout + r.stderr).not.toContain('secret-status-5678');
  });

  it('names the data dir and mode in the text output', async () => {
    const r = await status([], cwd, { ENV_FILE: '.env.live' });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(liveData);
    expect(r.stdout).toContain('live');
  });

  it('refuses unknown flags with usage and exit code 2', async () => {
    for (const args of [['--jsn'], ['--data-dir'], ['extra']]) {
      const r = await status(args, cwd, { ENV_FILE: '.env.live' });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('usage: status');
    }
  });

  it('refuses an invalid configuration with exit code 2', async () => {
    const r = await status(['--json'], cwd, { ENV_FILE: '.env.live', BOT_MODE: 'prod' });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('BOT_MODE');
  });
});
