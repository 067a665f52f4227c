/**
 * `status` against a data dir a real paper daemon produced: while the daemon runs it shows every
 * section (open orders, recent fills, balances, equity, positions with unrealised PnL and
 * realised PnL before and after fees, trading state, quarantines, alerts) and names the data dir;
 * after a clean stop its JSON amounts equal the store's exact decimals.
 */
import { execFile } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { SystemClock } from '../../src/core/clock.js';
import { toWire } from '../../src/core/decimal.js';
import { ReadModels } from '../../src/engine/read-models.js';
import { readAccount } from '../../src/engine/status-records.js';
import { openStoreReadOnly } from '../../src/store/index.js';
import { distEntry, freePort, spawnDaemon, status, writeConfig, type DaemonProcess } from '../support/daemon-process.js';
import { tempDir } from '../support/temp-dir.js';
import { eventually } from '../support/eventually.js';

const WAIT = { timeoutMs: 60_000, everyMs: 300 };

const config = {
  markets: {
    BTC_USDT: { tick: '0.01', step: '0.000001', minAmount: '0.00001', minTotalQuote: '5.05', maxPositionBase: '1', maxOpenOrders: 20 },
  },
  strategies: [
    { module: 'spot-grid', id: 'grid', budgetQuote: '5000', schedule: '* * * * * *', params: { market: 'BTC_USDT', levels: 3, spacingPct: '0.05', orderAmount: '0.002', postOnly: false } },
  ],
  risk: { maxNotionalPerOrderQuote: '500' },
  jobs: { reconcileCron: '* * * * * *', equityCheckCron: '* * * * * *' },
  paper: { seed: 11, balances: { USDT: '20000', BTC: '1' }, startPrices: { BTC_USDT: '60000', BTC_PERP: '60000' }, volatility: '0.002', volumePerStep: '1', priceStepMs: 100 },
  shutdown: { drainTimeoutMs: 5000 },
};

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a parsed JSON document
type St = Record<string, any>;

function statusText(dataDir: string): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [distEntry('status'), '--data-dir', dataDir], (err, stdout) => (err === null ? resolve(stdout) : reject(err)));
  });
}

let running: DaemonProcess | null = null;
afterEach(() => {
  running?.child.kill('SIGKILL');
  running = null;
});

describe('status of a paper daemon', () => {
  it('shows every section while it runs, and the store\'s exact amounts after it stopped', async () => {
    const dataDir = tempDir();
    running = spawnDaemon({ BOT_CONFIG: writeConfig(config), BOT_DATA_DIR: dataDir, BOT_HTTP_PORT: String(await freePort()) });
    // The grid's orders fill within a second on this fast market: the text is read in the same
    // wait, and taken only when it too was read while some order was open.
    const { live, text } = await eventually(async () => {
      const st = (await status(dataDir)) as St;
      if (!(st.fills.count > 0 && st.account !== null && st.orders.open.length > 0)) return undefined;
      const read = await statusText(dataDir);
      return read.includes('Open orders (0)') ? undefined : { live: st, text: read };
    }, 'fills, open orders and an account snapshot in status', WAIT);
    expect(live.dataDir).toBe(dataDir);
    expect(live.tradingState.state).toBe('ACTIVE');
    expect(live.quarantined).toEqual([]);
    expect(live.orders.open[0]).toMatchObject({ strategyId: 'grid', market: 'BTC_USDT' });
    expect(live.orders.open[0].ageMs).toBeGreaterThanOrEqual(0);
    expect(live.account.balances.USDT).toMatch(/^\d+(\.\d+)?$/);
    expect(live.pnl.markedAtMs).toBe(live.account.atMs);
    for (const heading of [`Data dir: ${dataDir}`, 'Trading state: ACTIVE', 'Quarantined: none', 'Open orders (', 'ID ', 'Fills: ', 'Balances (as of', 'Equity: ', 'Positions (', 'REALISED BEFORE FEES', 'Alerts: ']) {
      expect(text).toContain(heading);
    }

    running.child.kill('SIGINT');
    expect((await running.exited).code).toBe(0);
    running = null;

    const st = (await status(dataDir)) as St;
    const store = openStoreReadOnly(dataDir, new SystemClock());
    try {
      const account = readAccount(store.meta);
      if (account === null) throw new Error('no account snapshot in the store');
      expect(st.account.balances).toEqual(Object.fromEntries(Object.entries(account.balances).map(([k, v]) => [k, toWire(v)])));
      expect(st.account.equity).toBe(toWire(account.equityQuote));
      const open = store.orders.all().filter((o) => ['PENDING', 'OPEN', 'PARTIALLY_FILLED', 'PENDING_CANCEL', 'UNKNOWN'].includes(o.state));
      expect(st.orders.open.map((o: St) => [o.clientOrderId, o.price, o.amount, o.filled])).toEqual(
        open.sort((a, b) => a.createdMs - b.createdMs).map((o) => [o.clientOrderId, toWire(o.price), toWire(o.amount), toWire(o.filledBase)]),
      );
      const positions = new ReadModels(store).allPositions();
      expect(st.positions.map((p: St) => [p.market, p.base, p.realisedPnlBeforeFees])).toEqual(positions.map((p) => [p.market, toWire(p.base), toWire(p.realisedPnl)]));
      const grid = positions.find((p) => p.strategyId === 'grid');
      const mark = account.prices['BTC_USDT'];
      expect(grid).toBeDefined();
      expect(mark).toBeDefined();
      if (grid !== undefined && mark !== undefined && !grid.base.isZero()) {
        const expected = grid.base.gt(0) ? grid.base.mul(mark).minus(grid.openCost) : grid.openCost.plus(grid.base.mul(mark));
        expect(st.positions.find((p: St) => p.strategyId === 'grid').unrealisedPnl).toBe(toWire(expected));
      }
      const newest = store.fills.all().sort((a, b) => b.timeMs - a.timeMs || b.dealId - a.dealId)[0];
      if (newest === undefined) throw new Error('no fill in the store');
      expect(st.fills.recent[0]).toMatchObject({ dealId: newest.dealId, price: toWire(newest.price), amount: toWire(newest.amount), fee: toWire(newest.fee) });
    } finally {
      store.close();
    }
  });
});
