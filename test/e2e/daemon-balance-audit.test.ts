/**
 * The balance audit in the real built daemon (live mode against the simulator over loopback, as
 * the chaos run does), audited every 3 s: while the grid trades (fills, fees, cancels and
 * re-placements) several audits pass without an alert and `/healthz` stays 200; then another
 * client on the same API key buys BTC, and the next audits report it: a `books_unexplained`
 * alert naming the asset and its amounts reaches the webhook, `/healthz` answers 503 with the
 * reason, and `status --json` shows the audit's result.
 */
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SystemClock } from '../../src/core/clock.js';
import { Decimal } from '../../src/core/decimal.js';
import { createApiClient } from '../../src/exchange/api-client.js';
import { startSimulator, type SimulatorHandle } from '../../src/simulator/index.js';
import { openStoreReadOnly } from '../../src/store/index.js';
import { buildStatus } from '../../src/cli/status-model.js';
import { freePort, spawnDaemon, writeConfig, type DaemonProcess } from '../support/daemon-process.js';
import { tempDir } from '../support/temp-dir.js';
import { eventually } from '../support/eventually.js';
import { startReceivers, type Receivers } from '../support/notify-receivers.js';

const WAIT = { timeoutMs: 60_000, everyMs: 250 };

const config = {
  markets: { BTC_USDT: { tick: '0.01', step: '0.000001', minAmount: '0.00001', minTotalQuote: '5.05', maxPositionBase: '1', maxOpenOrders: 20 } },
  strategies: [
    { module: 'spot-grid', id: 'grid', budgetQuote: '5000', schedule: '* * * * * *', params: { market: 'BTC_USDT', levels: 3, spacingPct: '0.05', orderAmount: '0.002', postOnly: false } },
  ],
  risk: { maxNotionalPerOrderQuote: '500', maxDrawdownPct: '50' },
  jobs: { reconcileCron: '* * * * * *', balanceAuditCron: '*/3 * * * * *' },
  shutdown: { drainTimeoutMs: 5000 },
};

interface Health {
  status: string;
  reasons: { code: string; detail: string }[];
}

let running: DaemonProcess | null = null;
let rx: Receivers | null = null;
let sim: SimulatorHandle | null = null;
afterEach(async () => {
  running?.child.kill('SIGKILL');
  running = null;
  await rx?.close();
  rx = null;
  await sim?.close();
  sim = null;
});

async function health(port: number): Promise<{ code: number; body: Health }> {
  const res = await fetch(`http://127.0.0.1:${port}/healthz`);
  return { code: res.status, body: (await res.json()) as Health };
}

/** Audits stored so far and the books_unexplained alerts among the store's alerts. */
function fromStore(dataDir: string): { audits: number; outcomes: string[]; fills: number; alerts: number } {
  const store = openStoreReadOnly(dataDir, new SystemClock());
  try {
    const recent = store.audit.recent(1_000);
    return { audits: recent.length, outcomes: recent.map((r) => r.outcome), fills: store.fills.count(), alerts: store.alerts.list('books_unexplained').length };
  } finally {
    store.close();
  }
}

describe('balance audit in the daemon', () => {
  it('stays quiet while the bot trades, then reports another client\'s trade to the webhook and /healthz', async () => {
    sim = await startSimulator({ clock: new SystemClock(), seed: 11, admin: true, stepMs: 100, defaultBalances: { USDT: '100000', BTC: '1' } });
    rx = await startReceivers();
    const dir = tempDir();
    const dataDir = path.join(dir, 'data');
    const port = await freePort();
    running = spawnDaemon({
      BOT_MODE: 'live',
      API_BASE_URL: sim.baseUrl,
      API_KEY: sim.defaultAccount.apiKey,
      API_SECRET: sim.defaultAccount.apiSecret,
      BOT_CONFIG: writeConfig(config, dir),
      BOT_DATA_DIR: dataDir,
      BOT_HTTP_PORT: String(port),
      NOTIFY_WEBHOOK_URL: `${rx.url}/hook`,
      NOTIFY_EVENTS: 'alerts',
      LOG_LEVEL: 'warn',
    });
    await eventually(async () => (await health(port)).code === 200, 'the daemon ready', WAIT);

    // The bot trades: fills arrive and at least three audits pass after the first one.
    const traded = await eventually(() => {
      const s = fromStore(dataDir);
      return s.fills >= 2 && s.audits >= 4 ? s : undefined;
    }, 'fills and four audits', WAIT);
    const atFills = traded.audits;
    await eventually(() => fromStore(dataDir).audits >= atFills + 3, 'three more audits after the fills', WAIT);
    const clean = fromStore(dataDir);
    expect(clean.alerts).toBe(0);
    expect(clean.outcomes).not.toContain('unexplained');
    expect(clean.outcomes.filter((o) => o === 'clean').length).toBeGreaterThanOrEqual(3);
    expect((await health(port)).code).toBe(200);
    expect(rx.at('/hook').filter((r) => r.json['kind'] === 'books_unexplained')).toEqual([]);

    // Another program on the same key buys 0.01 BTC at 1 % above the price (a taker fill).
    const other = createApiClient({ baseUrl: sim.baseUrl, ...sim.defaultAccount, clock: new SystemClock() });
    const price = new Decimal(sim.prices().prices['BTC_USDT'] as string);
    const [placed] = await other.bulkLimitOrders([{ market: 'BTC_USDT', side: 'buy', amount: new Decimal('0.01'), price: price.mul('1.01').toDecimalPlaces(2) }]);
    await other.close();
    expect(placed?.status).toBe('placed');

    // Degraded until the next audit, which finds the window after the reported one clean.
    const degraded = await eventually(async () => {
      const h = await health(port);
      return h.code === 503 ? h.body : undefined;
    }, '/healthz degraded', { timeoutMs: 60_000, everyMs: 50 });
    // What `npm run status` shows at that moment (the same function builds its --json).
    const st = buildStatus(dataDir, new SystemClock());
    expect(degraded.status).toBe('degraded');
    expect(degraded.reasons.map((r) => r.code)).toContain('books_unexplained');
    expect(degraded.reasons.find((r) => r.code === 'books_unexplained')?.detail).toContain('BTC +0.01');
    expect(st['audit']).toMatchObject({ outcome: 'unexplained' });
    const assets = (st['audit'] as { assets: { asset: string; verdict: string; difference: string }[] }).assets;
    expect(assets.find((a) => a.asset === 'BTC')).toMatchObject({ verdict: 'unexplained', difference: '0.01' });

    const alert = await eventually(() => rx?.at('/hook').find((r) => r.json['kind'] === 'books_unexplained' && r.json['subject'] === 'BTC'), 'the BTC alert at the webhook', WAIT);
    const detail = String(alert.json['detail']);
    expect(detail).toContain('BTC: main balance changed by ');
    expect(detail).toMatch(/the books explain [+-][0-9.]+, difference \+0\.01 \(allowed [0-9.]+\) from \d{4}-\d\d-\d\dT[0-9:.]+Z to \d{4}-\d\d-\d\dT[0-9:.]+Z/);
    expect(detail).toContain('a manual trade on the same API key');
    await eventually(() => rx?.at('/hook').find((r) => r.json['kind'] === 'books_unexplained' && r.json['subject'] === 'USDT'), 'the USDT alert', WAIT);

    expect(fromStore(dataDir).alerts).toBe(2);
  });
});
