/** The console's environment keys: the HTTP bind address, and the control token it then requires (a secret). */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig, redactConfig, secretValues } from '../../../src/config/index.js';
import { configErrorOf } from '../../support/config-error.js';
import { validFileConfig } from '../../support/daemon-configs.js';
import { tempDir } from '../../support/temp-dir.js';

const TOKEN = 'a-control-token-of-enough-length-0123';

function env(extra: Record<string, string>): { cwd: string; env: Record<string, string> } {
  const cwd = tempDir('v4bot-config-');
  writeFileSync(path.join(cwd, 'bot.json'), JSON.stringify(validFileConfig()));
  return { cwd, env: { BOT_CONFIG: 'bot.json', ...extra } };
}

describe('BOT_HTTP_HOST and BOT_CONTROL_TOKEN', () => {
  it('binds to loopback without a token by default', () => {
    const cfg = loadConfig(env({}));
    expect(cfg.httpHost).toBe('127.0.0.1');
    expect(cfg.controlToken).toBeNull();
  });

  it('refuses a non-loopback binding without a token, naming BOT_CONTROL_TOKEN', () => {
    const err = configErrorOf(() => loadConfig(env({ BOT_HTTP_HOST: '0.0.0.0' })));
    expect(err.message).toContain('BOT_CONTROL_TOKEN');
    expect(err.message).toContain('0.0.0.0');
    for (const host of ['127.0.0.1', 'localhost', '::1', '127.0.0.2']) expect(loadConfig(env({ BOT_HTTP_HOST: host })).httpHost).toBe(host);
  });

  it('accepts a non-loopback binding with a token, which never prints', () => {
    const cfg = loadConfig(env({ BOT_HTTP_HOST: '0.0.0.0', BOT_CONTROL_TOKEN: TOKEN }));
    expect(cfg.controlToken?.reveal()).toBe(TOKEN);
    expect(JSON.stringify(redactConfig(cfg))).not.toContain(TOKEN);
    expect(String(cfg.controlToken)).toBe('[redacted]');
    // The logger cuts it out of every line.
    expect(secretValues(cfg)).toContain(TOKEN);
  });

  it('refuses a short token, naming the key and not echoing the value', () => {
    const err = configErrorOf(() => loadConfig(env({ BOT_CONTROL_TOKEN: 'short-secret-x' })));
    expect(err.message).toContain('BOT_CONTROL_TOKEN');
    expect(err.message).not.toContain('short-secret-x');
  });
});
