import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { Decimal } from '../../../src/core/decimal.js';
import type { Side } from '../../../src/core/orders.js';
import { equityOf } from '../../../src/engine/equity.js';
import { EQUITY_PEAK_KEY, EquityWatch } from '../../../src/engine/equity-watch.js';
import { ReadModels } from '../../../src/engine/read-models.js';
import type { MarketRules, RiskLimits, TradingState } from '../../../src/engine/risk-gate.js';
import { StrategyInputs, openFlexInvestments } from '../../../src/engine/strategy-inputs.js';
import { silentLogger } from '../../../src/observability/logger.js';
import { BufferedState, buildContext } from '../../../src/strategy-api/host.js';
import { openStore, type Store } from '../../../src/store/index.js';
import type { FillRecord } from '../../../src/model/fills.js';
import type { FlexRecordRow } from '../../../src/model/flex.js';
import { tempDir } from '../../support/temp-dir.js';
import { closeAfterTest } from '../../support/test-scope.js';

const d = (s: string): Decimal => new Decimal(s);
const logger = silentLogger();
/** A store in a fresh directory, closed when the test finishes. */
function setup(): { store: Store; clock: ManualClock; dir: string } {
  const dir = tempDir();
  const clock = new ManualClock(1_700_000_000_000);
  return { store: closeAfterTest(openStore({ dataDir: dir, clock, logger })), clock, dir };
}

const limits: RiskLimits = { maxNotionalPerOrderQuote: d('1000'), maxDrawdownPct: d('10') };
const rules: MarketRules = { tick: d('0.01'), step: d('0.0001'), minAmount: d('0.0001'), minTotalQuote: d('5'), maxPositionBase: d('1'), maxOpenOrders: 10 };

let dealId = 1;
function fill(p: Partial<FillRecord> & Pick<FillRecord, 'side' | 'amount' | 'price'>): FillRecord {
  const id = dealId++;
  return {
    dealId: id,
    orderId: id,
    clientOrderId: '',
    market: 'BTC_USDT',
    role: 'maker',
    timeMs: 1_700_000_000_000 + id,
    quote: p.amount.mul(p.price),
    fee: d('0'),
    feeAsset: 'USDT',
    strategyId: 'grid',
    ownerClientOrderId: null,
    ...p,
  };
}

function place(store: Store, cid: string, strategyId: string, side: Side, amount: string, price: string, market = 'BTC_USDT'): void {
  store.orders.insertPending({ clientOrderId: cid, strategyId, kind: 'limit', market, side, amount: d(amount), price: d(price), postOnly: true, ioc: false, rpi: false }, 0);
}

describe('StrategyInputs.risk', () => {
  it('sums live orders of every strategy per market, and commits only the asking strategy', () => {
    const { store, clock } = setup();
    place(store, 'a1', 'grid', 'buy', '0.01', '50000');
    place(store, 'a2', 'grid', 'sell', '0.02', '51000');
    place(store, 'b1', 'other', 'buy', '0.5', '3000', 'ETH_USDT');
    place(store, 'a3', 'grid', 'buy', '0.03', '49000');
    store.orders.setState('a3', 'PENDING', 'REJECTED', 'test', 1); // final: not exposure
    store.orders.setState('a1', 'PENDING', 'OPEN', null, 1, { orderId: 11 });
    store.orders.setState('a1', 'OPEN', 'PARTIALLY_FILLED', null, 2, { filledBase: d('0.004') });
    store.fills.insert(fill({ side: 'buy', amount: d('0.004'), price: d('50000'), strategyId: 'grid', ownerClientOrderId: 'a1' }));
    store.fills.insert(fill({ side: 'sell', amount: d('0.1'), price: d('3000'), market: 'ETH_USDT', strategyId: 'other' }));
    store.fills.insert(fill({ side: 'buy', amount: d('7'), price: d('1'), strategyId: null })); // external: not ours
    let state: TradingState = 'ACTIVE';
    const inputs = new StrategyInputs({
      store,
      read: new ReadModels(store),
      clock,
      markets: { BTC_USDT: rules, ETH_USDT: rules },
      limits,
      budgets: new Map([['grid', d('2000')]]),
      tradingState: () => state,
      equity: () => null,
      recentFillsLimit: 10,
    });
    const r = inputs.risk('grid');
    expect(r.exposure['BTC_USDT']).toEqual({ positionBase: d('0.004'), openBuyBase: d('0.006'), openSellBase: d('0.02'), openOrders: 2 });
    expect(r.exposure['ETH_USDT']).toEqual({ positionBase: d('-0.1'), openBuyBase: d('0.5'), openSellBase: d('0'), openOrders: 1 });
    // 0.006 × 50000 + 0.02 × 51000 + open cost 0.004 × 50000
    expect(r.strategy.committedQuote.toFixed()).toBe('1520');
    expect(r.strategy.positionBase).toEqual({ BTC_USDT: d('0.004') });
    expect(r.strategy.budgetQuote.toFixed()).toBe('2000');
    expect(inputs.risk('nobody').strategy.budgetQuote.toFixed()).toBe('0');
    state = 'HALTED';
    expect(inputs.risk('grid').tradingState).toBe('HALTED');
  });

  it('sees a new fill at once (the position cache follows the fills repository)', () => {
    const { store, clock } = setup();
    const read = new ReadModels(store);
    const inputs = new StrategyInputs({ store, read, clock, markets: { BTC_USDT: rules }, limits, budgets: new Map(), tradingState: () => 'ACTIVE', equity: () => null, recentFillsLimit: 10 });
    store.fills.insert(fill({ side: 'buy', amount: d('0.01'), price: d('50000'), orderId: 500 }));
    expect(inputs.risk('grid').strategy.positionBase['BTC_USDT']?.toFixed()).toBe('0.01');
    store.fills.insert(fill({ side: 'sell', amount: d('0.004'), price: d('51000') }));
    expect(inputs.risk('grid').strategy.positionBase['BTC_USDT']?.toFixed()).toBe('0.006');
    // A late attribution moves an external fill to a strategy without inserting anything.
    store.fills.insert(fill({ side: 'buy', amount: d('0.5'), price: d('50000'), orderId: 900, strategyId: null }));
    expect(read.positions('late')).toEqual([]);
    store.fills.attribute(900, 'late', 'x1');
    expect(read.positions('late').map((p) => p.base.toFixed())).toEqual(['0.5']);
    // Callers get copies: mutating one does not poison the cache.
    const first = read.allPositions();
    (first[0] as { base: Decimal }).base = d('999');
    expect(read.allPositions()[0]?.base.toFixed()).not.toBe('999');
  });
});

describe('StrategyInputs.snapshot', () => {
  it('assembles open orders, positions with protection, recent fills and flex views', () => {
    const { store, clock } = setup();
    store.orders.insertPending(
      { clientOrderId: 'c1', strategyId: 'sig', kind: 'collateral', market: 'BTC_PERP', side: 'buy', amount: d('0.01'), price: d('50000'), postOnly: false, ioc: false, rpi: false, stopLoss: d('48000'), takeProfit: d('53000') },
      0,
    );
    store.children.add('c1', 'sig', 'stop_loss', d('48000'), 0);
    store.children.add('c1', 'sig', 'take_profit', d('53000'), 0);
    store.orders.setState('c1', 'PENDING', 'FILLED', null, 1, { orderId: 77, filledBase: d('0.01') });
    store.fills.insert(fill({ side: 'buy', amount: d('0.01'), price: d('50000'), market: 'BTC_PERP', strategyId: 'sig', ownerClientOrderId: 'c1', clientOrderId: 'c1' }));
    place(store, 's1', 'sig', 'buy', '0.001', '40000');
    const flex: FlexRecordRow[] = [
      { transactionId: 't1', createdAtMs: 1, planId: 'p', investmentId: 'i1', currency: 'USDT', amount: d('100'), actionType: 'INVEST' },
      { transactionId: 't2', createdAtMs: 2, planId: 'p', investmentId: 'i1', currency: 'USDT', amount: d('0.05'), actionType: 'DAILY_EARNING' },
    ];
    for (const r of flex) store.flex.insert(r);
    const inputs = new StrategyInputs({ store, read: new ReadModels(store), clock, markets: {}, limits, budgets: new Map(), tradingState: () => 'ACTIVE', equity: () => null, recentFillsLimit: 10 });
    const snap = inputs.snapshot('sig', { prices: {}, balances: { USDT: d('5') } });
    expect(snap.nowMs).toBe(clock.now());
    expect(snap.balances['USDT']?.toFixed()).toBe('5');
    expect(snap.openOrders.map((o) => [o.clientOrderId, o.remaining.toFixed()])).toEqual([['s1', '0.001']]);
    expect(snap.positions).toEqual([{ market: 'BTC_PERP', kind: 'collateral', base: d('0.01'), avgEntryPrice: d('50000'), protection: { stopLoss: d('48000'), takeProfit: d('53000') } }]);
    expect(snap.recentFills.map((f) => f.clientOrderId)).toEqual(['c1']);
    expect(snap.flex.investments.map((i) => [i.investmentId, i.amount.toFixed()])).toEqual([['i1', '100']]);
    expect(snap.flex.earnings['USDT']?.toFixed()).toBe('0.05');
  });
});

describe('StrategyInputs.snapshot: positions kept between snapshots', () => {
  it('sees every fill, reported fill and attribution of the strategy, and nothing of a rolled-back one', () => {
    const { store, clock } = setup();
    const inputs = new StrategyInputs({ store, read: new ReadModels(store), clock, markets: {}, limits, budgets: new Map(), tradingState: () => 'ACTIVE', equity: () => null, recentFillsLimit: 10 });
    const bases = (): string[] => inputs.snapshot('grid', { prices: {}, balances: {} }).positions.map((p) => `${p.market} ${p.base.toFixed()}`);
    expect(bases()).toEqual([]);
    store.fills.insert(fill({ side: 'buy', amount: d('0.01'), price: d('50000') }));
    expect(bases()).toEqual(['BTC_USDT 0.01']);
    store.fills.insert(fill({ side: 'buy', amount: d('1'), price: d('50000'), strategyId: 'other' }));
    expect(bases()).toEqual(['BTC_USDT 0.01']);
    // A reply reported a fill whose deals are not in yet: provisional, counted at once.
    place(store, 'g1', 'grid', 'buy', '0.02', '50000');
    store.orders.setState('g1', 'PENDING', 'OPEN', 'placed', 1, { orderId: 71, reported: { base: d('0.005'), quote: d('250') } });
    expect(bases()).toEqual(['BTC_USDT 0.015']);
    store.fills.insert(fill({ side: 'sell', amount: d('0.3'), price: d('50000'), orderId: 72, strategyId: null, market: 'ETH_USDT' }));
    expect(bases()).toEqual(['BTC_USDT 0.015']);
    store.fills.attribute(72, 'grid', 'g2');
    expect(bases()).toEqual(['BTC_USDT 0.015', 'ETH_USDT -0.3']);
    expect(() =>
      store.tx(() => {
        store.fills.insert(fill({ side: 'buy', amount: d('0.1'), price: d('50000') }));
        expect(bases()).toEqual(['BTC_USDT 0.115', 'ETH_USDT -0.3']);
        throw new Error('boom');
      }),
    ).toThrow('boom');
    expect(bases()).toEqual(['BTC_USDT 0.015', 'ETH_USDT -0.3']);
    const views = inputs.snapshot('grid', { prices: {}, balances: {} }).positions;
    expect(Object.isFrozen(views[0])).toBe(true);
  });
});

describe('StrategyInputs.snapshot: the same frozen lists until a write', () => {
  it('hands the kept lists and flex view while nothing was written, new ones after a write, and contexts take them as they are', () => {
    const { store, clock } = setup();
    const inputs = new StrategyInputs({ store, read: new ReadModels(store), clock, markets: {}, limits, budgets: new Map(), tradingState: () => 'ACTIVE', equity: () => null, recentFillsLimit: 10 });
    const venue = { prices: {}, balances: {} };
    place(store, 'g1', 'grid', 'buy', '0.02', '50000');
    store.fills.insert(fill({ side: 'buy', amount: d('0.01'), price: d('50000') }));
    const a = inputs.snapshot('grid', venue);
    const b = inputs.snapshot('grid', venue);
    for (const list of [a.openOrders, a.positions, a.recentFills, a.flex.investments, a.flex]) expect(Object.isFrozen(list)).toBe(true);
    expect([b.openOrders, b.positions, b.recentFills, b.flex]).toEqual([a.openOrders, a.positions, a.recentFills, a.flex]);
    expect(b.openOrders).toBe(a.openOrders);
    expect(b.positions).toBe(a.positions);
    expect(b.recentFills).toBe(a.recentFills);
    expect(b.flex).toBe(a.flex);
    const ctx = buildContext('grid', {}, b, new BufferedState(new Map() as never), { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined });
    expect(ctx.openOrders).toBe(a.openOrders);
    expect(ctx.positions).toBe(a.positions);
    expect(ctx.flex).toBe(a.flex);
    // A write: new lists, with what was written.
    place(store, 'g2', 'grid', 'sell', '0.01', '51000');
    store.fills.insert(fill({ side: 'buy', amount: d('0.02'), price: d('50000') }));
    store.flex.insert({ transactionId: 't1', createdAtMs: 1, planId: 'p', investmentId: 'i1', currency: 'USDT', amount: d('100'), actionType: 'INVEST' });
    const c = inputs.snapshot('grid', venue);
    expect(c.openOrders).not.toBe(a.openOrders);
    expect(c.openOrders.map((o) => o.clientOrderId)).toEqual(['g1', 'g2']);
    expect(c.positions.map((p) => p.base.toFixed())).toEqual(['0.03']);
    expect(c.recentFills).toHaveLength(2);
    expect(c.flex.investments.map((i) => i.investmentId)).toEqual(['i1']);
    expect(a.openOrders.map((o) => o.clientOrderId)).toEqual(['g1']);
  });
});

describe('openFlexInvestments', () => {
  const row = (investmentId: string, actionType: string, amount: string): FlexRecordRow => ({
    transactionId: `${investmentId}-${actionType}-${amount}`,
    createdAtMs: 0,
    planId: 'p',
    investmentId,
    currency: 'USDT',
    amount: d(amount),
    actionType,
  });
  it('nets investments and withdrawals, and drops closed or emptied ones', () => {
    const open = openFlexInvestments([
      row('a', 'OPEN_INVESTMENT', '100'),
      row('a', 'REINVEST', '0.5'),
      row('a', 'WITHDRAW_FROM_INVESTMENT', '-20'),
      row('a', 'DAILY_EARNING', '0.5'),
      row('b', 'INVEST', '10'),
      row('b', 'CLOSE_INVESTMENT', '-10'),
      row('c', 'INVEST', '5'),
      row('c', 'WITHDRAW_FROM_INVESTMENT', '5'),
    ]);
    expect(open).toEqual([{ planId: 'p', investmentId: 'a', currency: 'USDT', amount: d('80.5') }]);
  });
});

const usdt = (amount: string) => equityOf({ equityAsset: 'USDT', balances: { USDT: d(amount) }, held: {}, positions: [], flex: {}, prices: {} });

describe('EquityWatch', () => {
  it('values balances in the equity asset, leaving out assets without a price', () => {
    const eq = equityOf({ equityAsset: 'USDT', balances: { USDT: d('100'), BTC: d('0.01'), XYZ: d('5') }, held: {}, positions: [], flex: {}, prices: { BTC_USDT: d('50000') } });
    expect(eq.total.toFixed()).toBe('600');
  });

  it('persists the peak across restarts, halts below it by more than the limit, and forgets it on reset', () => {
    const { store, dir, clock } = setup();
    const breaches: string[] = [];
    const watch = (s: Store): EquityWatch => new EquityWatch({ store: s, limits, onBreach: (r) => breaches.push(r) });
    const w1 = watch(store);
    expect(w1.current).toBeNull();
    expect(w1.update(usdt('1000'))).toEqual({ currentQuote: d('1000'), peakQuote: d('1000') });
    w1.update(usdt('1200'));
    store.close();
    const reopened = closeAfterTest(openStore({ dataDir: dir, clock, logger }));
    const w2 = watch(reopened);
    expect(w2.update(usdt('1080')).peakQuote.toFixed()).toBe('1200'); // exactly 10 %: not more
    expect(breaches).toEqual([]);
    w2.update(usdt('1079.99'));
    expect(breaches).toHaveLength(1);
    expect(breaches[0]).toContain('below peak 1200.00');
    w2.resetPeak();
    expect(reopened.meta.get(EQUITY_PEAK_KEY)).toBeUndefined();
    expect(w2.current).toBeNull();
    expect(w2.update(usdt('1079.99')).peakQuote.toFixed()).toBe('1079.99');
    expect(breaches).toHaveLength(1);
  });
});
