/**
 * The built daemon in paper mode (embedded simulator over HTTP, temp data dir): it becomes
 * healthy, places grid orders, receives fills, `status --json` shows them, SIGINT exits 0, and a
 * restart on the same data dir continues (new orders, sequence not reused, no duplicate ladder;
 * the paper account itself persists: test/e2e/paper-account.test.ts).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SystemClock } from '../../src/core/clock.js';
import { openStoreReadOnly } from '../../src/store/index.js';
import type { OrderRecord } from '../../src/model/journal.js';
import { LOCK_PID_FILE } from '../../src/store/lock.js';
import { daemonForTest, type DaemonProcess, freePort, status, writeConfig } from '../support/daemon-process.js';
import { tempDir } from '../support/temp-dir.js';
import { eventually } from '../support/eventually.js';

/** A daemon needs seconds to start and trade: poll for its effects slowly, and long enough. */
const WAIT = { timeoutMs: 30_000, everyMs: 250 };

const config = {
  markets: {
    BTC_USDT: { tick: '0.01', step: '0.000001', minAmount: '0.00001', minTotalQuote: '5.05', maxPositionBase: '1', maxOpenOrders: 20 },
  },
  strategies: [
    { module: 'spot-grid', id: 'grid', budgetQuote: '5000', schedule: '* * * * * *', params: { market: 'BTC_USDT', levels: 3, spacingPct: '0.05', orderAmount: '0.002', postOnly: false } },
    { module: 'treasury', id: 'treas', budgetQuote: '1', params: { minQuoteBalance: '10' } },
  ],
  risk: { maxNotionalPerOrderQuote: '500' },
  jobs: { reconcileCron: '* * * * * *', equityCheckCron: '*/2 * * * * *' },
  paper: { seed: 7, balances: { USDT: '20000', BTC: '1' }, startPrices: { BTC_USDT: '60000', BTC_PERP: '60000' }, volatility: '0.002', volumePerStep: '1', priceStepMs: 100 },
  shutdown: { drainTimeoutMs: 5000 },
};


function orders(dataDir: string): OrderRecord[] {
  const store = openStoreReadOnly(dataDir, new SystemClock());
  try {
    return store.orders.all();
  } finally {
    store.close();
  }
}

const seq = (id: string): number => Number.parseInt(id.split('-').pop() ?? '', 36);

/** A clean stop exits 0 and closes the store (a killed process would leave its pid file behind). */
async function stopWithSigint(p: DaemonProcess, dataDir: string): Promise<void> {
  p.child.kill('SIGINT');
  const { code } = await p.exited;
  expect(code).toBe(0);
  expect(existsSync(path.join(dataDir, LOCK_PID_FILE))).toBe(false);
}

describe('daemon in paper mode', () => {
  it('trades, reports, stops cleanly and continues after a restart', async () => {
    const dataDir = tempDir();
    const env = { BOT_CONFIG: writeConfig(config), BOT_DATA_DIR: dataDir };

    const port = await freePort();
    const first = daemonForTest({ ...env, BOT_HTTP_PORT: String(port) });
    const health = await eventually(async () => {
      const r = await fetch(`http://127.0.0.1:${port}/healthz`);
      return r.status === 200 ? ((await r.json()) as { mode: string; reconcile: { ok: boolean }; clockSkewMs: number | null }) : undefined;
    }, 'healthy', WAIT);
    expect(health.mode).toBe('paper');
    expect(health.reconcile.ok).toBe(true);
    // Same host, same clock: only the Date header's whole seconds and the latency apart.
    expect(typeof health.clockSkewMs).toBe('number');
    expect(Math.abs(health.clockSkewMs as number)).toBeLessThan(2_000);

    const s = await eventually(async () => {
      const st = (await status(dataDir)) as { fills: { count: number }; orders: { byState: Record<string, number> } };
      return st.fills.count > 0 ? st : undefined;
    }, 'a fill in status --json', { ...WAIT, timeoutMs: 60_000 });
    expect(Object.values(s.orders.byState).reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
    const metrics = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
    expect(metrics).toMatch(/bot_fills_total\{strategy="grid"\} [1-9]/);
    expect(metrics).toMatch(/^bot_clock_skew_seconds -?\d/m);

    await stopWithSigint(first, dataDir);
    const before = orders(dataDir);
    expect(before.length).toBeGreaterThan(0);
    const maxSeq = Math.max(...before.filter((o) => o.strategyId === 'grid').map((o) => seq(o.clientOrderId)));

    const second = daemonForTest(env);
    const after = await eventually(() => {
      const now = orders(dataDir);
      return now.some((o) => o.strategyId === 'grid' && seq(o.clientOrderId) > maxSeq && o.state !== 'PENDING') ? now : undefined;
    }, 'new orders after the restart', WAIT);
    const ids = after.map((o) => o.clientOrderId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const old of before) expect(ids).toContain(old.clientOrderId);
    const newOnes = after.filter((o) => !before.some((b) => b.clientOrderId === o.clientOrderId));
    expect(newOnes.every((o) => seq(o.clientOrderId) > maxSeq)).toBe(true);
    const live = after.filter((o) => o.strategyId === 'grid' && ['PENDING', 'OPEN', 'PARTIALLY_FILLED', 'UNKNOWN'].includes(o.state));
    // At most one order per level of the ladder (2 × levels + 1): the orders the restart carried
    // over (the paper account persists) count, and nothing is placed twice.
    expect(live.length).toBeLessThanOrEqual(7);
    expect(new Set(live.map((o) => o.price.toFixed())).size).toBe(live.length);

    await stopWithSigint(second, dataDir);
  });
});
