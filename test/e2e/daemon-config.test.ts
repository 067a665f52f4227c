/**
 * Invalid configurations are refused by the built daemon with exit code 2, naming the key,
 * before any request: the daemon runs in live mode against a counting HTTP server that must see
 * nothing. A valid live config against the same server does reach it (the control that shows the
 * counter works).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INVALID_CONFIGS, INVALID_STRATEGY_CONFIGS, validFileConfig } from '../support/daemon-configs.js';
import { countingServer, spawnDaemon, writeConfig } from '../support/daemon-process.js';
import { tempDir } from '../support/temp-dir.js';

const SECRET = 'SECRET-must-never-print-42';
let server: Awaited<ReturnType<typeof countingServer>>;

beforeAll(async () => {
  server = await countingServer();
});
afterAll(async () => {
  await server.close();
});

function liveEnv(configFile: string, extra: Record<string, string> = {}, dataDir = tempDir()): Record<string, string> {
  return { BOT_MODE: 'live', BOT_CONFIG: configFile, BOT_DATA_DIR: dataDir, API_BASE_URL: server.url, API_KEY: 'key-123', API_SECRET: SECRET, ...extra };
}

describe('daemon refuses invalid configuration before any request', () => {
  const cases = [...INVALID_CONFIGS, ...INVALID_STRATEGY_CONFIGS];

  it('has at least twenty cases', () => {
    expect(cases.length).toBeGreaterThanOrEqual(20);
  });

  // Concurrent: the directories are tied to each test through its context (see tempDir).
  it.concurrent.for(cases.map((c) => [c.name, c] as const))('%s', async ([_name, c], context) => {
    const [confDir, dataDir, cwd] = [tempDir('v4bot-', context), tempDir('v4bot-', context), tempDir('v4bot-', context)];
    const file = writeConfig(c.fileText ?? c.file ?? validFileConfig(), confDir);
    const before = server.count();
    const p = spawnDaemon(liveEnv(file, c.env, dataDir), cwd);
    const { code } = await p.exited;
    expect(code).toBe(2);
    expect(p.stderr()).toContain(c.key);
    expect(p.stderr()).toMatch(/expected .+, found .+/);
    expect(p.stderr() + p.stdout()).not.toContain(SECRET);
    expect(server.count()).toBe(before);
  });
});

describe('control', () => {
  it('a valid live config does reach the configured venue (and fails start-up without one)', async () => {
    const p = spawnDaemon(liveEnv(writeConfig(validFileConfig())));
    const { code } = await p.exited;
    expect(code).toBe(1);
    expect(server.count()).toBeGreaterThan(0);
    expect(p.stderr() + p.stdout()).not.toContain(SECRET);
  });
});

describe('paper mode', () => {
  it('a configured market without a start price is refused naming the key, exit 2, before the venue starts', async () => {
    const file = validFileConfig() as { markets: Record<string, unknown> };
    file.markets['SOL_USDT'] = { tick: '0.01', step: '0.001', minAmount: '0.001', minTotalQuote: '5', maxPositionBase: '10' };
    const dataDir = tempDir();
    const p = spawnDaemon({ BOT_MODE: 'paper', BOT_CONFIG: writeConfig(file), BOT_DATA_DIR: dataDir });
    const { code } = await p.exited;
    expect(code).toBe(2);
    expect(p.stderr()).toContain('paper.startPrices.SOL_USDT: expected a start price for the configured market SOL_USDT');
    expect(existsSync(path.join(dataDir, 'paper-venue.sqlite'))).toBe(false);
  });
});
