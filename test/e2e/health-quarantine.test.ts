/**
 * A real paper daemon whose only strategy throws on every tick (its persisted state is corrupt:
 * spot-grid's `centre` is not a decimal, so `new Decimal(...)` throws): once the error budget is
 * spent the instance is quarantined, `/healthz` answers 503 `degraded` with the reason
 * `all_strategies_quarantined`, and `status --json` lists the quarantine with its cause.
 */
import { describe, expect, it } from 'vitest';
import { SystemClock } from '../../src/core/clock.js';
import { silentLogger } from '../../src/observability/logger.js';
import { openStore } from '../../src/store/index.js';
import { daemonForTest, freePort, status, writeConfig } from '../support/daemon-process.js';
import { tempDir } from '../support/temp-dir.js';
import { eventually } from '../support/eventually.js';

const WAIT = { timeoutMs: 30_000, everyMs: 250 };

const config = {
  markets: { BTC_USDT: { tick: '0.01', step: '0.000001', minAmount: '0.00001', minTotalQuote: '5.05', maxPositionBase: '1' } },
  strategies: [{ module: 'spot-grid', id: 'grid', budgetQuote: '5000', schedule: '* * * * * *', params: { market: 'BTC_USDT', levels: 2, spacingPct: '0.1', orderAmount: '0.002' } }],
  risk: { maxNotionalPerOrderQuote: '500' },
  plugins: { errorBudget: 2 },
};

interface Health {
  status: string;
  reasons: { code: string; detail: string }[];
  quarantined: string[];
}

describe('/healthz with every strategy quarantined', () => {
  it('answers 503 degraded naming the reason, and status lists the quarantine', async () => {
    const dataDir = tempDir();
    const store = openStore({ dataDir, clock: new SystemClock(), logger: silentLogger() });
    store.strategyState('grid').set('centre', 'not-a-decimal');
    store.close();
    const port = await freePort();
    const running = daemonForTest({ BOT_CONFIG: writeConfig(config), BOT_DATA_DIR: dataDir, BOT_HTTP_PORT: String(port) });

    const degraded = await eventually(async () => {
      const r = await fetch(`http://127.0.0.1:${port}/healthz`);
      const body = (await r.json()) as Health;
      return body.quarantined.length > 0 ? { code: r.status, body } : undefined;
    }, 'the grid quarantined', WAIT);
    expect(degraded.code).toBe(503);
    expect(degraded.body.status).toBe('degraded');
    expect(degraded.body.quarantined).toEqual(['grid']);
    expect(degraded.body.reasons).toEqual([{ code: 'all_strategies_quarantined', detail: 'every strategy instance is quarantined (grid)' }]);

    const st = (await status(dataDir)) as { quarantined: { strategyId: string; reason: string }[] };
    expect(st.quarantined).toHaveLength(1);
    expect(st.quarantined[0]?.strategyId).toBe('grid');
    expect(st.quarantined[0]?.reason).toMatch(/grid onTick threw/);

    running.child.kill('SIGINT');
    expect((await running.exited).code).toBe(0);
  });
});
