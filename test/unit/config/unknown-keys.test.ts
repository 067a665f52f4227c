/**
 * A misspelt `BOT_*` variable is reported as a warning naming the nearest known key (when one is
 * close), never with its value; start-up goes on.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/index.js';
import { editDistance, nearestKey } from '../../../src/config/unknown-keys.js';
import { validFileConfig } from '../../support/daemon-configs.js';
import { tempDir } from '../../support/temp-dir.js';

function dirWithConfig(): string {
  const cwd = tempDir('v4bot-keys-');
  writeFileSync(path.join(cwd, 'bot.json'), JSON.stringify(validFileConfig()));
  return cwd;
}

const unknownKeyWarnings = (cfg: ReturnType<typeof loadConfig>) => cfg.warnings.filter((w) => w.code === 'UNKNOWN_ENV_KEY');

describe('unknown BOT_* keys', () => {
  it('BOT_HTTP_PROT in the env file: a warning suggesting BOT_HTTP_PORT, without the value', () => {
    const cwd = dirWithConfig();
    writeFileSync(path.join(cwd, '.env'), 'BOT_CONFIG=bot.json\nBOT_HTTP_PROT=9464\n');
    const cfg = loadConfig({ cwd, env: {} });
    expect(cfg.httpPort).toBe(0);
    const [w, ...more] = unknownKeyWarnings(cfg);
    expect(more).toEqual([]);
    expect(w).toEqual({ code: 'UNKNOWN_ENV_KEY', subject: 'BOT_HTTP_PROT', message: `unknown key BOT_HTTP_PROT in env file ${path.join(cwd, '.env')}: ignored; did you mean BOT_HTTP_PORT?` });
    expect(JSON.stringify(w)).not.toContain('9464');
  });

  it('in the environment too; a key far from every known one gets no guess; other prefixes are not ours', () => {
    const cwd = dirWithConfig();
    const cfg = loadConfig({ cwd, env: { BOT_CONFIG: 'bot.json', BOT_DATADIR: './d', BOT_WHATEVER_THIS_IS: 'secret-value-1', PATH: '/bin', NOT_BOT_X: '1' } });
    expect(unknownKeyWarnings(cfg).map((w) => w.message)).toEqual([
      'unknown key BOT_DATADIR in the environment: ignored; did you mean BOT_DATA_DIR?',
      'unknown key BOT_WHATEVER_THIS_IS in the environment: not a setting of this bot; it is ignored',
    ]);
    expect(JSON.stringify(cfg.warnings)).not.toContain('secret-value-1');
  });

  it('known keys give no warning', () => {
    const cwd = dirWithConfig();
    const cfg = loadConfig({ cwd, env: { BOT_CONFIG: 'bot.json', BOT_MODE: 'paper', BOT_HTTP_PORT: '0', BOT_HTTP_HOST: '127.0.0.1' } });
    expect(unknownKeyWarnings(cfg)).toEqual([]);
  });

  it('edit distance counts a transposition as one edit; only close keys are suggested', () => {
    expect(editDistance('BOT_HTTP_PROT', 'BOT_HTTP_PORT')).toBe(1);
    expect(editDistance('BOT_MODE', 'BOT_MDOE')).toBe(1);
    expect(editDistance('abc', '')).toBe(3);
    expect(nearestKey('BOT_MODES', ['BOT_MODE', 'BOT_CONFIG'])).toBe('BOT_MODE');
    expect(nearestKey('BOT_XYZ', ['BOT_MODE', 'BOT_CONFIG'])).toBeNull();
  });
});
