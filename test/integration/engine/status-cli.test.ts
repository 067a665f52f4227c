import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { Decimal } from '../../../src/core/decimal.js';
import { CreditJob } from '../../../src/engine/credit-job.js';
import { FlexJob } from '../../../src/engine/flex-job.js';
import { recordQuarantine, writeAccount } from '../../../src/engine/status-records.js';
import { TradingStateController } from '../../../src/engine/trading-state.js';
import { silentLogger } from '../../../src/observability/logger.js';
import { buildEngine } from '../../support/engine-harness.js';
import { tempDir } from '../../support/temp-dir.js';
import { FakeGateway } from '../../support/fake-gateway.js';
import { closeAfterTest } from '../../support/test-scope.js';

const run = promisify(execFile);
const d = (s: string) => new Decimal(s);

describe('npm run status', () => {
  it('reads the store while the daemon holds it: orders by state (UNKNOWN listed), fills, positions, flex, credit, reconciledAt', async () => {
    const dir = tempDir();
    const g = new FakeGateway();
    const clock = new ManualClock(1_700_000_000_000);
    const e = buildEngine(dir, g, clock);
    closeAfterTest(e.store);
    let n = 0;
    g.place = () => (['fill', 'fill', 'place', 'unknown'] as const)[n++] ?? 'place';
    await e.orders.placeLimitOrders('grid', [
      { market: 'BTC_USDT', side: 'buy', amount: d('0.5'), price: d('100') },
      { market: 'BTC_USDT', side: 'sell', amount: d('0.2'), price: d('110.5') },
      { market: 'BTC_USDT', side: 'buy', amount: d('1'), price: d('90') },
      { market: 'ETH_USDT', side: 'buy', amount: d('1'), price: d('10') },
    ]);
    g.flexLedger = [{ transactionId: 'f1', createdAtMs: clock.now(), planId: 'p', investmentId: 'i', currency: 'USDT', amount: d('0.0137'), actionType: 'DAILY_EARNING' }];
    g.credit = { active: true, loan: { asset: 'USDT', amount: d('100'), totalFunding: d('100'), currentLtv: d('0.3'), initialLtv: d('0.5'), marginCallLtv: d('0.7'), liquidationLtv: d('0.8'), createdAtMs: 0 } };
    await e.reconciler.scanOnce(); // fills in; the UNKNOWN is left unresolved (no resolver pass)
    const { store } = e;
    store.checkpoints.set('reconcile.completedMs', String(clock.now()), clock.now());
    // What the daemon's equity check records: balances, the prices it saw, equity and its peak.
    writeAccount(store.meta, {
      atMs: clock.now(),
      equityAsset: 'USDT',
      balances: { USDT: d('1000.5'), BTC: d('0.3') },
      prices: { BTC_USDT: d('120') },
      equityQuote: d('1036.5'),
      // The parts of the equity rule (docs/equity.md), with an asset and a position it could not value.
      breakdown: { parts: { balances: d('946.41'), held: d('90.09'), positions: d('0'), flex: d('0') }, unvalued: { XYZ: d('5') }, unmarked: ['ETH_PERP|BOTH'] },
      peakQuote: d('1100'),
    });
    new TradingStateController(store, clock, silentLogger()).set('REDUCE_ONLY', 'test: credit LTV');
    recordQuarantine(store.meta, { strategyId: 'treas', reason: 'strategy treas onTick threw: boom', atMs: clock.now() });
    store.alerts.add('order_lost', 'grid-x', 'never proved to exist', clock.now());
    store.console.setPaused('grid', clock.now(), 'ctl');
    await new FlexJob({ store, gateway: g, clock, logger: silentLogger() }).runOnce();
    await new CreditJob({ store, gateway: g, clock, logger: silentLogger(), tradingState: new TradingStateController(store, clock, silentLogger()) }).runOnce();

    // the store stays open (lock held), as with a running daemon
    const { stdout } = await run(process.execPath, ['--import', 'tsx', path.resolve('src/cli/status.ts'), '--json', '--data-dir', dir]);
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a parsed JSON document
    const st = JSON.parse(stdout) as Record<string, any>;
    expect(Object.keys(st).sort()).toEqual([
      'account', 'alerts', 'atMs', 'audit', 'credit', 'dataDir', 'envFile', 'fills', 'flex', 'mode', 'orders', 'paused', 'pnl', 'positions', 'quarantined', 'reconciledAt', 'tradingState', 'warmUp',
    ]);
    expect(st.dataDir).toBe(path.resolve(dir));
    expect(st.mode).toBeNull();
    // No strategy declared candles: no window warming up.
    expect(st.warmUp).toEqual([]);
    expect(st.orders.byState).toEqual({ FILLED: 2, OPEN: 1, UNKNOWN: 1 });
    expect(st.orders.unresolved.map((u: { market: string; state: string }) => [u.market, u.state])).toEqual([['ETH_USDT', 'UNKNOWN']]);
    expect(st.fills.count).toBe(2);
    expect(st.fills.markets).toEqual([{ market: 'BTC_USDT', fills: 2, buyBase: '0.5', sellBase: '0.2', buyQuote: '50', sellQuote: '22.1', fees: { USDT: '0.0721' } }]);
    expect(st.orders.open.map((o: Record<string, unknown>) => [o['market'], o['side'], o['price'], o['amount'], o['filled'], o['state']])).toEqual([
      ['BTC_USDT', 'buy', '90', '1', '0', 'OPEN'],
      ['ETH_USDT', 'buy', '10', '1', '0', 'UNKNOWN'],
    ]);
    expect(st.fills.recent).toHaveLength(2);
    expect(st.positions).toEqual([
      {
        strategyId: 'grid', market: 'BTC_USDT', quoteAsset: 'USDT', base: '0.3', avgEntry: '100', markPrice: '120', unrealisedPnl: '6',
        realisedPnlBeforeFees: '2.1', feesInQuote: '0.0721', realisedPnlAfterFees: '2.0279', fees: { USDT: '0.0721' }, feesNotValued: {}, fills: 2,
      },
    ]);
    expect(st.pnl.totals).toEqual([{ quoteAsset: 'USDT', realisedPnlBeforeFees: '2.1', fees: '0.0721', realisedPnlAfterFees: '2.0279', unrealisedPnl: '6' }]);
    expect(st.account).toMatchObject({ balances: { USDT: '1000.5', BTC: '0.3' }, equity: '1036.5', peakEquity: '1100', drawdownPct: '5.7727' });
    expect(st.account).toMatchObject({ equityParts: { balances: '946.41', held: '90.09', positions: '0', flex: '0' }, unvalued: { XYZ: '5' }, unmarkedPositions: ['ETH_PERP|BOTH'] });
    expect(st.tradingState).toMatchObject({ state: 'REDUCE_ONLY', reason: 'test: credit LTV' });
    expect(st.quarantined).toEqual([{ strategyId: 'treas', reason: 'strategy treas onTick threw: boom', atMs: clock.now() }]);
    expect(st.paused).toEqual([{ strategyId: 'grid', atMs: clock.now(), by: 'ctl' }]);
    expect(st.alerts).toMatchObject({ count: 1, recent: [{ kind: 'order_lost', subject: 'grid-x' }] });
    expect(st.flex.earnings).toEqual({ USDT: '0.0137' });
    expect(st.credit).toMatchObject({ active: true, asset: 'USDT', amount: '100', currentLtv: '0.3', marginCallLtv: '0.7' });
    expect(st.reconciledAt).toBe(new Date(clock.now()).toISOString());
    expect(st.audit).toBeNull(); // the daemon audits; this store never had one

    const text = await run(process.execPath, ['--import', 'tsx', path.resolve('src/cli/status.ts')], { env: { ...process.env, ENV_FILE: '', BOT_DATA_DIR: dir } });
    for (const heading of [
      'Trading state: REDUCE_ONLY', 'Quarantined: treas', `Paused: grid (since ${new Date(clock.now()).toISOString()}, by ctl)`, 'Open orders (2):', 'Balances (as of', 'Equity: 1036.5 USDT', 'REALISED BEFORE FEES', 'Alerts: 1',
      '= available balances 946.41 + held by open orders 90.09 + collateral positions 0 + flex 0',
      'not valued (no price into USDT, left out): 5 XYZ',
      'positions without a price (counted at their margin only): ETH_PERP|BOTH',
    ]) {
      expect(text.stdout).toContain(heading);
    }
  });

  it('fails with a clear message and exit code 1 when there is no store', async () => {
    const dir = tempDir();
    await expect(run(process.execPath, ['--import', 'tsx', path.resolve('src/cli/status.ts'), '--data-dir', path.join(dir, 'none')])).rejects.toMatchObject({ code: 1 });
  });
});
