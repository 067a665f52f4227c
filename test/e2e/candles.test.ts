/**
 * Candles end to end: a paper daemon with no strategy (so only the price poll reads the listing)
 * folds the futures listing into one-minute candles that the store API reads back, the open
 * minute kept across the stop; the built `npm run prices` imports an OHLCV file and exports it
 * back unchanged, and refuses a bad row or a coarser timeframe with exit 2.
 */
import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock, SystemClock } from '../../src/core/clock.js';
import { openStoreReadOnly, type Candle } from '../../src/store/index.js';
import { ROOT, spawnDaemon, writeConfig, type DaemonProcess } from '../support/daemon-process.js';
import { tempDir } from '../support/temp-dir.js';
import { eventually } from '../support/eventually.js';

const config = {
  markets: {
    BTC_USDT: { tick: '0.01', step: '0.000001', minAmount: '0.00001', minTotalQuote: '5.05', maxPositionBase: '1', maxOpenOrders: 20 },
  },
  risk: { maxNotionalPerOrderQuote: '500' },
  marketData: { pollSeconds: 1 },
  // Equity reads the listing too; daily here, so the price poll alone feeds the candles.
  jobs: { equityCheckCron: '0 0 0 * * *' },
  paper: { seed: 5, balances: { USDT: '20000', BTC: '1' }, startPrices: { BTC_USDT: '60000' }, priceStepMs: 50 },
  shutdown: { drainTimeoutMs: 5000 },
};

function prices(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [path.join(ROOT, 'dist/src/cli/prices.js'), ...args], (err, stdout, stderr) =>
      resolve({ code: err === null ? 0 : Number((err as { code?: number }).code ?? 1), stdout, stderr }),
    );
  });
}

function openCandle(dataDir: string): Candle | undefined {
  const store = openStoreReadOnly(dataDir, new SystemClock());
  try {
    return store.candles.open('BTC_PERP', '1m');
  } finally {
    store.close();
  }
}

let running: DaemonProcess | null = null;
afterEach(() => {
  running?.child.kill('SIGKILL');
  running = null;
});

describe('candles', () => {
  it('a paper daemon folds its price polls into candles the store API reads back', async () => {
    const dataDir = tempDir('v4bot-candles-');
    running = spawnDaemon({ BOT_CONFIG: writeConfig(config), BOT_DATA_DIR: dataDir });
    // Several polls within one minute: the simulated price moves, so high and low part.
    const seen = await eventually(() => {
      const c = openCandle(dataDir);
      return c !== undefined && c.high.gt(c.low) ? c : undefined;
    }, 'an open BTC_PERP candle with a range', { timeoutMs: 60_000, everyMs: 500 });
    expect(seen.closed).toBe(false);
    expect(seen.volume).toBeNull();
    running.child.kill('SIGINT');
    expect((await running.exited).code).toBe(0);
    running = null;

    // Two minutes later the minute the daemon was building reads as closed, as it stood.
    const later = openStoreReadOnly(dataDir, new ManualClock(seen.openMs + 120_000));
    try {
      const closed = later.candles.closed('BTC_PERP', '1m', 1000);
      const last = closed.at(-1) as Candle;
      expect(last.closed).toBe(true);
      expect(last.openMs).toBeGreaterThanOrEqual(seen.openMs);
      if (last.openMs === seen.openMs) {
        expect(last.open.eq(seen.open)).toBe(true);
        expect(last.high.gte(seen.high) && last.low.lte(seen.low)).toBe(true);
      }
      // The first price of each minute is both the candle's open and the minute's price sample.
      const samples = new Map([...later.prices.range()].filter((s) => s.market === 'BTC_PERP').map((s) => [s.timeMs - (s.timeMs % 60_000), s.price]));
      for (const c of closed) expect(samples.get(c.openMs)?.toFixed()).toBe(c.open.toFixed());
      const fiveMin = later.candles.closed('BTC_PERP', '5m', 10);
      const [from, to] = [fiveMin[0]?.openMs ?? 0, fiveMin.at(-1)?.closeMs ?? 0];
      expect(fiveMin.reduce((n, c) => n + c.minutes, 0)).toBe(closed.filter((c) => c.openMs >= from && c.openMs < to).length);
    } finally {
      later.close();
    }
  }, 120_000);

  it('imports a kline file, exports it back as OHLCV CSV, and refuses bad input with exit 2', async () => {
    const dataDir = tempDir('v4bot-candles-cli-');
    const dir = tempDir('v4bot-candles-files-');
    const t0 = Date.UTC(2024, 0, 1);
    const kline = path.join(dir, 'klines.csv');
    writeFileSync(kline, `${t0 * 1000},100.5,101,100,100.75,3.5,0,0,0,0,0,0\n${(t0 + 60_000) * 1000},100.75,102.125,100.25,102,0.000001,0,0,0,0,0,0\n`);
    const imported = await prices(['import', kline, '--market', 'BTC_USDT', '--data-dir', dataDir]);
    expect(imported).toMatchObject({ code: 0, stderr: 'imported BTC_USDT 1m: 2 added, 0 changed, 0 unchanged\n' });
    expect((await prices(['import', kline, '--market', 'BTC_USDT', '--data-dir', dataDir])).stderr).toBe('imported BTC_USDT 1m: 0 added, 0 changed, 2 unchanged\n');

    const out = `${dir}/out/`;
    expect((await prices(['export', '--candles', '1m', '--out', out, '--data-dir', dataDir])).code).toBe(0);
    const csv = readFileSync(path.join(out, 'BTC_USDT.csv'), 'utf8');
    expect(csv).toBe('time,open,high,low,close,volume\n2024-01-01T00:00:00.000Z,100.5,101,100,100.75,3.5\n2024-01-01T00:01:00.000Z,100.75,102.125,100.25,102,0.000001\n');
    const again = await prices(['import', path.join(out, 'BTC_USDT.csv'), '--market', 'BTC_USDT', '--data-dir', dataDir]);
    expect(again.stderr).toBe('imported BTC_USDT 1m: 0 added, 0 changed, 2 unchanged\n');
    const fiveMin = await prices(['export', '--candles', '5m', '--data-dir', dataDir]);
    expect(fiveMin.stdout).toBe('time,market,open,high,low,close,volume\n2024-01-01T00:00:00.000Z,BTC_USDT,100.5,102.125,100,102,3.500001\n');

    const bad = path.join(dir, 'bad.csv');
    writeFileSync(bad, 'time,open,high,low,close\n2024-01-01T00:05:00Z,1,1,1,1\n2024-01-01T00:06:00Z,1,0.5,1,1\n');
    const refused = await prices(['import', bad, '--market', 'BTC_USDT', '--data-dir', dataDir]);
    expect(refused).toMatchObject({ code: 2, stderr: `v4-bot prices: ${bad}:3:3: high: expected at least open, low and close (1), found "0.5"\n` });
    const coarse = await prices(['import', kline, '--market', 'BTC_USDT', '--timeframe', '1h', '--data-dir', dataDir]);
    expect(coarse).toMatchObject({ code: 2, stderr: 'v4-bot prices: --timeframe: expected 1m (longer timeframes are built from one-minute candles), found "1h"\n' });
    expect((await prices(['export', '--candles', '2m', '--data-dir', dataDir])).code).toBe(2);
  }, 60_000);
});
