/** The balance audit's configuration keys: defaults, custom values, and refusals naming the key. */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/index.js';
import { configErrorOf } from '../../support/config-error.js';
import { validFileConfig } from '../../support/daemon-configs.js';
import { tempDir } from '../../support/temp-dir.js';

function load(extra: Record<string, unknown>): ReturnType<typeof loadConfig> {
  const cwd = tempDir('v4bot-audit-config-');
  writeFileSync(path.join(cwd, 'bot.json'), JSON.stringify({ ...validFileConfig(), ...extra }));
  return loadConfig({ cwd, env: { BOT_CONFIG: 'bot.json' } });
}

describe('balance audit configuration', () => {
  it('defaults: hourly, 0.01 % of the balance, no per-asset allowance, three looks', () => {
    const c = load({});
    expect(c.jobs.balanceAuditCron).toBe('0 0 * * * *');
    expect(c.audit.toleranceFraction.toFixed()).toBe('0.0001');
    expect(c.audit.toleranceByAsset).toEqual({});
    expect(c.audit.settleAttempts).toBe(3);
  });

  it('takes custom values, money as decimals', () => {
    const c = load({ jobs: { balanceAuditCron: '*/5 * * * * *' }, audit: { toleranceFraction: '0', toleranceByAsset: { USDT: '0.5', BTC: '0.00001' }, settleAttempts: 5 } });
    expect(c.jobs.balanceAuditCron).toBe('*/5 * * * * *');
    expect(c.audit.toleranceFraction.isZero()).toBe(true);
    expect(Object.fromEntries(Object.entries(c.audit.toleranceByAsset).map(([k, v]) => [k, v.toFixed()]))).toEqual({ USDT: '0.5', BTC: '0.00001' });
    expect(c.audit.settleAttempts).toBe(5);
  });

  it.each([
    ['a fraction of 1', { audit: { toleranceFraction: '1' } }, 'audit.toleranceFraction'],
    ['a negative fraction', { audit: { toleranceFraction: '-0.001' } }, 'audit.toleranceFraction'],
    ['a fraction as a JSON number', { audit: { toleranceFraction: 0.001 } }, 'audit.toleranceFraction'],
    ['a per-asset allowance under a bad ticker', { audit: { toleranceByAsset: { usdt: '1' } } }, 'audit.toleranceByAsset.usdt'],
    ['a negative per-asset allowance', { audit: { toleranceByAsset: { USDT: '-1' } } }, 'audit.toleranceByAsset.USDT'],
    ['no look at all', { audit: { settleAttempts: 0 } }, 'audit.settleAttempts'],
    ['an unknown key', { audit: { tolerance: '1' } }, 'audit.tolerance'],
    ['a bad schedule', { jobs: { balanceAuditCron: 'hourly' } }, 'jobs.balanceAuditCron'],
  ])('refuses %s, naming the key', (_name, extra, key) => {
    const err = configErrorOf(() => load(extra));
    expect(err.message).toContain(key);
    expect(err.message).toMatch(/expected .+, found .+/);
  });
});
