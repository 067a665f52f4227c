/**
 * The daemon's log at start and while trading: one info line summarises the configuration (the
 * full redacted configuration only at debug), each order placement is one info line, and
 * LOG_PRETTY=1 makes the lines human-readable even though stdout is a pipe (as under pm2).
 */
import { describe, expect, it } from 'vitest';
import { daemonForTest, type DaemonProcess, logLines, writeConfig } from '../support/daemon-process.js';
import { tempDir } from '../support/temp-dir.js';
import { eventually } from '../support/eventually.js';

const WAIT = { timeoutMs: 30_000, everyMs: 200 };

const config = {
  markets: { BTC_USDT: { tick: '0.01', step: '0.000001', minAmount: '0.00001', minTotalQuote: '5.05', maxPositionBase: '1' } },
  strategies: [{ module: 'spot-grid', id: 'grid', budgetQuote: '5000', schedule: '*/2 * * * * *', params: { market: 'BTC_USDT', levels: 2, spacingPct: '0.1', orderAmount: '0.002' } }],
  risk: { maxNotionalPerOrderQuote: '500' },
};

async function stop(p: DaemonProcess): Promise<void> {
  p.child.kill('SIGINT');
  expect((await p.exited).code).toBe(0);
}

describe('daemon logs', () => {
  it('summarises the configuration in one info line and logs each placement', async () => {
    const dataDir = tempDir();
    const p = daemonForTest({ BOT_CONFIG: writeConfig(config), BOT_DATA_DIR: dataDir, LOG_LEVEL: 'info' });
    const placed = await eventually(() => logLines(p.stdout()).find((l) => l['msg'] === 'order placed'), 'an order placed line', WAIT);
    expect(placed).toMatchObject({ level: 30, strategy: 'grid', market: 'BTC_USDT', amount: '0.002' });
    expect(typeof placed['clientOrderId']).toBe('string');
    expect(placed['side']).toMatch(/^(buy|sell)$/);
    expect(placed['price']).toMatch(/^\d+(\.\d+)?$/);
    const loaded = logLines(p.stdout()).filter((l) => String(l['msg']).startsWith('configuration'));
    expect(loaded).toHaveLength(1);
    expect(loaded[0]).toMatchObject({ level: 30, msg: 'configuration loaded', mode: 'paper', dataDir, strategies: 'grid=spot-grid [*/2 * * * * *] budget 5000' });
    expect(loaded[0]).not.toHaveProperty('config');
    expect(JSON.stringify(loaded[0]).length).toBeLessThan(800);
    await stop(p);
  });

  it('logs the full redacted configuration at debug', async () => {
    const p = daemonForTest({ BOT_CONFIG: writeConfig(config), BOT_DATA_DIR: tempDir(), LOG_LEVEL: 'debug' });
    const full = await eventually(() => logLines(p.stdout()).find((l) => l['msg'] === 'configuration (full, redacted)'), 'the full configuration', WAIT);
    expect(full).toMatchObject({ level: 20, config: { risk: { maxNotionalPerOrderQuote: '500' }, markets: { BTC_USDT: { tick: '0.01' } } } });
    await stop(p);
  });

  it('pretty-prints with LOG_PRETTY=1 on a pipe', async () => {
    const p = daemonForTest({ BOT_CONFIG: writeConfig(config), BOT_DATA_DIR: tempDir(), LOG_LEVEL: 'info', LOG_PRETTY: '1' });
    await eventually(() => p.stdout().includes('daemon ready'), 'daemon ready', WAIT);
    const lines = p.stdout().split('\n').filter((l) => l.trim() !== '');
    expect(lines.some((l) => l.startsWith('{'))).toBe(false);
    expect(p.stdout()).toMatch(/INFO.*configuration loaded/);
    // No colour codes in a file or pipe.
    expect(p.stdout()).not.toContain('\u001b[');
    await stop(p);
  });
});
