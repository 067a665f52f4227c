/**
 * A persisted HALTED state survives a restart (health 503, no orders placed) until an operator
 * starts the daemon with `--resume-trading`.
 */
import { describe, expect, it } from 'vitest';
import { SystemClock } from '../../src/core/clock.js';
import { TradingStateController } from '../../src/engine/trading-state.js';
import { silentLogger } from '../../src/observability/logger.js';
import { openStore, openStoreReadOnly } from '../../src/store/index.js';
import { daemonForTest, freePort, spawnDaemon, writeConfig } from '../support/daemon-process.js';
import { tempDir } from '../support/temp-dir.js';
import { eventually } from '../support/eventually.js';

/** A daemon needs seconds to start and trade: poll for its effects slowly, and long enough. */
const WAIT = { timeoutMs: 30_000, everyMs: 250 };

const config = {
  markets: { BTC_USDT: { tick: '0.01', step: '0.000001', minAmount: '0.00001', minTotalQuote: '5.05', maxPositionBase: '1' } },
  strategies: [{ module: 'spot-grid', id: 'grid', budgetQuote: '5000', schedule: '* * * * * *', params: { market: 'BTC_USDT', levels: 2, spacingPct: '0.1', orderAmount: '0.002' } }],
  risk: { maxNotionalPerOrderQuote: '500' },
};


interface Health {
  status: string;
  tradingState: string;
  reasons: { code: string; detail: string }[];
  jobs: Record<string, { lastRunMs: number | null }>;
}

async function healthz(port: number): Promise<{ code: number; body: Health } | undefined> {
  const r = await fetch(`http://127.0.0.1:${port}/healthz`);
  return { code: r.status, body: (await r.json()) as never };
}

function orderCount(dataDir: string): number {
  const store = openStoreReadOnly(dataDir, new SystemClock());
  try {
    return store.orders.all().length;
  } finally {
    store.close();
  }
}

describe('persisted HALTED', () => {
  it('keeps trading halted across a restart until --resume-trading', async () => {
    const dataDir = tempDir();
    const clock = new SystemClock();
    const store = openStore({ dataDir, clock, logger: silentLogger() });
    new TradingStateController(store, clock, silentLogger()).set('HALTED', 'test: operator halt');
    store.close();
    const env = { BOT_CONFIG: writeConfig(config), BOT_DATA_DIR: dataDir };

    const port = await freePort();
    const halt = daemonForTest({ ...env, BOT_HTTP_PORT: String(port) });
    const halted = await eventually(async () => {
      const h = await healthz(port);
      // Wait until the grid ticked at least twice while halted.
      const ticked = h?.body.jobs['strategy:grid']?.lastRunMs;
      return h !== undefined && ticked !== null && ticked !== undefined && h.body.status !== 'starting' ? h : undefined;
    }, 'a tick while halted', WAIT);
    expect(halted.code).toBe(503);
    expect(halted.body.tradingState).toBe('HALTED');
    expect(halted.body.status).toBe('degraded');
    expect(halted.body.reasons).toEqual([{ code: 'trading_halted', detail: 'trading is HALTED: test: operator halt' }]);
    expect(orderCount(dataDir)).toBe(0);
    halt.child.kill('SIGINT');
    expect((await halt.exited).code).toBe(0);

    const resume = daemonForTest({ ...env, BOT_HTTP_PORT: String(port) }, tempDir(), ['--resume-trading']);
    const resumed = await eventually(async () => {
      const h = await healthz(port);
      return h?.code === 200 ? h : undefined;
    }, 'healthy after resume', WAIT);
    expect(resumed.body.tradingState).toBe('ACTIVE');
    expect(resumed.body.reasons).toEqual([]);
    await eventually(() => orderCount(dataDir) > 0, 'orders after resume', WAIT);
    resume.child.kill('SIGINT');
    expect((await resume.exited).code).toBe(0);
  });

  it('refuses an unknown command-line argument with exit 2', async () => {
    const p = spawnDaemon({ BOT_CONFIG: writeConfig(config), BOT_DATA_DIR: tempDir() }, tempDir(), ['--yolo']);
    expect((await p.exited).code).toBe(2);
    expect(p.stderr()).toContain('--yolo');
  });
});
