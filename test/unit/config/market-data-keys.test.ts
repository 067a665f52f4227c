/** The candle keys (docs/market-data.md): defaults, custom values, and refusals naming the key. */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/index.js';
import { configErrorOf } from '../../support/config-error.js';
import { validFileConfig } from '../../support/daemon-configs.js';
import { tempDir } from '../../support/temp-dir.js';

function load(extra: Record<string, unknown>): ReturnType<typeof loadConfig> {
  const cwd = tempDir('v4bot-market-data-config-');
  writeFileSync(path.join(cwd, 'bot.json'), JSON.stringify({ ...validFileConfig(), ...extra }));
  return loadConfig({ cwd, env: { BOT_CONFIG: 'bot.json' } });
}

describe('market data configuration', () => {
  it('defaults: a poll every 5 s, 30 days of one-minute candles', () => {
    expect(load({}).marketData).toEqual({ pollSeconds: 5, candleRetentionDays: 30 });
  });

  it('takes custom values', () => {
    expect(load({ marketData: { pollSeconds: 1, candleRetentionDays: 365 } }).marketData).toEqual({ pollSeconds: 1, candleRetentionDays: 365 });
  });

  it.each([
    ['a poll slower than 5 s', { marketData: { pollSeconds: 6 } }, 'marketData.pollSeconds'],
    ['a poll of 0 s', { marketData: { pollSeconds: 0 } }, 'marketData.pollSeconds'],
    ['a fractional poll', { marketData: { pollSeconds: 2.5 } }, 'marketData.pollSeconds'],
    ['no retention', { marketData: { candleRetentionDays: 0 } }, 'marketData.candleRetentionDays'],
    ['a retention as a string', { marketData: { candleRetentionDays: '30' } }, 'marketData.candleRetentionDays'],
    ['an unknown key', { marketData: { retentionDays: 30 } }, 'marketData.retentionDays'],
  ])('refuses %s, naming the key', (_name, extra, key) => {
    const err = configErrorOf(() => load(extra));
    expect(err.message).toContain(key);
    expect(err.message).toMatch(/expected .+, found .+/);
  });
});
