/**
 * The daemon side of notifications on a real store: new stored alerts are sent once each (not
 * the ones from before the start), a long UNKNOWN order once, and the daily summary's figures
 * (realised PnL made inside the window, gross and net of quote fees, other fees, counts).
 */
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { Decimal } from '../../../src/core/decimal.js';
import { AlertWatch } from '../../../src/daemon/notify-alerts.js';
import { dailySummary } from '../../../src/daemon/notify-summary.js';
import { writeAccount } from '../../../src/engine/status-records.js';
import type { AlertEvent } from '../../../src/notify/index.js';
import { toWebhookJson } from '../../../src/notify/format.js';
import { silentLogger } from '../../../src/observability/logger.js';
import { openStore, type Store } from '../../../src/store/index.js';
import type { FillRecord } from '../../../src/model/fills.js';
import { tempDir } from '../../support/temp-dir.js';
import { closeAfterTest } from '../../support/test-scope.js';

const d = (s: string): Decimal => new Decimal(s);
const DAY = 86_400_000;
const T0 = Date.UTC(2026, 10, 22);

function setup(startMs = T0): { store: Store; clock: ManualClock } {
  const dir = tempDir();
  const clock = new ManualClock(startMs);
  const store = openStore({ dataDir: dir, clock, logger: silentLogger() });
  closeAfterTest(store);
  return { store, clock };
}

let dealId = 1;
function fill(p: Pick<FillRecord, 'side' | 'amount' | 'price' | 'timeMs'> & Partial<FillRecord>): FillRecord {
  const id = dealId++;
  return { dealId: id, orderId: id, clientOrderId: '', market: 'BTC_USDT', role: 'maker', quote: p.amount.mul(p.price), fee: d('0'), feeAsset: 'USDT', strategyId: 'grid', ownerClientOrderId: null, ...p };
}

describe('AlertWatch', () => {
  it('sends each alert stored after the start once, and a long UNKNOWN order once', () => {
    const { store, clock } = setup();
    store.alerts.add('paper_reset', 'orders', 'old news', clock.now());
    const sent: AlertEvent[] = [];
    const watch = new AlertWatch({ store, clock, logger: silentLogger(), notify: (e) => sent.push(e), everyMs: 1_000, unknownAfterMs: 10 * 60_000 });
    watch.start();
    store.tx(() => store.alerts.add('protective_leg_missing', 'g-1', 'stop-loss not listed twice', clock.now()));
    store.tx(() => store.alerts.add('order_lost', 'g-2', 'lost: no evidence it was ever placed', clock.now()));
    clock.advance(1_000);
    expect(sent.map((e) => [e.kind, e.subject])).toEqual([
      ['protective_leg_missing', 'g-1'],
      ['order_lost', 'g-2'],
    ]);
    clock.advance(5_000);
    expect(sent.length).toBe(2);

    store.orders.insertPending({ clientOrderId: 'g-3', strategyId: 'grid', kind: 'limit', market: 'BTC_USDT', side: 'buy', amount: d('1'), price: d('1'), postOnly: true, ioc: false, rpi: false }, clock.now());
    store.orders.setState('g-3', 'PENDING', 'UNKNOWN', 'timeout', clock.now(), { unknownSinceMs: clock.now() });
    clock.advance(9 * 60_000);
    expect(sent.length).toBe(2);
    clock.advance(2 * 60_000);
    expect(sent[2]).toMatchObject({ kind: 'unknown_unresolved', subject: 'g-3' });
    clock.advance(30 * 60_000);
    expect(sent.length).toBe(3);
    watch.stop();
    expect(clock.pendingCount).toBe(0);
  });
});

describe('dailySummary', () => {
  it('counts the realised PnL made inside the window, gross and net of quote fees', () => {
    const { store } = setup();
    const w = { fromMs: T0, toMs: T0 + DAY };
    store.tx(() => {
      // Bought the day before at 100; half sold inside the window at 110, the rest the day after.
      store.fills.insert(fill({ side: 'buy', amount: d('2'), price: d('100'), timeMs: T0 - 1_000, fee: d('0.2') }));
      store.fills.insert(fill({ side: 'sell', amount: d('1'), price: d('110.01'), timeMs: T0 + 1_000, fee: d('0.11001') }));
      store.fills.insert(fill({ side: 'buy', amount: d('0.5'), price: d('3000'), timeMs: T0 + 2_000, market: 'ETH_BTC', fee: d('0.0000001'), feeAsset: 'ETH' }));
      store.fills.insert(fill({ side: 'sell', amount: d('1'), price: d('120'), timeMs: T0 + DAY, fee: d('0.12') }));
      store.alerts.add('overfill', 'g-1', 'x', T0 + 5);
      store.alerts.add('overfill', 'g-2', 'x', T0 + 6);
      store.alerts.add('order_lost', 'g-3', 'x', T0 - 6);
    });
    expect(dailySummary(store, 'REDUCE_ONLY', w).equity).toBeNull();
    writeAccount(store.meta, {
      atMs: T0 + DAY - 15_000, equityAsset: 'USDT', balances: { USDT: d('900') }, prices: {}, equityQuote: d('1000'), peakQuote: d('1010'),
      breakdown: { parts: { balances: d('900'), held: d('100'), positions: d('0'), flex: d('0') }, unvalued: {}, unmarked: [] },
    });
    const e = dailySummary(store, 'REDUCE_ONLY', w);
    expect(e).toMatchObject({ day: '2026-11-22', tradingState: 'REDUCE_ONLY', fills: 2, openOrders: 0, alerts: [{ kind: 'overfill', count: 2 }] });
    // The equity of the last check, by the one equity rule, with its parts.
    expect(toWebhookJson(e, 's')['equity']).toMatchObject({ asset: 'USDT', total: '1000', peak: '1010', parts: { balances: '900', held: '100', positions: '0', flex: '0' }, unvalued: [] });
    expect(toWebhookJson(e, 's')).toMatchObject({
      pnl: [{ quote: 'USDT', realised: '10.01', fees: '0.11001', realisedNetOfFees: '9.89999' }],
      otherFees: [{ asset: 'ETH', amount: '0.0000001' }],
    });
  });
});
