/**
 * The reconciler with the in-process venue's account change mark (src/engine/reconcile-shortcut.ts):
 * a pass over an unchanged venue and store reads and writes nothing (its checkpoints are held
 * until a flush), and the first pass after a change (a deal, a conditional record cancelled
 * behind the bot's back) reads everything again. With and without the mark, the same script
 * leaves the same store once the held checkpoints are written.
 */
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { dec } from '../../../src/core/decimal.js';
import { ORDER_STATES } from '../../../src/core/orders.js';
import { inProcessApi } from '../../../src/backtest/in-process-api.js';
import { inProcessGateway } from '../../../src/backtest/in-process-venue.js';
import { venueHasUnappliedDeals } from '../../../src/engine/equity-reader.js';
import { HISTORY_CHECKPOINT, RECONCILED_AT, Reconciler, type ReconcileReport } from '../../../src/engine/reconciler.js';
import { defaultMarkets } from '../../../src/simulator/options.js';
import { cancelOco } from '../../../src/simulator/settle.js';
import { Venue } from '../../../src/simulator/venue.js';
import { buildEngine } from '../../support/engine-harness.js';
import { tempDir } from '../../support/temp-dir.js';
import { closeAfterTest } from '../../support/test-scope.js';

const START = 1_700_000_040_000;

function rig(changeMark = true) {
  const clock = new ManualClock(START);
  const markets = defaultMarkets().map((m) => ({ ...m, volatility: '0' }));
  const venue = new Venue(clock, 7, markets, 60_000);
  const account = venue.addAccount({ apiKey: 'k', apiSecret: 's', balances: { USDT: '1000000', BTC: '10' } });
  const gateway = inProcessGateway(inProcessApi(venue, account), account, { catchUp: () => venue.catchUp(), changeMark });
  const e = buildEngine(tempDir(), gateway, clock);
  closeAfterTest(e.store);
  return { clock, venue, account, e };
}

/** A pass that read the venue: the in-process scan always reads at least one page. */
const full = (r: ReconcileReport): boolean => r.scan.pages > 0;

/** A taker deal of an order the bot did not place (a manual trade on the same account). */
function outsideTrade(venue: Venue, account: ReturnType<typeof rig>['account'], id: string): void {
  venue.place(account, { market: 'BTC_USDT', side: 'buy', amount: dec('0.01'), price: dec('60100'), postOnly: false, ioc: false, rpi: false, clientOrderId: id, kind: 'spot' });
}

describe('reconciler with the account change mark', () => {
  it('skips a pass over an unchanged venue, and reads the deal made right after a skip', async () => {
    const { clock, venue, account, e } = rig();
    await e.orders.placeLimitOrders('s', [{ market: 'BTC_USDT', side: 'buy', amount: dec('0.01'), price: dec('60100') }]);
    expect(full(await e.reconciler.reconcileOnce())).toBe(true);
    const fullAt = String(clock.now());
    // A full pass holds its checkpoints too, read through the reconciler as if written.
    expect(e.store.checkpoints.get(HISTORY_CHECKPOINT)).toBeUndefined();
    expect(e.reconciler.lastReconciledMs()).toBe(clock.now());
    e.reconciler.flushCheckpoints();
    expect(e.store.checkpoints.get(HISTORY_CHECKPOINT)).toEqual({ value: fullAt, updatedMs: clock.now() });
    clock.advance(60_000);
    const skipped = await e.reconciler.reconcileOnce();
    expect(full(skipped)).toBe(false);
    // Held, not written; read through the reconciler as if written.
    expect(e.store.checkpoints.get(HISTORY_CHECKPOINT)?.value).toBe(fullAt);
    expect(e.store.checkpoints.get(RECONCILED_AT)?.value).toBe(fullAt);
    expect(e.reconciler.lastReconciledMs()).toBe(clock.now());
    expect(skipped.scan.toMs).toBe(clock.now());
    e.reconciler.flushCheckpoints();
    expect(e.store.checkpoints.get(HISTORY_CHECKPOINT)).toEqual({ value: String(clock.now()), updatedMs: clock.now() });
    expect(e.store.checkpoints.get(RECONCILED_AT)).toEqual({ value: String(clock.now()), updatedMs: clock.now() });

    clock.advance(1_000);
    outsideTrade(venue, account, 'manual-1');
    clock.advance(59_000);
    const after = await e.reconciler.reconcileOnce();
    expect(full(after)).toBe(true);
    expect(after.scan.newFills).toBe(1);
    expect(e.store.fills.all().filter((f) => f.clientOrderId === 'manual-1')).toHaveLength(1);
    clock.advance(60_000);
    expect(full(await e.reconciler.reconcileOnce())).toBe(false);

    // A resting order placed without a deal: neither the history nor the listing changed.
    const [rest] = await e.orders.placeLimitOrders('s', [{ market: 'BTC_USDT', side: 'buy', amount: dec('0.01'), price: dec('50000') }]);
    expect(rest?.status).toBe('placed');
    clock.advance(60_000);
    expect(full(await e.reconciler.reconcileOnce())).toBe(false);
  });

  it('reads the listing again when an OCO is cancelled behind the bot right after a skip', async () => {
    const { clock, venue, account, e } = rig();
    const o = await e.orders.placeCollateralOrder('s', { market: 'BTC_PERP', side: 'buy', amount: dec('0.01'), price: dec('60100'), stopLoss: dec('55000'), takeProfit: dec('65000') });
    const pass = async () => {
      clock.advance(60_000);
      return e.reconciler.reconcileOnce();
    };
    expect((await pass()).conditional.map((c) => c.type)).toEqual(['leg_active', 'leg_active']);
    expect(full(await pass())).toBe(true); // a pass that activated legs is not skipped over
    expect(full(await pass())).toBe(false);
    const oco = [...account.conditionals.values()].find((r) => r.type === 'oco' && r.active);
    cancelOco(account, oco?.id ?? -1, venue.nowMs());
    expect(full(await pass())).toBe(true); // first "missing" look
    expect(full(await pass())).toBe(true); // the second look confirms it
    expect(e.store.children.byParent(o.clientOrderId).map((c) => c.state)).toEqual(['missing', 'missing']);
    expect(e.store.alerts.list('protective_leg_missing')).toHaveLength(2);
    expect(full(await pass())).toBe(true); // the looks are forgotten by a full pass
    expect(full(await pass())).toBe(false);
  });

  it('tells the equity check that no deal is missing only when the venue made none since a scan', async () => {
    const { clock, venue, account, e } = rig();
    const gateway = inProcessGateway(inProcessApi(venue, account), account);
    const read = () => venueHasUnappliedDeals(gateway, e.store, clock);
    expect(e.reconciler.noDealSinceScan()).toBe(false); // no scan yet
    await e.reconciler.reconcileOnce();
    expect(e.reconciler.noDealSinceScan()).toBe(true);
    clock.advance(1_000);
    outsideTrade(venue, account, 'manual-2');
    expect(e.reconciler.noDealSinceScan()).toBe(false);
    expect(await read()).toBe(true);
    await e.reconciler.reconcileOnce();
    expect(e.reconciler.noDealSinceScan()).toBe(true);
    expect(await read()).toBe(false);
    const off = rig(false);
    await off.e.reconciler.reconcileOnce();
    expect(off.e.reconciler.noDealSinceScan()).toBe(false);
  });

  it('the same script with and without the mark leaves the same store and the same reports', async () => {
    const script = async (changeMark: boolean) => {
      const { clock, venue, account, e } = rig(changeMark);
      const reports: unknown[] = [];
      let skips = 0;
      for (let i = 0; i < 40; i++) {
        clock.advance(60_000);
        if (i % 9 === 0) await e.orders.placeLimitOrders('s', [{ market: 'BTC_USDT', side: 'buy', amount: dec('0.02'), price: dec(String(59_950 - i)) }]);
        if (i % 6 === 3) venue.setPrice('BTC_USDT', String(59_980 - i * 2));
        if (i % 11 === 5) outsideTrade(venue, account, `manual-${i}`);
        if (i % 13 === 7) {
          await e.orders.placeCollateralOrder('s', { market: 'BTC_PERP', side: 'buy', amount: dec('0.01'), price: dec('60100'), stopLoss: dec('59000'), takeProfit: dec('61000') });
        }
        if (i === 30) venue.setPrice('BTC_PERP', '61500');
        const r = await e.reconciler.reconcileOnce();
        if (!full(r)) skips++;
        reports.push({ ...r, scan: { ...r.scan, deals: undefined, pages: undefined, duplicates: undefined } });
        reports.push(e.reconciler.lastReconciledMs());
        if (i % 7 === 2) e.reconciler.flushCheckpoints();
      }
      e.reconciler.flushCheckpoints();
      const { store } = e;
      const dump = JSON.stringify({
        fills: store.fills.all(),
        orders: store.orders.listByState(ORDER_STATES),
        children: store.children.all(),
        alerts: store.alerts.list(),
        checkpoints: [HISTORY_CHECKPOINT, RECONCILED_AT].map((k) => store.checkpoints.get(k)),
      });
      return { dump, reports: JSON.stringify(reports), skips, fills: store.fills.all().length };
    };
    const withMark = await script(true);
    const without = await script(false);
    expect(withMark.skips).toBeGreaterThan(5);
    expect(without.skips).toBe(0);
    expect(withMark.fills).toBeGreaterThan(5);
    expect(withMark.dump).toBe(without.dump);
    expect(withMark.reports).toBe(without.reports);
  });

  it('a restart after the held checkpoints are flushed starts its scan where the running reconciler would', async () => {
    const { clock, e } = rig();
    await e.orders.placeLimitOrders('s', [{ market: 'BTC_USDT', side: 'buy', amount: dec('0.01'), price: dec('60100') }]);
    await e.reconciler.reconcileOnce();
    for (let i = 0; i < 3; i++) {
      clock.advance(60_000);
      expect(full(await e.reconciler.reconcileOnce())).toBe(false);
    }
    e.reconciler.flushCheckpoints();
    const restarted = new Reconciler({ store: e.store, gateway: e.reconciler['deps'].gateway, clock, logger: e.reconciler['deps'].logger, fills: e.fills, resolver: e.resolver });
    clock.advance(60_000);
    const fresh = await restarted.scanOnce();
    const running = await e.reconciler.scanOnce();
    expect(fresh.fromMs).toBe(clock.now() - 60_000 - 300_000);
    expect(running.fromMs).toBe(fresh.fromMs);
  });

  it('the equity check reads the store anchor the skipped passes left once a deal is reported', async () => {
    const { clock, venue, account, e } = rig();
    await e.reconciler.reconcileOnce();
    clock.advance(60_000);
    expect(full(await e.reconciler.reconcileOnce())).toBe(false);
    const skippedAt = String(clock.now());
    expect(e.store.checkpoints.get(HISTORY_CHECKPOINT)?.value).not.toBe(skippedAt);
    clock.advance(1_000);
    outsideTrade(venue, account, 'manual-3');
    expect(e.reconciler.noDealSinceScan()).toBe(false);
    expect(e.store.checkpoints.get(HISTORY_CHECKPOINT)?.value).toBe(skippedAt);
  });
});
