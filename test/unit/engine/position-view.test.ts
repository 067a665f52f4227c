/**
 * The bot decides on the venue's truth: a placement or cancel reply that shows filled amounts
 * counts at once (provisionally) in positions and in the risk gate's worst case, its deals are
 * fetched at once (onFill within the tick), and provisional and real fills never count twice.
 */
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { dec } from '../../../src/core/decimal.js';
import { TransientError } from '../../../src/core/errors.js';
import { ReadModels } from '../../../src/engine/read-models.js';
import { checkOrders, type MarketRules } from '../../../src/engine/risk-gate.js';
import { StrategyInputs } from '../../../src/engine/strategy-inputs.js';
import { buildEngine, type EngineParts } from '../../support/engine-harness.js';
import { tempDir } from '../../support/temp-dir.js';
import { FakeGateway } from '../../support/fake-gateway.js';
import { closeAfterTest } from '../../support/test-scope.js';

const rules: MarketRules = { tick: dec('0.1'), step: dec('0.0001'), minAmount: dec('0.0001'), minTotalQuote: dec('5'), maxPositionBase: dec('0.002'), maxOpenOrders: 10 };

function setup(): { g: FakeGateway; e: EngineParts; inputs: StrategyInputs } {
  const dir = tempDir();
  const g = new FakeGateway();
  const e = buildEngine(dir, g, new ManualClock());
  closeAfterTest(e.store);
  const inputs = new StrategyInputs({
    store: e.store,
    read: new ReadModels(e.store),
    clock: e.clock,
    markets: { BTC_PERP: rules },
    limits: { maxNotionalPerOrderQuote: dec('1000'), maxDrawdownPct: dec('10') },
    budgets: new Map([['sig', dec('10000')]]),
    tradingState: () => 'ACTIVE',
    equity: () => null,
    recentFillsLimit: 10,
  });
  return { g, e, inputs };
}

const entry = { market: 'BTC_PERP', side: 'buy' as const, amount: dec('0.002'), price: dec('60000'), stopLoss: dec('59000'), takeProfit: dec('61000') };

describe('a fill shown by a reply', () => {
  it('counts in the position and the worst case at once, so a second entry past the limit is refused', async () => {
    const { g, e, inputs } = setup();
    g.place = () => 'fill';
    g.historyError = new TransientError('unavailable', 'history down'); // the deals cannot be fetched yet
    const placed = await e.orders.placeCollateralOrder('sig', entry);
    expect(placed.status).toBe('placed');
    expect(e.store.fills.count()).toBe(0);
    const risk = inputs.risk('sig');
    expect(risk.strategy.positionBase['BTC_PERP']?.toFixed()).toBe('0.002');
    expect(risk.exposure['BTC_PERP']?.positionBase.toFixed()).toBe('0.002');
    const [again] = checkOrders([{ market: 'BTC_PERP', side: 'buy', amount: dec('0.002'), price: dec('60000') }], risk);
    expect(again).toMatchObject({ ok: false, code: 'MAX_POSITION' });
    // The strategy's snapshot sees the position too (with its protection).
    const snap = inputs.snapshot('sig', { prices: {}, balances: {} });
    expect(snap.positions.map((p) => [p.market, p.base.toFixed(), p.protection?.stopLoss?.toFixed()])).toEqual([['BTC_PERP', '0.002', '59000']]);
  });

  it('once the deals arrive the provisional part is gone: never counted twice, store equals the venue', async () => {
    const { g, e, inputs } = setup();
    g.place = () => 'fill';
    g.historyError = new TransientError('unavailable', 'history down');
    await e.orders.placeCollateralOrder('sig', entry);
    g.historyError = undefined;
    await e.reconciler.reconcileOnce();
    expect(e.store.fills.count()).toBe(1);
    expect(inputs.risk('sig').strategy.positionBase['BTC_PERP']?.toFixed()).toBe('0.002');
    expect(e.store.orders.listProvisional()).toEqual([]);
    await e.reconciler.reconcileOnce();
    expect(inputs.risk('sig').exposure['BTC_PERP']?.positionBase.toFixed()).toBe('0.002');
  });

  it('fetches the deals at once: the fill is stored and heard before the next reconciliation', async () => {
    const { g, e } = setup();
    g.place = () => 'fill';
    const heard: string[] = [];
    e.fills.onFill((n) => heard.push(n.fill.clientOrderId));
    const placed = await e.orders.placeLimitOrders('sig', [{ market: 'BTC_PERP', side: 'buy', amount: dec('0.001'), price: dec('60000') }]);
    expect(e.store.fills.count()).toBe(1);
    expect(heard).toEqual([placed[0]?.clientOrderId]);
    expect(e.store.orders.get(placed[0]?.clientOrderId ?? '')?.filledBase.toFixed()).toBe('0.001');
  });

  it('a protective leg of a filled parent counts in the worst case on its side', async () => {
    const { g, e, inputs } = setup();
    g.place = () => 'fill';
    await e.orders.placeCollateralOrder('sig', { ...entry, amount: dec('0.001') });
    // Long 0.001 with a sell leg of 0.001: a short entry of 0.002 could end at -0.002 (leg and
    // entry both fill); 0.0021 would pass the limit.
    const risk = inputs.risk('sig');
    expect(risk.exposure['BTC_PERP']?.openSellBase.toFixed()).toBe('0.001');
    const [ok, tooMuch] = [
      checkOrders([{ market: 'BTC_PERP', side: 'sell', amount: dec('0.002'), price: dec('60000') }], risk)[0],
      checkOrders([{ market: 'BTC_PERP', side: 'sell', amount: dec('0.0021'), price: dec('60000') }], risk)[0],
    ];
    expect(ok).toEqual({ ok: true });
    expect(tooMuch).toMatchObject({ ok: false, code: 'MAX_POSITION' });
  });

  it('a reducing exit is still bounded by the position limit in the worst case', () => {
    const exposure = { positionBase: dec('0.002'), openBuyBase: dec('0'), openSellBase: dec('0.002'), openOrders: 1 };
    const snap = {
      tradingState: 'ACTIVE' as const,
      markets: { BTC_PERP: rules },
      limits: { maxNotionalPerOrderQuote: dec('1000'), maxDrawdownPct: dec('10') },
      exposure: { BTC_PERP: exposure },
      strategy: { id: 'sig', quarantined: false, budgetQuote: dec('10000'), committedQuote: dec('0'), positionBase: { BTC_PERP: dec('0.002') } },
      equity: null,
    };
    // The leg (0.002) and this exit (0.002) could both execute: -0.002 is the bound, 0.0021 beyond it.
    expect(checkOrders([{ market: 'BTC_PERP', side: 'sell', amount: dec('0.002'), price: dec('60000'), exit: true }], snap)[0]).toEqual({ ok: true });
    const over = { ...snap, exposure: { BTC_PERP: { ...exposure, openSellBase: dec('0.0021') } } };
    expect(checkOrders([{ market: 'BTC_PERP', side: 'sell', amount: dec('0.002'), price: dec('60000'), exit: true }], over)[0]).toMatchObject({ ok: false, code: 'MAX_POSITION' });
  });
});
