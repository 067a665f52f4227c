import { mkdtempSync, writeFileSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { configErrorOf } from '../../support/config-error.js';
import { loadConfig, redactConfig } from '../../../src/config/index.js';
import { INVALID_CONFIGS, validFileConfig } from '../../support/daemon-configs.js';

function tempDir(): string {
  return mkdtempSync(path.join(tmpdir(), 'v4bot-config-'));
}

function withFile(config: unknown): { cwd: string; env: Record<string, string> } {
  const cwd = tempDir();
  writeFileSync(path.join(cwd, 'bot.json'), JSON.stringify(config));
  return { cwd, env: { BOT_CONFIG: 'bot.json' } };
}

const refusal = configErrorOf;

describe('loadConfig', () => {
  it('loads a valid config with explicit defaults, paper mode by default', () => {
    const { cwd, env } = withFile(validFileConfig());
    const cfg = loadConfig({ cwd, env });
    expect(cfg.mode).toBe('paper');
    expect(cfg.httpPort).toBe(0);
    expect(cfg.dataDir).toBe(path.join(cwd, 'data'));
    expect(cfg.shutdown.drainTimeoutMs).toBe(10_000);
    expect(cfg.plugins.errorBudget).toBe(3);
    expect(cfg.markets['BTC_USDT']?.tick.toFixed()).toBe('0.01');
    expect(cfg.api).toBeNull();
  });

  it('the repository default config/bot.json is valid', () => {
    const cfg = loadConfig({ cwd: process.cwd(), env: { ENV_FILE: 'config/paper.env', BOT_HTTP_PORT: '0' } });
    expect(cfg.strategies.length).toBeGreaterThan(0);
    expect(cfg.mode).toBe('paper');
  });

  it('reads ENV_FILE, and the process environment wins over it', () => {
    const { cwd } = withFile(validFileConfig());
    writeFileSync(path.join(cwd, 'my.env'), 'BOT_CONFIG=bot.json\nBOT_HTTP_PORT=9100\nLOG_LEVEL=debug\n');
    const cfg = loadConfig({ cwd, env: { ENV_FILE: 'my.env', LOG_LEVEL: 'warn' } });
    expect(cfg.httpPort).toBe(9100);
    expect(cfg.logLevel).toBe('warn');
    expect(cfg.envFile).toBe(path.join(cwd, 'my.env'));
  });

  it('LOG_PRETTY: unset decides by the terminal (null), 1 / 0 force it, anything else is refused naming the key', () => {
    const { cwd, env } = withFile(validFileConfig());
    expect(loadConfig({ cwd, env }).logPretty).toBeNull();
    expect(loadConfig({ cwd, env: { ...env, LOG_PRETTY: '1' } }).logPretty).toBe(true);
    expect(loadConfig({ cwd, env: { ...env, LOG_PRETTY: '0' } }).logPretty).toBe(false);
    const err = refusal(() => loadConfig({ cwd, env: { ...env, LOG_PRETTY: 'yes' } }));
    expect(err.message).toContain('LOG_PRETTY');
  });

  it('sandbox bounds default to 256 MB and 10 s, and a bad one is refused naming its key', () => {
    const { cwd, env } = withFile(validFileConfig());
    expect(loadConfig({ cwd, env }).sandbox).toEqual({ memoryMb: 256, loadDeadlineMs: 10_000 });
    const custom = withFile({ ...validFileConfig(), sandbox: { memoryMb: 128, loadDeadlineMs: 3_000 } });
    expect(loadConfig(custom).sandbox).toEqual({ memoryMb: 128, loadDeadlineMs: 3_000 });
    const bad = withFile({ ...validFileConfig(), sandbox: { memoryMb: 4 } });
    expect(refusal(() => loadConfig(bad)).message).toContain('sandbox.memoryMb');
  });

  it('health thresholds default to 3 reconcile intervals and 60 s of a blocked pool', () => {
    const { cwd, env } = withFile(validFileConfig());
    expect(loadConfig({ cwd, env }).health).toEqual({ reconcileStaleIntervals: 3, limiterBlockedMaxMs: 60_000 });
    const custom = withFile({ ...validFileConfig(), health: { reconcileStaleIntervals: 5, limiterBlockedMaxMs: 120_000 } });
    expect(loadConfig({ cwd: custom.cwd, env: custom.env }).health).toEqual({ reconcileStaleIntervals: 5, limiterBlockedMaxMs: 120_000 });
    const bad = withFile({ ...validFileConfig(), health: { reconcileStaleIntervals: 1 } });
    expect(refusal(() => loadConfig({ cwd: bad.cwd, env: bad.env })).message).toContain('health.reconcileStaleIntervals');
  });

  it('a missing default .env is fine; a missing named ENV_FILE is refused', () => {
    const { cwd, env } = withFile(validFileConfig());
    expect(loadConfig({ cwd, env }).envFile).toBeNull();
    const err = refusal(() => loadConfig({ cwd, env: { ...env, ENV_FILE: 'nope.env' } }));
    expect(err.context['keys']).toEqual(['ENV_FILE']);
  });

  it('live mode with everything set keeps the secrets out of any dump', () => {
    const { cwd, env } = withFile(validFileConfig());
    const cfg = loadConfig({
      cwd,
      env: { ...env, BOT_MODE: 'live', API_BASE_URL: 'https://venue.example', API_KEY: 'KEY-abc-123', API_SECRET: 'SECRET-xyz-789' },
    });
    expect(cfg.api?.apiKey.reveal()).toBe('KEY-abc-123');
    const dump = JSON.stringify(redactConfig(cfg));
    expect(dump).not.toContain('KEY-abc-123');
    expect(dump).not.toContain('SECRET-xyz-789');
    expect(JSON.stringify(cfg)).not.toContain('SECRET-xyz-789');
    expect(String(cfg.api?.apiSecret)).not.toContain('SECRET');
    expect(dump).toContain('https://venue.example');
  });

  it('never echoes a secret value in a refusal', () => {
    const { cwd, env } = withFile(validFileConfig());
    const err = refusal(() =>
      loadConfig({ cwd, env: { ...env, BOT_MODE: 'live', API_BASE_URL: 'not a url', API_KEY: 'KEY-abc-123', API_SECRET: 'SECRET-xyz-789' } }),
    );
    expect(err.message).not.toContain('SECRET-xyz-789');
    expect(err.message).not.toContain('KEY-abc-123');
    expect(err.context['keys']).toEqual(['API_BASE_URL']);
  });

  it('the request queue: strict nonces and local budgets by default; window nonces with a shared Redis budget', () => {
    const { cwd, env } = withFile(validFileConfig());
    const plain = loadConfig({ cwd, env });
    expect(plain.nonceMode).toBe('strict');
    expect(plain.rateLimitRedisUrl).toBeNull();
    const url = 'redis://:pw-9f2c@10.0.0.5:6379/2';
    const shared = loadConfig({ cwd, env: { ...env, NONCE_MODE: 'window', RATE_LIMIT_REDIS_URL: url } });
    expect(shared.nonceMode).toBe('window');
    expect(shared.rateLimitRedisUrl?.reveal()).toBe(url);
    // The URL may carry a password: no dump shows it.
    expect(JSON.stringify(redactConfig(shared))).not.toContain('pw-9f2c');
  });

  it.each([
    ['NONCE_MODE unset', {}],
    ['NONCE_MODE=strict', { NONCE_MODE: 'strict' }],
  ])('a shared Redis budget with strict nonces is refused, naming both keys (%s)', (_name, extra) => {
    const { cwd, env } = withFile(validFileConfig());
    const err = refusal(() => loadConfig({ cwd, env: { ...env, RATE_LIMIT_REDIS_URL: 'redis://127.0.0.1:6379', ...extra } }));
    expect(err.context['keys']).toEqual(['NONCE_MODE']);
    expect(err.message).toContain('NONCE_MODE');
    expect(err.message).toContain('RATE_LIMIT_REDIS_URL');
  });

  it('refuses a rate-limit store URL that is not redis:// without echoing it', () => {
    const { cwd, env } = withFile(validFileConfig());
    const err = refusal(() => loadConfig({ cwd, env: { ...env, NONCE_MODE: 'window', RATE_LIMIT_REDIS_URL: 'http://user:pw-77aa@host' } }));
    expect(err.context['keys']).toEqual(['RATE_LIMIT_REDIS_URL']);
    expect(err.message).not.toContain('pw-77aa');
  });

  describe('refuses invalid configurations, naming the key', () => {
    it.each(INVALID_CONFIGS.map((c) => [c.name, c] as const))('%s', (_name, c) => {
      const cwd = tempDir();
      writeFileSync(path.join(cwd, 'bot.json'), c.fileText ?? JSON.stringify(c.file ?? validFileConfig()));
      const err = refusal(() => loadConfig({ cwd, env: { BOT_CONFIG: 'bot.json', ...c.env } }));
      expect(err.context['keys']).toContain(c.key);
      expect(err.message).toContain(c.key);
      expect(err.message).toMatch(/expected .+, found .+/);
      for (const v of Object.values(c.env ?? {})) if (/SECRET/.test(v)) expect(err.message).not.toContain(v);
    });
  });

  it('the example env files parse', () => {
    expect(readFileSync('config/live.env.example', 'utf8')).toContain('BOT_MODE=live');
  });
});
