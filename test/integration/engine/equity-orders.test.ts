/**
 * The equity rule through the simulator over HTTP with the real client, gateway, journal and
 * order manager, prices held still: placing and cancelling spot and collateral orders never moves
 * equity; filling them moves it by exactly the fees paid (a fill at the market price gains or
 * loses nothing else). The chaos suite's independent valuation of the simulator's truth agrees.
 */
import { describe, expect, it } from 'vitest';
import { Decimal } from '../../../src/core/decimal.js';
import { simulatorHoldRules } from '../../../src/daemon/hold-rules.js';
import { EquitySources } from '../../../src/engine/equity-sources.js';
import { readEquity, venueHasUnappliedDeals } from '../../../src/engine/equity-reader.js';
import { pricesFromListing } from '../../../src/engine/market-data.js';
import { trueEquity } from '../../chaos/true-equity.js';
import { tempDir } from '../../support/temp-dir.js';
import { engineFor, type LiveEngine } from '../../support/engine-stack.js';
import { closeAfterTest, useStack } from '../../support/test-scope.js';

const d = (s: string) => new Decimal(s);

async function equityNow(e: LiveEngine, sources: EquitySources): Promise<Decimal> {
  const fresh = async () => ({ prices: pricesFromListing(await e.gateway.markets()), balances: Object.fromEntries(await e.gateway.balances()) });
  const r = await readEquity({
    equityAsset: 'USDT',
    sources,
    fresh,
    unappliedDeals: () => venueHasUnappliedDeals(e.gateway, e.store, e.clock),
    reconcile: () => e.reconciler.reconcileOnce(),
  });
  expect(r.settled).toBe(true);
  return r.equity.total;
}

describe('equity through the simulator', () => {
  it('place and cancel leave equity unchanged; fills move it by their fees only', async () => {
    const stack = await useStack();
    const { sim } = stack;
    const dir = tempDir();
    const e = closeAfterTest(engineFor(dir, sim, stack.clock));
    const sources = new EquitySources(e.store, simulatorHoldRules(sim.markets));
    const start = await equityNow(e, sources);

    await e.orders.placeLimitOrders('grid', [
      { market: 'BTC_USDT', side: 'buy', amount: d('0.05'), price: d('55000') },
      { market: 'BTC_USDT', side: 'sell', amount: d('0.05'), price: d('65000') },
      { market: 'ETH_USDT', side: 'buy', amount: d('1'), price: d('2500') },
    ]);
    await e.orders.placeCollateralOrder('perp', { market: 'BTC_PERP', side: 'sell', amount: d('0.1'), price: d('70000') });
    await e.orders.placeCollateralOrder('perp', { market: 'BTC_PERP', side: 'buy', amount: d('0.1'), price: d('50000') });
    expect(e.store.orders.listByState(['OPEN'])).toHaveLength(5);
    const truth = sim.truth();
    expect(Object.keys(truth.locked).length).toBeGreaterThan(0);
    expect((await equityNow(e, sources)).toFixed()).toBe(start.toFixed());
    // The chaos suite's own valuation of the simulator's truth agrees.
    expect(trueEquity(sim.truth()).toFixed()).toBe(start.toFixed());

    await e.orders.cancelAll('grid', 'BTC_USDT');
    await e.orders.cancelAll('perp', 'BTC_PERP');
    expect((await equityNow(e, sources)).toFixed()).toBe(start.toFixed());

    // Crossing orders fill at the market price as takers: a spot buy, then a collateral long.
    const price = d(sim.prices().prices['BTC_PERP'] as string);
    await e.orders.placeLimitOrders('grid', [{ market: 'BTC_USDT', side: 'buy', amount: d('0.01'), price: d(sim.prices().prices['BTC_USDT'] as string).plus(100) }]);
    await e.orders.placeCollateralOrder('perp', { market: 'BTC_PERP', side: 'buy', amount: d('0.02'), price: price.plus(100) });
    await e.reconciler.reconcileOnce();
    const fills = e.store.fills.all();
    expect(fills.length).toBeGreaterThanOrEqual(2);
    const fees = fills.reduce((s, f) => s.plus(f.fee), d('0'));
    expect(fees.gt(0)).toBe(true);
    expect((await equityNow(e, sources)).toFixed()).toBe(start.minus(fees).toFixed());
    expect(sim.truth().positions.some((p) => p.market === 'BTC_PERP' && p.amount !== '0')).toBe(true);
    expect(trueEquity(sim.truth()).toFixed()).toBe(start.minus(fees).toFixed());
  });

  it('a fill the venue made that the journal has not applied yet is reconciled in before the reading counts it', async () => {
    const stack = await useStack();
    const { sim } = stack;
    const dir = tempDir();
    const e = closeAfterTest(engineFor(dir, sim, stack.clock));
    await e.reconciler.reconcileOnce();
    const sources = new EquitySources(e.store, simulatorHoldRules(sim.markets));
    await e.orders.placeLimitOrders('grid', [{ market: 'BTC_USDT', side: 'buy', amount: d('0.5'), price: d('59000') }]);
    // The price trades through the resting buy at the venue; the journal still calls it OPEN.
    sim.setPrices({ BTC_USDT: '58900', BTC_PERP: '58900' });
    expect(sim.truth().deals.count).toBe(1);
    expect(e.store.fills.count()).toBe(0);
    // Counting the hold of 0.5 × 59000 again on top of the balance would read ~29 500 USDT high.
    expect((await equityNow(e, sources)).toFixed()).toBe(trueEquity(sim.truth()).toFixed());
    expect(e.store.fills.count()).toBe(1);
  });
});
