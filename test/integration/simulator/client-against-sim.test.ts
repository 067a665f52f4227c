/**
 * The API client (src/exchange) against the simulator over real HTTP: every client method, so a
 * mismatch between the client's reading of the spec and the simulator's shows up here.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { dec } from '../../../src/core/decimal.js';
import { AmbiguousOutcomeError, InvalidOrderError } from '../../../src/core/errors.js';
import { createApiClient, type ApiClient } from '../../../src/exchange/api-client.js';
import { startSimulator, type SimulatorHandle } from '../../../src/simulator/index.js';

const PLAN = '11111111-2222-4333-8444-555555555555';
let sim: SimulatorHandle;
let client: ApiClient;
let clock: ManualClock;

beforeEach(async () => {
  clock = new ManualClock(1_700_000_000_000);
  sim = await startSimulator({
    clock,
    seed: 9,
    markets: [
      { name: 'BTC_USDT', startPrice: '100', tick: '0.01', step: '0.001', minTotal: '5', volumePerStep: '0.3', volatility: '0' },
      { name: 'BTC_PERP', startPrice: '100', tick: '0.01', step: '0.001', minTotal: '5', volumePerStep: '0.3', volatility: '0' },
    ],
    accounts: [
      {
        apiKey: 'ck',
        apiSecret: 'cs',
        balances: { USDT: '10000', BTC: '1' },
        flex: [{ planId: PLAN, investmentId: 'inv', currency: 'USDT', amount: '50' }],
        loan: { asset: 'USDT', amount: '40', collateralAsset: 'BTC', collateralAmount: '1' },
      },
      { apiKey: 'nk', apiSecret: 'ns' },
    ],
  });
  // The client keeps real time for its limiter and timers; the sim's market moves only when told.
  client = createApiClient({ baseUrl: sim.baseUrl, apiKey: 'ck', apiSecret: 'cs', retry: { attempts: 1 }, timeouts: { responseMs: 2000 } });
});

afterEach(async () => {
  await client.close();
  await sim.close();
});

describe('client against simulator', () => {
  it('public: ping and futures', async () => {
    await client.ping();
    const fut = await client.futures();
    expect(fut.map((f) => f.tickerId)).toEqual(['BTC_PERP']);
    expect(fut[0]?.lastPrice.toFixed()).toBe('100');
  });

  it('bulk: placed, rejected and not_sent; cancel by id and clientOrderId; not found', async () => {
    const res = await client.bulkLimitOrders([
      { market: 'BTC_USDT', side: 'buy', amount: dec('0.1'), price: dec('90'), clientOrderId: 'c-1' },
      { market: 'BTC_USDT', side: 'buy', amount: dec('0.1'), price: dec('90.001'), clientOrderId: 'c-2' },
      { market: 'BTC_USDT', side: 'buy', amount: dec('0.1'), price: dec('91'), clientOrderId: 'c-3' },
    ], { stopOnFail: true });
    expect(res.map((r) => r.status)).toEqual(['placed', 'rejected', 'not_sent']);
    const placed = res[0];
    if (placed?.status !== 'placed') throw new Error('expected placed');
    expect(placed.order.status).toBe('OPEN');
    const byId = await client.cancelOrder({ market: 'BTC_USDT', orderId: placed.order.orderId });
    expect(byId.status).toBe('CANCELLED');
    const more = await client.bulkLimitOrders([{ market: 'BTC_USDT', side: 'sell', amount: dec('0.1'), price: dec('120'), clientOrderId: 'c-4' }]);
    expect(more[0]?.status).toBe('placed');
    expect((await client.cancelOrder({ market: 'BTC_USDT', clientOrderId: 'c-4' })).status).toBe('CANCELLED');
    const missing = await client.cancelOrder({ market: 'BTC_USDT', clientOrderId: 'c-4' }).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(InvalidOrderError);
    expect((missing as InvalidOrderError).kind).toBe('order_not_found');
  });

  it('collateral with OTO, conditional listing, fills and executed history', async () => {
    const order = await client.collateralLimitOrder({
      market: 'BTC_PERP', side: 'buy', amount: dec('0.1'), price: dec('99'), clientOrderId: 'col-1', stopLoss: dec('95'), takeProfit: dec('105'),
    });
    expect(order.oto?.otoId).toBeGreaterThan(0);
    const oto = await client.conditionalOrders({ market: 'BTC_PERP' });
    expect(oto.records.map((r) => r.kind)).toEqual(['oto']);
    sim.setPrice('BTC_PERP', '98');
    const oco = await client.conditionalOrders({ market: 'BTC_PERP', offset: 0, limit: 100 });
    expect(oco.records.map((r) => r.kind)).toEqual(['oco']);
    const rec = oco.records[0];
    if (rec?.kind !== 'oco') throw new Error('expected oco');
    expect(rec.stopLoss?.activationPrice?.toFixed()).toBe('95');
    expect(rec.takeProfit?.price.toFixed()).toBe('105');
    const fills = await client.executedHistory({ market: 'BTC_PERP' });
    expect(fills.map((f) => [f.clientOrderId, f.role, f.amount.toFixed(), f.price.toFixed()])).toEqual([['col-1', 'maker', '0.1', '99']]);
    expect(await client.executedHistory({ clientOrderId: 'nothing' })).toEqual([]);
    const all = await client.executedHistory({});
    expect(all).toHaveLength(1);
  });

  it('one-sided brackets: take-profit only and stop-loss only, listed, then executed', async () => {
    const perp = { startPrice: '100', tick: '0.01', step: '0.001', minTotal: '5', volumePerStep: '0.3', volatility: '0' };
    const own = await startSimulator({
      clock, seed: 9, markets: [{ name: 'BTC_PERP', ...perp }, { name: 'ETH_PERP', ...perp }],
      accounts: [{ apiKey: 'bk', apiSecret: 'bs', balances: { USDT: '10000' } }],
    });
    const c = createApiClient({ baseUrl: own.baseUrl, apiKey: 'bk', apiSecret: 'bs', retry: { attempts: 1 }, timeouts: { responseMs: 2000 } });
    try {
      const tpOnly = await c.collateralLimitOrder({ market: 'BTC_PERP', side: 'buy', amount: dec('0.1'), price: dec('99'), clientOrderId: 'tp-only', takeProfit: dec('105') });
      const slOnly = await c.collateralLimitOrder({ market: 'ETH_PERP', side: 'sell', amount: dec('0.1'), price: dec('101'), clientOrderId: 'sl-only', stopLoss: dec('104') });
      expect([tpOnly.oto?.takeProfit?.toFixed(), tpOnly.oto?.stopLoss, slOnly.oto?.stopLoss?.toFixed(), slOnly.oto?.takeProfit]).toEqual(['105', undefined, '104', undefined]);

      // While the parents rest, each OTO lists its one price (the simulator sends "" for the other).
      const [btc, eth] = await Promise.all([c.conditionalOrders({ market: 'BTC_PERP' }), c.conditionalOrders({ market: 'ETH_PERP' })]);
      const tpOto = btc.records[0];
      const slOto = eth.records[0];
      if (tpOto?.kind !== 'oto' || slOto?.kind !== 'oto') throw new Error('expected one OTO per market');
      expect([tpOto.id, tpOto.takeProfitPrice?.toFixed(), tpOto.stopLossPrice, tpOto.parent.clientOrderId]).toEqual([tpOnly.oto?.otoId, '105', undefined, 'tp-only']);
      expect([slOto.id, slOto.stopLossPrice?.toFixed(), slOto.takeProfitPrice, slOto.parent.clientOrderId]).toEqual([slOnly.oto?.otoId, '104', undefined, 'sl-only']);

      // The parents fill: each bracket becomes its one protective leg, the other side null.
      own.setPrice('BTC_PERP', '98');
      own.setPrice('ETH_PERP', '102');
      const [tpOco, slOco] = [(await c.conditionalOrders({ market: 'BTC_PERP' })).records[0], (await c.conditionalOrders({ market: 'ETH_PERP' })).records[0]];
      if (tpOco?.kind !== 'oco' || slOco?.kind !== 'oco') throw new Error('expected one OCO per market');
      expect([tpOco.stopLoss, tpOco.takeProfit?.type, tpOco.takeProfit?.side, tpOco.takeProfit?.price.toFixed()]).toEqual([undefined, 'limit', 'sell', '105']);
      expect([slOco.takeProfit, slOco.stopLoss?.type, slOco.stopLoss?.side, slOco.stopLoss?.activationPrice?.toFixed()]).toEqual([undefined, 'stop limit', 'buy', '104']);

      // The legs execute: the take-profit at its price (maker), the stop at its trigger (taker).
      own.setPrice('BTC_PERP', '105');
      own.setPrice('ETH_PERP', '104');
      expect((await c.conditionalOrders({ market: 'BTC_PERP' })).records).toEqual([]);
      expect((await c.conditionalOrders({ market: 'ETH_PERP' })).records).toEqual([]);
      const deals = (await c.executedHistory({})).map((f) => [f.market, f.side, f.role, f.amount.toFixed(), f.price.toFixed()]);
      expect(deals).toEqual(expect.arrayContaining([['BTC_PERP', 'sell', 'maker', '0.1', '105'], ['ETH_PERP', 'buy', 'taker', '0.1', '104']]));
      expect(own.truth('bk').positions.map((p) => p.amount)).toEqual(['0', '0']);
    } finally {
      await c.close();
      await own.close();
    }
  });

  it('account: balances, flex history and close, credit line', async () => {
    const map = await client.mainBalance();
    expect(map.get('USDT')?.toFixed()).toBe('10000');
    expect((await client.mainBalance('BTC')).toFixed()).toBe('1');
    const flex = await client.flexHistory({ actionTypes: ['INVEST'] });
    expect(flex.records.map((r) => [r.actionType, r.amount.toFixed()])).toEqual([['INVEST', '50']]);
    const closed = await client.closeFlex(PLAN);
    expect(typeof closed.transactionId).toBe('string');
    const again = await client.closeFlex(PLAN).catch((e: unknown) => e);
    expect(again).toBeInstanceOf(Error);
    expect(again).not.toBeInstanceOf(AmbiguousOutcomeError);
    const credit = await client.creditLine();
    expect(credit.active).toBe(true);
    if (credit.active) expect(credit.loan.currentLtv.toFixed()).toBe('0.4');
    const other = createApiClient({ baseUrl: sim.baseUrl, apiKey: 'nk', apiSecret: 'ns', retry: { attempts: 1 } });
    try {
      expect(await other.creditLine()).toEqual({ active: false });
    } finally {
      await other.close();
    }
  });
});
