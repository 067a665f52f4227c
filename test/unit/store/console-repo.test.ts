/** The console's tables (migration 5): bounded equity history, control actions, paused strategies, the change fingerprint. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { dec } from '../../../src/core/decimal.js';
import { silentLogger } from '../../../src/observability/logger.js';
import { EQUITY_HISTORY_MAX_ROWS } from '../../../src/store/console-repo.js';
import { openStore, type Store } from '../../../src/store/index.js';
import { tempDir } from '../../support/temp-dir.js';

let store: Store;
const clock = new ManualClock();

beforeEach(() => {
  store = openStore({ dataDir: tempDir('v4bot-console-store-'), clock, logger: silentLogger() });
});
afterEach(() => store.close());

describe('ConsoleRepository', () => {
  it('keeps the equity history bounded, oldest rows dropped first, values exact', () => {
    const n = EQUITY_HISTORY_MAX_ROWS + 250;
    store.tx(() => {
      for (let i = 0; i < n; i++) store.console.recordEquity({ atMs: i, equity: dec('10000.000000000000000001').plus(i), peak: dec('10000.5') });
    });
    const all = store.console.equitySince(0);
    expect(all.length).toBeLessThanOrEqual(EQUITY_HISTORY_MAX_ROWS + 100);
    expect(all.length).toBeGreaterThanOrEqual(EQUITY_HISTORY_MAX_ROWS);
    expect(all[all.length - 1]).toEqual({ atMs: n - 1, equity: dec('10000.000000000000000001').plus(n - 1), peak: dec('10000.5') });
    expect(all[0]?.atMs).toBeGreaterThan(0);
    expect(store.console.equitySince(n - 3).map((p) => p.atMs)).toEqual([n - 3, n - 2, n - 1]);
  });

  it('records control actions newest first and paused strategies across a reopen', () => {
    store.console.recordAction({ atMs: 1, action: 'halt', target: null, who: 'cli/token', remote: '127.0.0.1', result: 'ok', detail: 'halted' });
    store.console.recordAction({ atMs: 2, action: 'pause', target: 'g1', who: 'dashboard/session', remote: '::1', result: 'ok', detail: null });
    expect(store.console.recentActions(10).map((a) => a.action)).toEqual(['pause', 'halt']);
    store.console.setPaused('g1', 5, 'cli/token');
    store.console.setPaused('g1', 6, 'dashboard/session');
    expect(store.console.paused()).toEqual([{ strategyId: 'g1', atMs: 6, who: 'dashboard/session' }]);
    store.console.clearPaused('g1');
    expect(store.console.paused()).toEqual([]);
  });

  it('changes its fingerprint when an alert, an action or an order changes', () => {
    const f0 = store.console.fingerprint();
    store.alerts.add('k', 's', 'd', 1);
    const f1 = store.console.fingerprint();
    expect(f1).not.toBe(f0);
    store.console.recordAction({ atMs: 1, action: 'halt', target: null, who: 'cli/token', remote: null, result: 'ok', detail: null });
    const f2 = store.console.fingerprint();
    expect(f2).not.toBe(f1);
    store.orders.insertPending({ clientOrderId: 'g1-1', strategyId: 'g1', kind: 'limit', market: 'BTC_USDT', side: 'buy', amount: dec('1'), price: dec('1'), postOnly: false, ioc: false, rpi: false }, 10);
    expect(store.console.fingerprint()).not.toBe(f2);
    expect(store.console.fingerprint()).toBe(store.console.fingerprint());
  });
});
