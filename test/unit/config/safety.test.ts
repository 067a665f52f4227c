/**
 * Operator-safety checks of the config loader, on real files and directories with real modes.
 */
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { configErrorOf } from '../../support/config-error.js';
import { loadConfig } from '../../../src/config/index.js';
import { validFileConfig } from '../../support/daemon-configs.js';
import { tempDir } from '../../support/temp-dir.js';

/** A temp project: bot.json, an env file with `mode`, a data dir with `dataMode`. */
function project(envText: string, mode: number, dataMode = 0o700): string {
  const dir = tempDir('v4bot-safety-');
  writeFileSync(path.join(dir, 'bot.json'), JSON.stringify(validFileConfig()));
  writeFileSync(path.join(dir, 'app.env'), `BOT_CONFIG=bot.json\nBOT_DATA_DIR=data\n${envText}`);
  chmodSync(path.join(dir, 'app.env'), mode);
  mkdirSync(path.join(dir, 'data'));
  chmodSync(path.join(dir, 'data'), dataMode);
  return dir;
}

const LIVE = 'BOT_MODE=live\nAPI_BASE_URL=https://venue.example\nAPI_KEY=key-123\nAPI_SECRET=secret-value-xyz\n';
const load = (cwd: string, env: Record<string, string> = {}) => loadConfig({ env: { ENV_FILE: 'app.env', ...env }, cwd });

const refusal = configErrorOf;

describe('config safety checks', () => {
  it('refuses a live env file readable by others, naming the file and chmod 600', () => {
    const dir = project(LIVE, 0o644);
    const err = refusal(() => load(dir));
    expect(err.context['keys']).toEqual(['ENV_FILE']);
    expect(err.message).toContain(`chmod 600 ${path.join(dir, 'app.env')}`);
    expect(err.message).not.toContain('secret-value-xyz');
  });

  it('accepts a live env file only its owner can read, without warnings', () => {
    expect(load(project(LIVE, 0o600)).warnings).toEqual([]);
  });

  it('warns on a paper env file readable by others that holds a secret', () => {
    const dir = project('BOT_MODE=paper\nAPI_SECRET=paper-secret-1234\n', 0o640);
    expect(load(dir).warnings).toEqual([expect.objectContaining({ code: 'ENV_FILE_PERMISSIONS', subject: path.join(dir, 'app.env') })]);
  });

  it('does not warn on a readable paper env file without secrets (as the repository ships them)', () => {
    expect(load(project('BOT_MODE=paper\n', 0o644)).warnings).toEqual([]);
  });

  it('warns on a data dir readable by others', () => {
    const dir = project('BOT_MODE=paper\n', 0o600, 0o755);
    expect(load(dir).warnings).toEqual([expect.objectContaining({ code: 'DATA_DIR_PERMISSIONS', subject: path.join(dir, 'data') })]);
  });

  it('refuses credentials in API_BASE_URL without echoing them', () => {
    const err = refusal(() => load(project(LIVE, 0o600), { API_BASE_URL: 'https://user:hunter2-pass@venue.example' }));
    expect(err.context['keys']).toEqual(['API_BASE_URL']);
    expect(err.message).not.toContain('hunter2-pass');
  });

  it('warns on plain http to a remote host in live mode, not to loopback', () => {
    const remote = load(project(LIVE, 0o600), { API_BASE_URL: 'http://venue.example:8080' });
    expect(remote.warnings).toEqual([expect.objectContaining({ code: 'INSECURE_API_URL', subject: 'venue.example:8080' })]);
    for (const url of ['http://127.0.0.1:9000', 'http://localhost:9000', 'http://[::1]:9000']) {
      expect(load(project(LIVE, 0o600), { API_BASE_URL: url }).warnings).toEqual([]);
    }
  });
});
