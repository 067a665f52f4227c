/**
 * Resting orders are not a loss. The daemon in paper mode (its embedded simulator over HTTP, the
 * real engine, the real spot-grid strategy) with the default paper account and a grid of 10
 * levels a side of 0.01 BTC, wide enough never to fill: the equity check must value the account
 * exactly as before the orders (fees: none, no fill), and the drawdown switch must not halt.
 * Before the one equity rule, the switch saw only the available balances and halted at
 * "equity 28324 below peak 40000".
 */
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/index.js';
import { SystemClock } from '../../../src/core/clock.js';
import { Decimal } from '../../../src/core/decimal.js';
import { loadConfiguredStrategies } from '../../../src/daemon/strategies.js';
import { startDaemon, type Daemon } from '../../../src/daemon/start.js';
import { readAccount } from '../../../src/engine/status-records.js';
import { silentLogger } from '../../../src/observability/logger.js';
import { openStoreReadOnly } from '../../../src/store/index.js';
import { writeConfig } from '../../support/daemon-process.js';
import { tempDir } from '../../support/temp-dir.js';
import { eventually } from '../../support/eventually.js';

const GRID = {
  markets: { BTC_USDT: { tick: '0.01', step: '0.000001', minAmount: '0.00001', minTotalQuote: '5.05', maxPositionBase: '1', maxOpenOrders: 40 } },
  // Levels 3 % apart: the simulated price (0.1 % a step) does not reach the first one during the test.
  strategies: [{ module: 'spot-grid', id: 'grid', budgetQuote: '20000', schedule: '* * * * * *', params: { market: 'BTC_USDT', levels: 10, spacingPct: '3', orderAmount: '0.01' } }],
  risk: { maxNotionalPerOrderQuote: '1000' },
  jobs: { equityCheckCron: '* * * * * *' },
};

/** The default paper account (src/config/schema.ts `paperSchema`). */
const START = { USDT: new Decimal(10_000), BTC: new Decimal('0.5') };

let daemon: Daemon | null = null;
afterEach(async () => {
  await daemon?.stop('test done');
  daemon = null;
});

describe('equity with a resting grid', () => {
  it('20 resting orders, no fill: equity is the starting account at the current price, and trading stays ACTIVE', async () => {
    const dataDir = tempDir();
    const confDir = tempDir();
    const config = loadConfig({
      env: { BOT_MODE: 'paper', BOT_CONFIG: writeConfig(GRID, confDir), BOT_DATA_DIR: dataDir, BOT_HTTP_PORT: '0', LOG_LEVEL: 'silent', ENV_FILE: '' },
      cwd: process.cwd(),
    });
    expect(config.risk.maxDrawdownPct.toFixed()).toBe('10');
    daemon = await startDaemon({ config, clock: new SystemClock(), logger: silentLogger(), strategies: await loadConfiguredStrategies(config) });
    const reader = openStoreReadOnly(dataDir, new SystemClock());
    try {
      // All 20 orders rest, then three equity checks later than the last of them.
      const checks = await eventually(
        () => {
          const open = reader.orders.listByState(['OPEN']);
          if (open.length < 20) return undefined;
          const lastPlacedMs = Math.max(...open.map((o) => o.updatedMs));
          const after = reader.console.equitySince(lastPlacedMs + 1);
          return after.length >= 3 ? after : undefined;
        },
        '20 resting orders and three equity checks after them',
        { timeoutMs: 45_000, everyMs: 200 },
      );
      expect(reader.fills.count()).toBe(0);
      const account = readAccount(reader.meta);
      const price = account?.prices['BTC_USDT'];
      expect(price).toBeDefined();
      // No fill, no fee: the account is worth exactly what it started with at the price of the check.
      expect(account?.equityQuote.toFixed()).toBe(START.USDT.plus(START.BTC.mul(price as Decimal)).toFixed());
      expect(account?.breakdown?.parts.held.gt(10_000)).toBe(true);
      for (const p of checks) expect(p.peak.minus(p.equity).div(p.peak).mul(100).lt(1)).toBe(true);
      expect(JSON.parse(reader.meta.get('tradingState') ?? '{"state":"ACTIVE"}').state).toBe('ACTIVE');
    } finally {
      reader.close();
    }
  }, 60_000);
});
