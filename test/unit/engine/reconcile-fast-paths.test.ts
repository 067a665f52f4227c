/**
 * The reconciler's fast paths over the in-process venue give what the full paths give: the
 * conditional listing kept while the account's listing mark stands still
 * (src/backtest/in-process-listing.ts), the child views kept while their inputs are unwritten
 * (src/engine/reconcile-views.ts) and no diff again of the very views and records of a diff that
 * found nothing (the full rig's records are new objects every pass). Random sequences of grid
 * placements, bracketed collateral orders, price moves that fill orders and trigger legs, cancels
 * by the bot and an OCO cancelled behind it, outside trades and quiet candles run on two
 * identical venues and engines, one with the listing kept and one listing and diffing every pass:
 * every pass reports the same, and the stores end with the same rows. After every pass the kept
 * child views equal a fresh reading.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { dec } from '../../../src/core/decimal.js';
import { ORDER_STATES } from '../../../src/core/orders.js';
import { inProcessApi } from '../../../src/backtest/in-process-api.js';
import { inProcessGateway } from '../../../src/backtest/in-process-venue.js';
import { HISTORY_CHECKPOINT, RECONCILED_AT, type ReconcileReport } from '../../../src/engine/reconciler.js';
import { ReconcileViews } from '../../../src/engine/reconcile-views.js';
import { defaultMarkets } from '../../../src/simulator/options.js';
import { cancelOco } from '../../../src/simulator/settle.js';
import { Venue } from '../../../src/simulator/venue.js';
import { buildEngine } from '../../support/engine-harness.js';
import { tempDir } from '../../support/temp-dir.js';
import { closeAfterTest } from '../../support/test-scope.js';

const START = 1_700_000_040_000;

type Op =
  | { kind: 'grid'; buy: boolean; offset: number }
  | { kind: 'bracket'; buy: boolean; offset: number }
  | { kind: 'price'; perp: boolean; move: number }
  | { kind: 'cancel'; pick: number }
  | { kind: 'cancelOco'; pick: number }
  | { kind: 'outside' }
  | { kind: 'quiet' };

const op: fc.Arbitrary<Op> = fc.oneof(
  { arbitrary: fc.record({ kind: fc.constant('grid' as const), buy: fc.boolean(), offset: fc.integer({ min: -3, max: 3 }) }), weight: 3 },
  { arbitrary: fc.record({ kind: fc.constant('bracket' as const), buy: fc.boolean(), offset: fc.integer({ min: -2, max: 2 }) }), weight: 2 },
  { arbitrary: fc.record({ kind: fc.constant('price' as const), perp: fc.boolean(), move: fc.integer({ min: -8, max: 8 }) }), weight: 4 },
  { arbitrary: fc.record({ kind: fc.constant('cancel' as const), pick: fc.nat() }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant('cancelOco' as const), pick: fc.nat() }), weight: 1 },
  { arbitrary: fc.constant({ kind: 'outside' as const }), weight: 1 },
  { arbitrary: fc.constant({ kind: 'quiet' as const }), weight: 3 },
);

function rig(keepListing: boolean) {
  const clock = new ManualClock(START);
  const venue = new Venue(clock, 7, defaultMarkets().map((m) => ({ ...m, volatility: '0' })), 60_000);
  const account = venue.addAccount({ apiKey: 'k', apiSecret: 's', balances: { USDT: '10000000', BTC: '100' } });
  const api = inProcessApi(venue, account);
  const listings = { requests: 0 };
  const list = api.conditionalOrders;
  api.conditionalOrders = (q) => {
    listings.requests++;
    return list(q);
  };
  const gateway = inProcessGateway(api, account, { catchUp: () => venue.catchUp(), keepListing });
  if (!keepListing) {
    // New record objects on every listing: the reconciler diffs every pass.
    const listed = gateway.protectiveOrders.bind(gateway);
    gateway.protectiveOrders = async (markets) => (await listed(markets)).map((r) => ({ ...r }));
  }
  const e = buildEngine(tempDir(), gateway, clock);
  closeAfterTest(e.store);
  return { clock, venue, account, e, listings, views: new ReconcileViews(e.store) };
}

type Rig = ReturnType<typeof rig>;

/** 100 a step around 60 000 on both markets. */
const at = (offset: number) => dec(String(60_000 + offset * 100));

async function apply(r: Rig, o: Op, n: number): Promise<void> {
  const { e, venue, account } = r;
  switch (o.kind) {
    case 'grid':
      await e.orders.placeLimitOrders('grid', [{ market: 'BTC_USDT', side: o.buy ? 'buy' : 'sell', amount: dec('0.01'), price: at(o.offset) }]);
      return;
    case 'bracket': {
      const price = at(o.offset);
      const [stopLoss, takeProfit] = o.buy ? [price.minus(300), price.plus(300)] : [price.plus(300), price.minus(300)];
      await e.orders.placeCollateralOrder('trend', { market: 'BTC_PERP', side: o.buy ? 'buy' : 'sell', amount: dec('0.01'), price, stopLoss, takeProfit });
      return;
    }
    case 'price':
      venue.setPrice(o.perp ? 'BTC_PERP' : 'BTC_USDT', at(o.move).toFixed());
      return;
    case 'cancel': {
      const open = e.store.orders.listByState(['OPEN', 'PARTIALLY_FILLED']);
      const target = open[o.pick % Math.max(1, open.length)];
      if (target !== undefined) await e.orders.cancelOrder(target.strategyId, target.clientOrderId);
      return;
    }
    case 'cancelOco': {
      const ocos = [...account.conditionals.values()].filter((c) => c.type === 'oco' && c.active);
      const target = ocos[o.pick % Math.max(1, ocos.length)];
      if (target !== undefined) cancelOco(account, target.id, venue.nowMs());
      return;
    }
    case 'outside':
      venue.place(account, { market: 'BTC_USDT', side: 'buy', amount: dec('0.01'), price: at(5), postOnly: false, ioc: false, rpi: false, clientOrderId: `manual-${n}`, kind: 'spot' });
      return;
    case 'quiet':
  }
}

/** A pass's report without the read counts (the same either way, but not what is compared). */
function reported(r: ReconcileReport): string {
  return JSON.stringify({ ...r, scan: { ...r.scan, deals: undefined, pages: undefined, duplicates: undefined } });
}

function rows(r: Rig): string {
  const { store } = r.e;
  r.e.reconciler.flushCheckpoints();
  return JSON.stringify({
    fills: store.fills.all(),
    orders: store.orders.listByState(ORDER_STATES),
    children: store.children.all(),
    alerts: store.alerts.list(),
    checkpoints: [HISTORY_CHECKPOINT, RECONCILED_AT].map((k) => store.checkpoints.get(k)),
  });
}

async function run(r: Rig, ops: readonly Op[]): Promise<{ passes: string[]; rows: string }> {
  const passes: string[] = [];
  for (const [n, o] of ops.entries()) {
    await apply(r, o, n);
    r.clock.advance(30_000);
    passes.push(reported(await r.e.reconciler.reconcileOnce()));
    const fresh = new ReconcileViews(r.e.store).read();
    expect(r.views.read().key).toBe(fresh.key);
    expect(r.views.read().views).toEqual(fresh.views);
  }
  return { passes, rows: rows(r) };
}

describe('reconciler fast paths over the in-process venue', () => {
  it('property: the kept listing and child views give the same passes and the same store rows as reading them every pass', async () => {
    const totals = { kept: 0, full: 0, legs: 0 };
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 5, maxLength: 30 }), async (ops) => {
        const kept = rig(true);
        const full = rig(false);
        const a = await run(kept, ops);
        const b = await run(full, ops);
        expect(a.passes).toEqual(b.passes);
        expect(a.rows).toBe(b.rows);
        totals.kept += kept.listings.requests;
        totals.full += full.listings.requests;
        totals.legs += kept.e.store.children.all().filter((c) => c.state === 'filled' || c.state === 'active').length;
      }),
      { numRuns: 25 },
    );
    expect(totals.legs).toBeGreaterThan(10); // legs went live and executed
    expect(totals.kept).toBeGreaterThan(10); // the kept path listed again after changes
    expect(totals.kept).toBeLessThan(totals.full); // and kept the listing in between
  }, 240_000);

  it('diffs again when the store moves a child under the very listing of a quiet diff', async () => {
    const kept = rig(true);
    const full = rig(false);
    const script = async (r: Rig) => {
      await apply(r, { kind: 'bracket', buy: true, offset: 1 }, 0);
      const passes: string[] = [];
      for (let i = 0; i < 4; i++) {
        r.clock.advance(30_000);
        passes.push(reported(await r.e.reconciler.reconcileOnce()));
        // After the quiet pass: a leg's venue id moved in the store alone (the venue, and so the
        // listing, stand still): two looks later it is missing.
        const leg = r.e.store.children.all().find((c) => c.kind === 'take_profit');
        if (i === 1 && leg !== undefined) r.e.store.children.update(leg.id, { orderId: 999_999_999 }, r.clock.now());
      }
      return { passes, rows: rows(r) };
    };
    const a = await script(kept);
    const b = await script(full);
    expect(a.passes[0]).toContain('leg_active');
    expect(b.passes[3]).toContain('leg_missing');
    expect(a).toEqual(b);
  });
});
