/**
 * The one equity rule (src/engine/equity.ts): each part, assets without a price, collateral
 * positions long and short at the mark, flex; and the property the kill switch relies on: placing
 * and cancelling orders never moves equity (the simulator's balances with the journal's holds).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { Decimal, dec } from '../../../src/core/decimal.js';
import type { Side } from '../../../src/core/orders.js';
import { simulatorHoldRules } from '../../../src/daemon/hold-rules.js';
import { equityOf, positionValue, type EquityInputs } from '../../../src/engine/equity.js';
import { heldByOpenOrders, type HoldingOrder } from '../../../src/engine/order-holds.js';
import { Venue } from '../../../src/simulator/venue.js';

const d = (s: string) => new Decimal(s);
const base: EquityInputs = { equityAsset: 'USDT', balances: {}, held: {}, positions: [], flex: {}, prices: { BTC_USDT: d('50000'), BTC_PERP: d('50000') } };
const pos = (amount: string, cost: string, margin: string) => ({ market: 'BTC_PERP', positionSide: 'BOTH' as const, amount: d(amount), cost: d(cost), margin: d(margin), settleAsset: 'USDT' });

describe('the equity rule', () => {
  it('counts available balances, what open orders hold and flex, each valued in the equity asset, and names each part', () => {
    const e = equityOf({ ...base, balances: { USDT: d('100'), BTC: d('0.01') }, held: { USDT: d('50.05'), BTC: d('0.02') }, flex: { USDT: d('30'), BTC: d('0.001') } });
    expect(e.parts.balances.toFixed()).toBe('600');
    expect(e.parts.held.toFixed()).toBe('1050.05');
    expect(e.parts.flex.toFixed()).toBe('80');
    expect(e.parts.positions.toFixed()).toBe('0');
    expect(e.total.toFixed()).toBe('1730.05');
  });

  it('leaves out assets with no price into the equity asset and names them with their amounts across parts', () => {
    const e = equityOf({ ...base, balances: { USDT: d('1'), XYZ: d('5') }, held: { XYZ: d('2') }, flex: { ABC: d('3') } });
    expect(e.total.toFixed()).toBe('1');
    expect(Object.fromEntries(Object.entries(e.unvalued).map(([k, v]) => [k, v.toFixed()]))).toEqual({ XYZ: '7', ABC: '3' });
  });

  it('values a long collateral position at margin plus (mark − entry) × amount', () => {
    // 0.1 BTC long from 40000 (cost 4000, margin 400 at 10×), marked at 50000: 400 + 1000.
    const e = equityOf({ ...base, positions: [pos('0.1', '4000', '400')] });
    expect(e.parts.positions.toFixed()).toBe('1400');
  });

  it('values a short collateral position at margin plus (entry − mark) × amount', () => {
    // 0.1 BTC short from 40000, marked at 50000: 400 − 1000.
    expect(equityOf({ ...base, positions: [pos('-0.1', '4000', '400')] }).parts.positions.toFixed()).toBe('-600');
    expect(positionValue(pos('-0.1', '4000', '400'), d('30000')).toFixed()).toBe('1400');
  });

  it('counts a position without a price at its margin only and names it', () => {
    const e = equityOf({ ...base, prices: {}, positions: [pos('0.1', '4000', '400')] });
    expect(e.parts.positions.toFixed()).toBe('400');
    expect(e.unmarked).toEqual(['BTC_PERP|BOTH']);
  });

  it('values a position settled in another asset at that asset\'s price', () => {
    const e = equityOf({ ...base, prices: { ETH_BTC: d('0.05'), BTC_USDT: d('50000') }, positions: [{ ...pos('1', '0.04', '0.004'), market: 'ETH_BTC', settleAsset: 'BTC' }] });
    // margin 0.004 + (0.05 − 0.04) = 0.014 BTC = 700 USDT
    expect(e.parts.positions.toFixed()).toBe('700');
  });

  const MARKETS = [
    { name: 'BTC_USDT', startPrice: '60000', tick: '0.01', step: '0.0001', minAmount: '0.0001', minTotal: '1', volatility: '0' },
    { name: 'BTC_PERP', startPrice: '60000', tick: '0.1', step: '0.0001', minAmount: '0.0001', minTotal: '1', volatility: '0', makerFee: '0.0002', takerFee: '0.0005' },
  ];
  const opArb = fc.oneof(
    fc.record({ op: fc.constant('place' as const), market: fc.constantFrom('BTC_USDT', 'BTC_PERP'), side: fc.constantFrom<Side>('buy', 'sell'), away: fc.integer({ min: 1, max: 5_000 }), units: fc.integer({ min: 1, max: 400 }) }),
    fc.record({ op: fc.constant('cancel' as const), pick: fc.nat() }),
  );

  it('placing and cancelling resting orders never moves equity (venue balances + journal holds)', () => {
    fc.assert(
      fc.property(fc.array(opArb, { minLength: 1, maxLength: 30 }), (ops) => {
        const venue = new Venue(new ManualClock(), 3, MARKETS, 1_000);
        const account = venue.addAccount({ apiKey: 'k', apiSecret: 's', balances: { USDT: '200000', BTC: '2' } });
        const rules = simulatorHoldRules(venue.markets);
        const journal: HoldingOrder[] = [];
        const equity = (): string => {
          const prices = Object.fromEntries([...venue.markets.values()].map((m) => [m.name, m.price]));
          const held = heldByOpenOrders(journal, rules).byAsset;
          return equityOf({ equityAsset: 'USDT', balances: Object.fromEntries(account.balances), held, positions: [], flex: {}, prices }).total.toFixed();
        };
        const start = equity();
        ops.forEach((o, i) => {
          if (o.op === 'cancel') {
            const open = journal.filter((j) => j.state === 'OPEN');
            const victim = open[o.pick % Math.max(open.length, 1)];
            if (victim === undefined) return;
            venue.cancel(account, victim.market, undefined, victim.clientOrderId);
            victim.state = 'CANCELLED';
          } else {
            const m = venue.requireMarket(o.market);
            const price = o.side === 'buy' ? m.price.minus(m.tick.mul(o.away)) : m.price.plus(m.tick.mul(o.away));
            const amount = m.minAmount.mul(o.units);
            const kind = o.market === 'BTC_PERP' ? 'collateral' : 'spot';
            try {
              venue.place(account, { market: o.market, side: o.side, amount, price, postOnly: true, ioc: false, rpi: false, clientOrderId: `c${i}`, kind });
            } catch {
              return; // refused (not enough balance): nothing held, nothing journaled as open
            }
            journal.push({ clientOrderId: `c${i}`, kind: kind === 'spot' ? 'limit' : 'collateral', market: o.market, side: o.side, price, amount, filledBase: dec('0'), reportedFilledBase: dec('0'), state: 'OPEN' });
          }
          expect(equity()).toBe(start);
        });
      }),
      { numRuns: 80 },
    );
  });
});
