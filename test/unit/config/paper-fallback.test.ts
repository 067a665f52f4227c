/**
 * Without `ENV_FILE` and without a `.env`, the commands read `config/paper.env` (paper mode only):
 * never when the environment asks for live mode, never when the file itself says live, never in
 * place of a `.env` or a named env file.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig, PAPER_ENV_FALLBACK } from '../../../src/config/index.js';
import { configErrorOf } from '../../support/config-error.js';
import { validFileConfig } from '../../support/daemon-configs.js';
import { tempDir } from '../../support/temp-dir.js';

function tree(paperEnv: string): string {
  const cwd = tempDir('v4bot-fallback-');
  mkdirSync(path.join(cwd, 'config'));
  writeFileSync(path.join(cwd, 'bot.json'), JSON.stringify(validFileConfig()));
  writeFileSync(path.join(cwd, PAPER_ENV_FALLBACK), paperEnv);
  return cwd;
}

const PAPER = 'BOT_MODE=paper\nBOT_CONFIG=bot.json\nBOT_HTTP_PORT=9464\n';
const load = (cwd: string, env: Record<string, string> = {}) => loadConfig({ cwd, env, fallbackEnvFile: PAPER_ENV_FALLBACK });

describe('the paper env fallback', () => {
  it('no .env: config/paper.env is read and marked as the fallback', () => {
    const cwd = tree(PAPER);
    const cfg = load(cwd);
    expect(cfg).toMatchObject({ mode: 'paper', httpPort: 9464, envFile: path.join(cwd, PAPER_ENV_FALLBACK), envFileFallback: true });
  });

  it('the environment still wins over it', () => {
    expect(load(tree(PAPER), { BOT_HTTP_PORT: '9500' }).httpPort).toBe(9500);
  });

  it('a .env, or a named ENV_FILE, is read instead', () => {
    const cwd = tree(PAPER);
    writeFileSync(path.join(cwd, '.env'), 'BOT_CONFIG=bot.json\nBOT_HTTP_PORT=9100\n');
    expect(load(cwd)).toMatchObject({ httpPort: 9100, envFileFallback: false });
    writeFileSync(path.join(cwd, 'other.env'), 'BOT_CONFIG=bot.json\n');
    expect(load(cwd, { ENV_FILE: 'other.env' })).toMatchObject({ httpPort: 0, envFileFallback: false });
  });

  it('never for live mode: not when the environment asks for it, not when the file says it', () => {
    const cwd = tree(PAPER);
    const live = configErrorOf(() => load(cwd, { BOT_MODE: 'live', BOT_CONFIG: 'bot.json' }));
    expect(live.message).toContain('API_KEY');
    const liveFile = tree('BOT_MODE=live\nBOT_CONFIG=bot.json\nBOT_HTTP_PORT=9464\n');
    expect(load(liveFile, { BOT_CONFIG: 'bot.json' })).toMatchObject({ mode: 'paper', httpPort: 0, envFile: null, envFileFallback: false });
  });

  it('only when asked: loadConfig without the option reads no fallback', () => {
    const cwd = tree(PAPER);
    expect(loadConfig({ cwd, env: { BOT_CONFIG: 'bot.json' } })).toMatchObject({ httpPort: 0, envFile: null, envFileFallback: false });
  });
});
