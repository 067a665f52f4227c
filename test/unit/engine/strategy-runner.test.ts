import { describe, expect, it } from 'vitest';
import { RecordingEvents } from '../../support/runner-events.js';
import { z } from 'zod';
import { ManualClock } from '../../../src/core/clock.js';
import { StrategyError } from '../../../src/core/errors.js';
import { Decimal } from '../../../src/core/decimal.js';
import type { RiskSnapshot } from '../../../src/engine/risk-gate.js';
import { StrategyRunner, type OrderPort } from '../../../src/engine/strategy-runner.js';
import type { CollateralOrderSpec, LimitOrderSpec } from '../../../src/engine/order-manager.js';
import { silentLogger } from '../../../src/observability/logger.js';
import type { LoadedStrategy } from '../../../src/strategy-api/host.js';
import { defineStrategy, intents, type HookResult, type StrategyContext } from '../../../src/strategy-api/index.js';
import { MemoryState, price, snapshot } from '../../support/daemon-ctx.js';
import { riskSnapshot } from '../../support/risk-snapshot.js';

const d = (s: string | number): Decimal => new Decimal(s);

class FakeOrders implements OrderPort {
  calls: { op: string; strategyId: string; arg?: unknown }[] = [];
  async placeLimitOrders(strategyId: string, specs: readonly LimitOrderSpec[]) {
    this.calls.push({ op: 'limits', strategyId, arg: specs });
    return specs.map((_, i) => ({ status: 'placed' as const, clientOrderId: `${strategyId}-${i}`, orderId: i + 1, state: 'OPEN' as const }));
  }
  async placeCollateralOrder(strategyId: string, spec: CollateralOrderSpec) {
    this.calls.push({ op: 'collateral', strategyId, arg: spec });
    return { status: 'placed' as const, clientOrderId: `${strategyId}-c`, orderId: 9, state: 'OPEN' as const };
  }
  async cancelOrder(strategyId: string, clientOrderId: string) {
    this.calls.push({ op: 'cancel', strategyId, arg: clientOrderId });
    return { status: 'cancelled' as const, clientOrderId };
  }
  async cancelAll(strategyId: string, market?: string) {
    this.calls.push({ op: 'cancelAll', strategyId, arg: market });
    return [];
  }
  async closeFlex(strategyId: string, plan: { plan: string }) {
    this.calls.push({ op: 'closeFlex', strategyId, arg: plan.plan });
    return { status: 'done' as const, id: 'x', transactionId: 't' };
  }
}


function risk(over: Partial<RiskSnapshot> = {}): RiskSnapshot {
  return riskSnapshot('x', 5, over);
}

function loaded(id: string, onTick: (ctx: StrategyContext<unknown>) => HookResult | Promise<HookResult>): LoadedStrategy {
  return { id, module: 'test', params: {}, schedule: '* * * * * *', definition: defineStrategy({ name: 'test', params: z.object({}), schedule: '* * * * * *', onTick }) as NonNullable<LoadedStrategy['definition']> };
}

interface Harness {
  runner: StrategyRunner;
  orders: FakeOrders;
  events: RecordingEvents;
  clock: ManualClock;
  state: MemoryState;
  halts: number;
}

function harness(id: string, onTick: (ctx: StrategyContext<unknown>) => HookResult | Promise<HookResult>, over: { risk?: Partial<RiskSnapshot>; accepting?: () => boolean; clock?: ManualClock; orders?: FakeOrders; events?: RecordingEvents } = {}): Harness {
  const clock = over.clock ?? new ManualClock();
  const orders = over.orders ?? new FakeOrders();
  const events = over.events ?? new RecordingEvents();
  const state = new MemoryState();
  const h: Harness = { runner: undefined as unknown as StrategyRunner, orders, events, clock, state, halts: 0 };
  h.runner = new StrategyRunner({
    strategy: loaded(id, onTick),
    clock,
    logger: silentLogger(),
    orders,
    snapshot: async () => snapshot({ nowMs: clock.now(), prices: { BTC_USDT: price('BTC_USDT', '100') } }),
    risk: () => risk(over.risk),
    onDrawdown: () => void h.halts++,
    state,
    accepting: over.accepting ?? (() => true),
    events,
    deadlineMs: 1_000,
    errorBudget: 2,
    errorWindowMs: 60_000,
  });
  return h;
}

describe('StrategyRunner', () => {
  it('rounds to the market rules and sends the passing orders of an intent as one bulk', async () => {
    const h = harness('g', () => [
      intents.placeLimits([
        { market: 'BTC_USDT', side: 'buy', amount: '0.12345', price: '99.999' },
        { market: 'BTC_USDT', side: 'sell', amount: '0.1', price: '100.001' },
        { market: 'BTC_USDT', side: 'buy', amount: '0.0001', price: '99' },
      ]),
    ]);
    await h.runner.tick();
    expect(h.orders.calls).toHaveLength(1);
    const specs = h.orders.calls[0]?.arg as LimitOrderSpec[];
    expect(specs.map((s) => `${s.side} ${s.amount.toFixed()}@${s.price.toFixed()}`)).toEqual(['buy 0.123@99.99', 'sell 0.1@100.01']);
    expect(h.events.refusals).toEqual(['AMOUNT_BELOW_MIN']);
  });

  it('rounds protective legs so they protect at least as asked, and runs cancels and flex closes', async () => {
    const h = harness('c', () => [
      intents.placeCollateral({ market: 'BTC_USDT', side: 'buy', amount: '0.1', price: '100.005', stopLoss: '95.001', takeProfit: '110.009' }),
      intents.cancel('c-1'),
      intents.cancelAll('BTC_USDT'),
      intents.closeFlex('plan-a'),
    ]);
    await h.runner.tick();
    expect(h.orders.calls.map((c) => c.op)).toEqual(['collateral', 'cancel', 'cancelAll', 'closeFlex']);
    const spec = h.orders.calls[0]?.arg as CollateralOrderSpec;
    expect([spec.price.toFixed(), spec.stopLoss?.toFixed(), spec.takeProfit?.toFixed()]).toEqual(['100', '95.01', '110.01']);
  });

  it('an intent after a quarantine that began within the same call is refused, though the risk inputs say otherwise', async () => {
    const orders = new FakeOrders();
    const buy = (p: string) => intents.placeLimits([{ market: 'BTC_USDT', side: 'buy', amount: '0.1', price: p }]);
    const h = harness('q', () => [buy('99'), buy('98')], { orders });
    const place = orders.placeLimitOrders.bind(orders);
    orders.placeLimitOrders = async (id, specs) => {
      h.runner.guard.quarantine(new StrategyError('threw', 'raised elsewhere', { instanceId: id }));
      return place(id, specs);
    };
    await h.runner.tick();
    expect(h.orders.calls).toHaveLength(1);
    expect(h.events.refusals).toEqual(['STRATEGY_QUARANTINED']);
  });

  it('persists state only when the hook succeeds', async () => {
    let n = 0;
    const h = harness('s', (ctx) => {
      ctx.state.set('n', ++n);
      if (n === 2) throw new Error('fail after writing');
      return [];
    });
    await h.runner.tick();
    expect(h.state.get('n')).toBe(1);
    await h.runner.tick();
    expect(h.state.get('n')).toBe(1);
  });

  it('HALTED lets cancels through and refuses orders', async () => {
    const h = harness('h', () => [intents.placeLimits([{ market: 'BTC_USDT', side: 'buy', amount: '1', price: '100' }]), intents.cancelAll()], { risk: { tradingState: 'HALTED' } });
    await h.runner.tick();
    expect(h.orders.calls.map((c) => c.op)).toEqual(['cancelAll']);
    expect(h.events.refusals).toEqual(['TRADING_HALTED']);
  });

  it('reports the drawdown kill switch', async () => {
    const h = harness('k', () => [intents.placeLimits([{ market: 'BTC_USDT', side: 'buy', amount: '1', price: '100' }])], {
      risk: { equity: { currentQuote: d(80), peakQuote: d(100) } },
    });
    await h.runner.tick();
    expect(h.events.refusals).toEqual(['DRAWDOWN_HALT']);
    expect(h.halts).toBe(1);
    expect(h.orders.calls).toEqual([]);
  });

  it('drops intents once shutdown began', async () => {
    const h = harness('d', () => [intents.cancelAll()], { accepting: () => false });
    await h.runner.tick();
    expect(h.orders.calls).toEqual([]);
  });

  it('reports an engine error and stops the remaining intents of that call', async () => {
    const orders = new FakeOrders();
    orders.cancelAll = async () => {
      throw new Error('disk full');
    };
    const h = harness('e', () => [intents.cancelAll(), intents.cancel('e-1')], { orders });
    await h.runner.tick();
    expect(h.events.engine).toHaveLength(1);
    expect(orders.calls).toEqual([]);
  });

  describe('faulty plugins are quarantined, others unaffected', () => {
    const good = (): HookResult => [intents.cancelAll('BTC_USDT')];

    async function scenario(bad: (ctx: StrategyContext<unknown>) => HookResult | Promise<HookResult>): Promise<{ badH: Harness; goodH: Harness }> {
      const clock = new ManualClock();
      const orders = new FakeOrders();
      const badH = harness('bad', bad, { clock, orders });
      const goodH = harness('good', good, { clock, orders });
      for (let i = 0; i < 3; i++) {
        const t = badH.runner.tick();
        await new Promise((r) => setImmediate(r));
        clock.advance(1_000);
        await t;
        await goodH.runner.tick();
      }
      return { badH, goodH };
    }

    it.each([
      ['throws', () => { throw new Error('plugin bug'); }, 'STRATEGY_THREW'],
      ['hangs', () => new Promise<never>(() => {}), 'STRATEGY_DEADLINE'],
      ['returns garbage', () => [{ type: 'placeLimits', orders: [{ market: 'BTC_USDT', side: 'buy', amount: 1, price: 'lots' }] }] as unknown as HookResult, 'STRATEGY_BAD_INTENT'],
      ['returns a non-array', () => 'buy everything' as unknown as HookResult, 'STRATEGY_BAD_INTENT'],
    ] as const)('a plugin that %s', async (_name, bad, code) => {
      let badCalls = 0;
      const { badH, goodH } = await scenario((ctx) => {
        badCalls++;
        return (bad as (c: StrategyContext<unknown>) => HookResult | Promise<HookResult>)(ctx);
      });
      expect(badH.runner.quarantined).toBe(true);
      expect(badH.events.quarantines).toEqual(['bad']);
      expect(badH.events.errors).toEqual([code, code]);
      expect(badCalls).toBe(2);
      expect(goodH.runner.quarantined).toBe(false);
      expect(badH.orders.calls.filter((c) => c.strategyId === 'bad')).toEqual([]);
      expect(goodH.orders.calls.filter((c) => c.strategyId === 'good')).toHaveLength(3);
    });
  });
});
