/**
 * What open orders hold: the journal's view must equal what the simulator reserves (its own
 * `locked` balances), order by order and in total, for spot buys, spot sells and collateral
 * orders, resting or partly filled.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { Decimal, dec } from '../../../src/core/decimal.js';
import type { OrderState, Side } from '../../../src/core/orders.js';
import { simulatorHoldRules } from '../../../src/daemon/hold-rules.js';
import { heldByOpenOrders, holdRulesByName, type HoldingOrder } from '../../../src/engine/order-holds.js';
import { Venue } from '../../../src/simulator/venue.js';

const MARKETS = [
  { name: 'BTC_USDT', startPrice: '60000', tick: '0.01', step: '0.000001', minAmount: '0.00001', minTotal: '1', volatility: '0', makerFee: '0.001', takerFee: '0.002' },
  { name: 'BTC_PERP', startPrice: '60000', tick: '0.1', step: '0.0001', minAmount: '0.0001', minTotal: '1', volatility: '0', makerFee: '0.0001', takerFee: '0.00055', leverage: 7 },
];

function order(o: Partial<HoldingOrder> & Pick<HoldingOrder, 'market' | 'side' | 'price' | 'amount'>): HoldingOrder {
  return { clientOrderId: 'c', kind: 'limit', filledBase: dec('0'), reportedFilledBase: dec('0'), state: 'OPEN', ...o };
}

const rules = holdRulesByName('USDT', dec('0.001'), dec('10'));

describe('held by open orders', () => {
  it('a spot buy holds price × remaining × (1 + fee reserve) in quote; a sell holds its remaining base', () => {
    const h = heldByOpenOrders(
      [
        order({ market: 'BTC_USDT', side: 'buy', price: dec('50000'), amount: dec('0.01') }),
        order({ market: 'BTC_USDT', side: 'sell', price: dec('70000'), amount: dec('0.03'), filledBase: dec('0.01') }),
      ],
      rules,
    );
    expect(h.byAsset['USDT']?.toFixed()).toBe('500.5');
    expect(h.byAsset['BTC']?.toFixed()).toBe('0.02');
  });

  it('remaining is amount − the larger of the applied and the reported fill', () => {
    const h = heldByOpenOrders([order({ market: 'BTC_USDT', side: 'sell', price: dec('1'), amount: dec('1'), filledBase: dec('0.2'), reportedFilledBase: dec('0.5') })], rules);
    expect(h.byAsset['BTC']?.toFixed()).toBe('0.5');
  });

  it('a collateral order holds margin plus the fee reserve in the settlement asset, long or short', () => {
    const long = order({ market: 'BTC_PERP', side: 'buy', kind: 'collateral', price: dec('60000'), amount: dec('0.1') });
    const short = order({ market: 'BTC_PERP', side: 'sell', kind: 'collateral', price: dec('60000'), amount: dec('0.1') });
    // 0.1 × (60000 / 10 + 60000 × 0.001) = 606, each.
    expect(heldByOpenOrders([long, short], rules).byAsset['USDT']?.toFixed()).toBe('1212');
  });

  it('orders that are not acknowledged resting hold nothing; markets without a rule are named', () => {
    const states: OrderState[] = ['PENDING', 'UNKNOWN', 'FILLED', 'CANCELLED', 'REJECTED'];
    const h = heldByOpenOrders(
      [...states.map((state) => order({ market: 'BTC_USDT', side: 'buy', price: dec('1'), amount: dec('1'), state })), order({ market: 'NOPE', side: 'buy', price: dec('1'), amount: dec('1') })],
      rules,
    );
    expect(h.byAsset).toEqual({});
    expect(h.unruled).toEqual(['NOPE']);
    const pendingCancel = heldByOpenOrders([order({ market: 'BTC_USDT', side: 'sell', price: dec('1'), amount: dec('2'), state: 'PENDING_CANCEL' })], rules);
    expect(pendingCancel.byAsset['BTC']?.toFixed()).toBe('2');
  });

  const orderArb = fc.record({
    market: fc.constantFrom('BTC_USDT', 'BTC_PERP'),
    side: fc.constantFrom<Side>('buy', 'sell'),
    // Away from 60000 so each order rests (a crossing order would take at once).
    offsetTicks: fc.integer({ min: 1, max: 2_000_000 }),
    // At least 200 minimum amounts: every order's total stays above the market's minimum.
    units: fc.integer({ min: 200, max: 2_000 }),
  });

  it('equals what the simulator locks, for any set of resting spot and collateral orders', () => {
    fc.assert(
      fc.property(fc.array(orderArb, { minLength: 1, maxLength: 25 }), (specs) => {
        const venue = new Venue(new ManualClock(), 1, MARKETS, 1_000);
        const account = venue.addAccount({ apiKey: 'k', apiSecret: 's', balances: { USDT: '100000000', BTC: '1000' } });
        const journal: HoldingOrder[] = specs.map((s, i) => {
          const m = venue.requireMarket(s.market);
          const offset = m.tick.mul(s.offsetTicks % 500_000);
          const price = s.side === 'buy' ? m.price.minus(offset.plus(m.tick)) : m.price.plus(offset.plus(m.tick));
          const amount = m.minAmount.mul(s.units);
          const kind = s.market === 'BTC_PERP' ? 'collateral' : 'spot';
          venue.place(account, { market: s.market, side: s.side, amount, price, postOnly: false, ioc: false, rpi: false, clientOrderId: `c${i}`, kind });
          return order({ clientOrderId: `c${i}`, market: s.market, side: s.side, price, amount, kind: kind === 'spot' ? 'limit' : 'collateral' });
        });
        const held = heldByOpenOrders(journal, simulatorHoldRules(venue.markets));
        for (const asset of new Set([...account.locked.keys(), ...Object.keys(held.byAsset)])) {
          expect((held.byAsset[asset] ?? new Decimal(0)).toFixed(), asset).toBe(account.heldOf(asset).toFixed());
        }
      }),
      { numRuns: 60 },
    );
  });
});
