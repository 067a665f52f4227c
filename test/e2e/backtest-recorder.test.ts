/**
 * The price recorder's round trip: a paper daemon records the futures listing's prices into its
 * store, `npm run prices -- export` (built CLI) writes them as price CSV, per market into a
 * directory and as one file with a market column, and the backtest's loader reads both back as
 * exactly the recorded samples.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadPrices } from '../../src/backtest/load-prices.js';
import { SystemClock } from '../../src/core/clock.js';
import { openStoreReadOnly } from '../../src/store/index.js';
import { daemonForTest, ROOT, writeConfig } from '../support/daemon-process.js';
import { tempDir } from '../support/temp-dir.js';
import { eventually } from '../support/eventually.js';

const config = {
  markets: {
    BTC_USDT: { tick: '0.01', step: '0.000001', minAmount: '0.00001', minTotalQuote: '5.05', maxPositionBase: '1', maxOpenOrders: 20 },
  },
  strategies: [{ module: 'spot-grid', id: 'grid', budgetQuote: '5000', schedule: '* * * * * *', params: { market: 'BTC_USDT', levels: 2, spacingPct: '0.05', orderAmount: '0.002' } }],
  risk: { maxNotionalPerOrderQuote: '500' },
  paper: { seed: 3, balances: { USDT: '20000', BTC: '1' }, startPrices: { BTC_USDT: '60000' }, priceStepMs: 100 },
  shutdown: { drainTimeoutMs: 5000 },
};

function recorded(dataDir: string): Array<[string, number, string]> {
  const store = openStoreReadOnly(dataDir, new SystemClock());
  try {
    return [...store.prices.range()].map((s) => [s.market, s.timeMs, s.price.toFixed()]);
  } finally {
    store.close();
  }
}

function exportPrices(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [path.join(ROOT, 'dist/src/cli/prices.js'), 'export', ...args], (err, stdout, stderr) =>
      resolve({ code: err === null ? 0 : Number((err as { code?: number }).code ?? 1), stdout, stderr }),
    );
  });
}

describe('price recorder', () => {
  it('records what a paper daemon saw; the export is read back by the backtest loader', async () => {
    const dataDir = tempDir('v4bot-rec-');
    const running = daemonForTest({ BOT_CONFIG: writeConfig(config), BOT_DATA_DIR: dataDir });
    // The futures listing holds BTC_PERP (the paper venue adds a perpetual per base).
    await eventually(() => recorded(dataDir).some(([m]) => m === 'BTC_PERP'), 'a recorded BTC_PERP price', { timeoutMs: 30_000, everyMs: 250 });
    running.child.kill('SIGINT');
    expect((await running.exited).code).toBe(0);
    const samples = recorded(dataDir);

    const dir = `${tempDir('v4bot-rec-out-')}/prices/`;
    const perMarket = await exportPrices(['--data-dir', dataDir, '--out', dir]);
    expect(perMarket.code).toBe(0);
    const fromDir = loadPrices(dir);
    const rows = [...fromDir.series].flatMap(([m, rs]) => [...rs.rows()].map((r) => [m, r.timeMs, r.price.toFixed()]));
    expect(rows).toEqual(samples);

    const file = path.join(tempDir('v4bot-rec-out-'), 'seen.csv');
    expect((await exportPrices(['--data-dir', dataDir, '--out', file])).code).toBe(0);
    const fromFile = [...loadPrices(file).series].flatMap(([m, rs]) => [...rs.rows()].map((r) => [m, r.timeMs, r.price.toFixed()]));
    expect(fromFile).toEqual(samples);

    const stdout = await exportPrices(['--data-dir', dataDir, '--from', '1970-01-01T00:00:00Z']);
    expect(stdout.stdout.split('\n')[0]).toBe('time,market,price');
    expect(stdout.stdout.trim().split('\n')).toHaveLength(samples.length + 1);
  }, 90_000);

  it('refuses a bad command or flag with exit 2', async () => {
    expect((await exportPrices(['--out'])).code).toBe(2);
    const r = await exportPrices(['--from', 'soon', '--data-dir', tempDir()]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('v4-bot prices: --from: expected an ISO-8601 UTC time or Unix seconds/milliseconds, found "soon"\n');
  });
});
