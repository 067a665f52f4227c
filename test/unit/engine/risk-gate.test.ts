import { describe, expect, it } from 'vitest';
import { Decimal } from '../../../src/core/decimal.js';
import { checkOrders, checkStanding, drawdownBreached, type GateOrder, type RiskSnapshot } from '../../../src/engine/risk-gate.js';

const d = (s: string | number): Decimal => new Decimal(s);

function snap(over: Partial<RiskSnapshot> = {}): RiskSnapshot {
  return {
    tradingState: 'ACTIVE',
    markets: {
      BTC_USDT: { tick: d('0.01'), step: d('0.0001'), minAmount: d('0.001'), minTotalQuote: d('5'), maxPositionBase: d('1'), maxOpenOrders: 3 },
    },
    limits: { maxNotionalPerOrderQuote: d(1000), maxDrawdownPct: d(10) },
    exposure: {},
    strategy: { id: 's1', quarantined: false, budgetQuote: d(2000), committedQuote: d(0), positionBase: {} },
    equity: { currentQuote: d(10_000), peakQuote: d(10_000) },
    ...over,
  };
}

const order = (over: Partial<GateOrder> = {}): GateOrder => ({ market: 'BTC_USDT', side: 'buy', amount: d('0.01'), price: d('1000'), ...over });

function code(orders: GateOrder[], s: RiskSnapshot): (string | true)[] {
  return checkOrders(orders, s).map((x) => (x.ok ? true : x.code));
}

describe('risk gate', () => {
  it('passes a plain order within every limit', () => {
    expect(code([order()], snap())).toEqual([true]);
  });

  it.each([
    ['MARKET_UNKNOWN', order({ market: 'ETH_USDT' })],
    ['AMOUNT_OFF_STEP', order({ amount: d('0.01005') })],
    ['PRICE_OFF_TICK', order({ price: d('100.005') })],
    ['AMOUNT_BELOW_MIN', order({ amount: d('0.0009'), price: d(10_000) })],
    ['AMOUNT_BELOW_MIN', order({ amount: d(0) })],
    ['TOTAL_BELOW_MIN', order({ amount: d('0.001'), price: d(100) })],
    ['NOTIONAL_ABOVE_MAX', order({ amount: d('0.5'), price: d(2001) })],
  ])('refuses %s', (expected, o) => {
    expect(code([o], snap())).toEqual([expected]);
  });

  it('passes orders exactly at the minimums and at the max notional', () => {
    expect(code([order({ amount: d('0.05'), price: d(100) }), order({ amount: d('0.5'), price: d(2000) })], snap({ strategy: { ...snap().strategy, budgetQuote: d(5000) } }))).toEqual([true, true]);
  });

  it('counts open orders per market, including earlier orders of the same batch', () => {
    const s = snap({ exposure: { BTC_USDT: { positionBase: d(0), openBuyBase: d(0), openSellBase: d(0), openOrders: 1 } } });
    expect(code([order(), order(), order()], s)).toEqual([true, true, 'MAX_OPEN_ORDERS']);
  });

  it('bounds the worst-case position (open orders on the same side included)', () => {
    const s = snap({ exposure: { BTC_USDT: { positionBase: d('0.5'), openBuyBase: d('0.4'), openSellBase: d(0), openOrders: 0 } }, strategy: { ...snap().strategy, budgetQuote: d(100_000) } });
    expect(code([order({ amount: d('0.1') }), order({ amount: d('0.01') })], s)).toEqual([true, 'MAX_POSITION']);
    expect(code([order({ side: 'sell', amount: d('1.4'), price: d(10) })], s)).toEqual([true]);
    expect(code([order({ side: 'sell', amount: d('1.6'), price: d(10) })], s)).toEqual(['MAX_POSITION']);
  });

  it('bounds the per-strategy budget, with the batch tally', () => {
    const s = snap({ strategy: { ...snap().strategy, budgetQuote: d(20), committedQuote: d(8) } });
    expect(code([order()], s)).toEqual([true]);
    expect(code([order({ amount: d('0.0121') })], s)).toEqual(['BUDGET_EXCEEDED']);
    expect(code([order(), order()], snap({ strategy: { ...snap().strategy, budgetQuote: d(3), committedQuote: d(0) } }))).toEqual([
      'BUDGET_EXCEEDED',
      'BUDGET_EXCEEDED',
    ]);
    expect(code([order({ amount: d('0.015') }), order({ amount: d('0.015') })], snap({ strategy: { ...snap().strategy, budgetQuote: d(25) } }))).toEqual([true, 'BUDGET_EXCEEDED']);
  });

  describe('trading state', () => {
    const long = { BTC_USDT: { positionBase: d('0.02'), openBuyBase: d(0), openSellBase: d(0), openOrders: 0 } };

    it('REDUCE_ONLY passes only orders that reduce the position, up to its size', () => {
      const s = snap({ tradingState: 'REDUCE_ONLY', exposure: long });
      expect(code([order({ side: 'buy' })], s)).toEqual(['REDUCE_ONLY']);
      expect(code([order({ side: 'sell', amount: d('0.01') }), order({ side: 'sell', amount: d('0.01') }), order({ side: 'sell', amount: d('0.01') })], s)).toEqual([
        true,
        true,
        'REDUCE_ONLY',
      ]);
    });

    it('reducing orders are not held to the budget', () => {
      const s = snap({ exposure: long, strategy: { ...snap().strategy, budgetQuote: d(1), committedQuote: d(1) } });
      expect(code([order({ side: 'sell', amount: d('0.01') })], s)).toEqual([true]);
    });

    it('HALTED refuses every order and flex close but passes cancels', () => {
      const s = snap({ tradingState: 'HALTED', exposure: long });
      expect(code([order({ side: 'sell' })], s)).toEqual(['TRADING_HALTED']);
      expect(checkStanding(s, 'cancel')).toEqual({ ok: true });
      expect(checkStanding(s, 'closeFlex')).toMatchObject({ ok: false, code: 'TRADING_HALTED' });
      expect(checkStanding(snap({ tradingState: 'REDUCE_ONLY' }), 'closeFlex')).toEqual({ ok: true });
    });

    it('a quarantined strategy is refused everything, cancels included', () => {
      const s = snap({ strategy: { ...snap().strategy, quarantined: true } });
      expect(code([order()], s)).toEqual(['STRATEGY_QUARANTINED']);
      expect(checkStanding(s, 'cancel')).toMatchObject({ ok: false, code: 'STRATEGY_QUARANTINED' });
    });
  });

  describe('exits', () => {
    it('passes an exit that reduces the instance position and refuses one that does not', () => {
      const s = snap({ strategy: { ...snap().strategy, positionBase: { BTC_USDT: d('0.02') } }, exposure: { BTC_USDT: { positionBase: d('0.02'), openBuyBase: d(0), openSellBase: d(0), openOrders: 0 } } });
      expect(code([order({ side: 'sell', exit: true, amount: d('0.02') })], s)).toEqual([true]);
      expect(code([order({ side: 'buy', exit: true })], s)).toEqual(['EXIT_NOT_REDUCING']);
      expect(code([order({ side: 'sell', exit: true, amount: d('0.03') })], s)).toEqual(['EXIT_NOT_REDUCING']);
      expect(code([order({ side: 'sell', exit: true }), order({ side: 'sell', exit: true }), order({ side: 'sell', exit: true })], s)).toEqual([
        true,
        true,
        'EXIT_NOT_REDUCING',
      ]);
    });
  });

  describe('drawdown kill switch', () => {
    it('trips only beyond the limit', () => {
      const limits = snap().limits;
      expect(drawdownBreached({ currentQuote: d(9000), peakQuote: d(10_000) }, limits)).toBe(false);
      expect(drawdownBreached({ currentQuote: d('8999.99'), peakQuote: d(10_000) }, limits)).toBe(true);
      expect(drawdownBreached(null, limits)).toBe(false);
    });

    it('refuses orders with DRAWDOWN_HALT', () => {
      expect(code([order()], snap({ equity: { currentQuote: d(8000), peakQuote: d(10_000) } }))).toEqual(['DRAWDOWN_HALT']);
    });

    it('gives the answer of the 60-digit division, also a hair from the limit and for limits with no finite quotient', () => {
      const byDivision = (current: Decimal, peak: Decimal, pct: Decimal): boolean => peak.gt(0) && peak.minus(current).div(peak).mul(100).gt(pct);
      const peaks = [d(10_000), d(3), d('7.123456789'), d('0.000001')];
      const pcts = [d(10), d('33.333333333333333333'), d('0.01'), d(0)];
      for (const peak of peaks) {
        for (const pct of pcts) {
          const atLimit = peak.minus(peak.mul(pct).div(100));
          const tiny = peak.mul('1e-45');
          for (const current of [atLimit, atLimit.plus(tiny), atLimit.minus(tiny), peak, peak.mul(2), peak.div(2), d(0), d(-1)]) {
            const limits = { maxNotionalPerOrderQuote: d(1000), maxDrawdownPct: pct };
            expect(drawdownBreached({ currentQuote: current, peakQuote: peak }, limits)).toBe(byDivision(current, peak, pct));
          }
        }
      }
    });

    it('a batch refused by standing gets the one refusal for every order', () => {
      const decisions = checkOrders([order(), order()], snap({ tradingState: 'HALTED' }));
      expect(decisions.map((x) => (x.ok ? 'ok' : x.code))).toEqual(['TRADING_HALTED', 'TRADING_HALTED']);
    });
  });
});
