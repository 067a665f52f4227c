/**
 * Strategy hooks in real worker threads: a runaway is terminated at its deadline and quarantined
 * while other instances go on; a fault outside a hook quarantines only its instance; the worker
 * sees no environment; the context is what a strategy sees in-process.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { RecordingEvents } from '../../../support/runner-events.js';
import { pathToFileURL } from 'node:url';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { SystemClock } from '../../../../src/core/clock.js';
import { Decimal } from '../../../../src/core/decimal.js';
import type { RiskSnapshot } from '../../../../src/engine/risk-gate.js';
import { StrategyRunner, type OrderPort } from '../../../../src/engine/strategy-runner.js';
import type { LimitOrderSpec } from '../../../../src/engine/order-manager.js';
import { WorkerExecutor } from '../../../../src/engine/sandbox-worker/worker-executor.js';
import { silentLogger } from '../../../../src/observability/logger.js';
import { BufferedState, type JsonValue, type LoadedStrategy, type StrategyDefinition } from '../../../../src/strategy-api/host.js';
import { MemoryState, price, snapshot } from '../../../support/daemon-ctx.js';
import { eventually } from '../../../support/eventually.js';
import { riskSnapshot } from '../../../support/risk-snapshot.js';

const d = (s: string | number): Decimal => new Decimal(s);
const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures');

class EntriesState extends MemoryState {
  entries(): Record<string, JsonValue> {
    return Object.fromEntries(this.data);
  }
}

class Orders implements OrderPort {
  calls: { op: string; strategyId: string; arg?: unknown }[] = [];
  async placeLimitOrders(strategyId: string, specs: readonly LimitOrderSpec[]) {
    this.calls.push({ op: 'limits', strategyId, arg: specs });
    return specs.map((_, i) => ({ status: 'placed' as const, clientOrderId: `${strategyId}-${i}`, orderId: i + 1, state: 'OPEN' as const }));
  }
  async placeCollateralOrder(): Promise<never> {
    throw new Error('not used');
  }
  async cancelOrder(): Promise<never> {
    throw new Error('not used');
  }
  async cancelAll(strategyId: string, market?: string) {
    this.calls.push({ op: 'cancelAll', strategyId, arg: market });
    return [];
  }
  async closeFlex(): Promise<never> {
    throw new Error('not used');
  }
}


const risk = (): RiskSnapshot => riskSnapshot('x', 5);

interface Instance {
  runner: StrategyRunner;
  executor: WorkerExecutor;
  orders: Orders;
  events: RecordingEvents;
  state: EntriesState;
}

const started: Instance[] = [];
afterEach(async () => {
  for (const i of started.splice(0)) await i.executor.close();
});

async function instance(id: string, module: string, params: unknown, deadlineMs = 2_000): Promise<Instance> {
  const moduleUrl = pathToFileURL(path.join(fixtures, `${module}.ts`)).href;
  const definition = ((await import(moduleUrl)) as { default: StrategyDefinition<unknown> }).default;
  const strategy: LoadedStrategy = { id, module, definition, params: definition.params.parse(params), schedule: '* * * * * *' };
  const state = new EntriesState();
  const orders = new Orders();
  const events = new RecordingEvents();
  const executor = new WorkerExecutor({ file: fileURLToPath(moduleUrl), instanceId: id, params, knownMarkets: ['BTC_USDT'], stateEntries: () => state.entries(), logger: silentLogger() });
  const runner = new StrategyRunner({
    strategy,
    clock: new SystemClock(),
    logger: silentLogger(),
    orders,
    snapshot: async () => snapshot({ prices: { BTC_USDT: price('BTC_USDT', '100.5') } }),
    risk,
    onDrawdown: () => undefined,
    state,
    accepting: () => true,
    events,
    deadlineMs,
    errorBudget: 2,
    errorWindowMs: 600_000,
    executor,
  });
  const i = { runner, executor, orders, events, state };
  started.push(i);
  return i;
}

describe('strategy hooks in worker threads', () => {
  it('terminates a synchronous endless loop at the deadline and quarantines it while another instance keeps ticking', async () => {
    const bad = await instance('spin', 'spinner', { spin: true }, 300);
    const good = await instance('calm', 'spinner', { spin: false });
    await good.runner.tick();
    const badTick = bad.runner.tick();
    // The engine's thread is free while the loop spins: the other instance ticks meanwhile.
    await good.runner.tick();
    expect(bad.executor.running).toBe(true);
    await badTick;
    expect(bad.events.errors).toEqual(['STRATEGY_DEADLINE']);
    expect(bad.executor.running).toBe(false);
    await bad.runner.tick();
    expect(bad.runner.quarantined).toBe(true);
    expect(bad.events.quarantines).toEqual(['spin']);
    await good.runner.tick();
    expect(good.runner.quarantined).toBe(false);
    expect(good.orders.calls.map((c) => `${c.op} ${c.strategyId}`)).toEqual(['cancelAll calm', 'cancelAll calm', 'cancelAll calm']);
    expect(bad.orders.calls).toEqual([]);
  });

  it('gives the hook no timer: setTimeout is not there in the sandbox', async () => {
    const i = await instance('stray', 'stray-timer', { how: 'timer' });
    await i.executor.prepare();
    const err = await i.executor.run({ hook: 'onTick', data: snapshot({ prices: {} }), state: new BufferedState(i.state) }).catch((e: unknown) => e);
    expect(String((err as Error).message)).toMatch(/stray-timer\.ts:\d+:\d+: setTimeout is not a function/);
  });

  it.each(['rejection'] as const)('quarantines only the instance whose %s throws outside a hook', async (how) => {
    const bad = await instance('stray', 'stray-timer', { how });
    const good = await instance('calm', 'spinner', { spin: false });
    await bad.runner.tick();
    await eventually(() => bad.runner.quarantined, 'the quarantine');
    expect(bad.events.quarantines).toEqual(['stray']);
    expect(bad.events.engine).toEqual([]);
    expect(bad.executor.running).toBe(false);
    await bad.runner.tick();
    await good.runner.tick();
    expect(good.runner.quarantined).toBe(false);
    expect(good.events.engine).toEqual([]);
    expect(good.orders.calls).toHaveLength(1);
  });

  it('gives the hook no environment, the context it has in-process, and round-trips state, intents and fills', async () => {
    process.env['API_SECRET'] = 'do-not-leak';
    try {
      const probe = await instance('probe', 'probe', { market: 'BTC_USDT', amount: '0.5' });
      await probe.runner.tick();
      await probe.runner.tick();
      expect(probe.events.errors).toEqual([]);
      expect(Object.fromEntries(probe.state.data)).toEqual({ n: 2, secret: null, decimals: true, frozen: true });
      const specs = probe.orders.calls.map((c) => (c.arg as LimitOrderSpec[]).map((s) => `${s.side} ${s.amount.toFixed()}@${s.price.toFixed()}`));
      expect(specs).toEqual([['buy 0.5@100.5'], ['buy 0.5@100.5']]);
      const fill = { dealId: 1, clientOrderId: 'probe-1', market: 'BTC_USDT', side: 'buy' as const, role: 'maker' as const, amount: d('0.5'), price: d('100.5'), quote: d('50.25'), fee: d('0'), timeMs: 0 };
      await probe.runner.fill(fill);
      expect(probe.state.get('fill')).toBe('0.5@100.5');
    } finally {
      delete process.env['API_SECRET'];
    }
  });

  it("a hook's error names the strategy's file and line", async () => {
    const i = await instance('thrower', 'thrower', {});
    await i.executor.prepare();
    const data = snapshot({ prices: {} });
    const err = await i.executor.run({ hook: 'onTick', data, state: new BufferedState(i.state) }).catch((e: unknown) => e);
    expect(String((err as Error).message)).toMatch(/thrower\.ts:\d+:\d+: boom in the strategy/);
  });
});
