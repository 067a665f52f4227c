/**
 * onOrder from the simulator over HTTP (docs/strategies.md § Order events): an order filled
 * completely, an IOC remainder the venue ended, a refusal and a cancel each reach the instance's
 * sandboxed hook once, with the venue's word; across a restart nothing is delivered twice, and a
 * final state recorded while no hook could run (a crash before delivery) is delivered after it.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { Decimal } from '../../../src/core/decimal.js';
import { routeOrderEvents } from '../../../src/daemon/order-events.js';
import { laneOf } from '../../../src/daemon/runners.js';
import { Scheduler } from '../../../src/engine/scheduler.js';
import { WorkerExecutor } from '../../../src/engine/sandbox-worker/worker-executor.js';
import { StrategyRunner } from '../../../src/engine/strategy-runner.js';
import { silentLogger } from '../../../src/observability/logger.js';
import type { JsonValue } from '../../../src/strategy-api/host.js';
import { tempDir } from '../../support/temp-dir.js';
import { engineFor, startStack, type LiveEngine, type Stack } from '../../support/engine-stack.js';
import { eventually } from '../../support/eventually.js';
import { RecordingEvents } from '../../support/runner-events.js';

const file = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures/order-recorder.ts');
const ID = 'rec';

let stack: Stack | undefined;
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
  await stack?.close();
  stack = undefined;
});

interface Seen {
  clientOrderId: string;
  state: string;
  reason: string;
  venue: string | null;
  amount: string;
  filled: string;
  decimals: boolean;
}

/** The instance wired as the daemon wires it: a sandboxed worker, its lane, the order-event route. */
function wire(e: LiveEngine): { events: () => Seen[]; settle: () => Promise<boolean> } {
  const state = e.store.strategyState(ID);
  const executor = new WorkerExecutor({ file, instanceId: ID, params: {}, knownMarkets: ['BTC_USDT'], stateEntries: () => state.entries() as Record<string, JsonValue>, logger: silentLogger() });
  const scheduler = new Scheduler({ clock: e.clock, maxConcurrent: 2 });
  const runner = new StrategyRunner({
    strategy: { id: ID, module: 'order-recorder', file, params: {}, schedule: '0 0 * * * *', hooks: { init: false, onFill: false, onOrder: true, onStop: false } },
    executor,
    clock: e.clock,
    logger: silentLogger(),
    orders: e.orders,
    snapshot: async () => ({ nowMs: e.clock.now(), prices: {}, balances: {}, openOrders: [], positions: [], recentFills: [], flex: { investments: [], earnings: {} } }),
    risk: () => {
      throw new Error('no intents here');
    },
    onDrawdown: () => undefined,
    state,
    accepting: () => true,
    events: new RecordingEvents(),
    deadlineMs: 10_000,
    errorBudget: 3,
    errorWindowMs: 600_000,
  });
  cleanups.push(() => executor.close());
  const drain = routeOrderEvents({ store: e.store, clock: e.clock, logger: silentLogger(), scheduler, runners: new Map([[ID, runner]]), laneOf, onFinal: (l) => e.journal.onFinal(l) });
  return {
    events: () => (state.get('events') ?? []) as unknown as Seen[],
    // One more drain, then until the lane is idle: anything left to deliver would be heard by now.
    settle: () => {
      drain();
      return scheduler.drain(30_000);
    },
  };
}

const d = (s: string): Decimal => new Decimal(s);

describe('onOrder', () => {
  it('hears each final state once, from the venue over HTTP, and exactly once across a restart', async () => {
    stack = await startStack();
    const dir = tempDir('v4bot-onorder-');
    const first = engineFor(dir, stack.sim, stack.clock);
    const seen = wire(first);
    const last = d(stack.sim.prices().prices['BTC_USDT'] as string);
    const [filled, expired, rejected, resting] = await first.orders.placeLimitOrders(ID, [
      { market: 'BTC_USDT', side: 'buy', amount: d('0.001'), price: last.mul('1.05').toDecimalPlaces(2) },
      { market: 'BTC_USDT', side: 'buy', amount: d('0.001'), price: last.mul('0.5').toDecimalPlaces(2), ioc: true },
      { market: 'BTC_USDT', side: 'buy', amount: d('0.001'), price: last.mul('0.5').toDecimalPlaces(2), ioc: true, postOnly: true },
      { market: 'BTC_USDT', side: 'buy', amount: d('0.001'), price: last.mul('0.5').toDecimalPlaces(2) },
    ]);
    await first.orders.cancelOrder(ID, resting?.clientOrderId ?? '');
    await eventually(() => seen.events().length === 4, 'four order events', { timeoutMs: 30_000 });
    const byId = new Map(seen.events().map((ev) => [ev.clientOrderId, ev]));
    expect(byId.get(filled?.clientOrderId ?? '')).toMatchObject({ state: 'FILLED', filled: '0.001', amount: '0.001', decimals: true });
    expect(byId.get(expired?.clientOrderId ?? '')).toMatchObject({ state: 'CANCELLED', reason: 'placed', filled: '0', decimals: true });
    expect(byId.get(expired?.clientOrderId ?? '')?.venue).toBe('status CANCELLED');
    expect(byId.get(rejected?.clientOrderId ?? '')).toMatchObject({ state: 'REJECTED', filled: '0' });
    expect(byId.get(rejected?.clientOrderId ?? '')?.venue).toMatch(/^ORDER_IOC_POST_ONLY: .*code 37/);
    expect(byId.get(resting?.clientOrderId ?? '')).toMatchObject({ state: 'CANCELLED', reason: 'cancel confirmed', venue: 'status CANCELLED' });
    expect(await seen.settle()).toBe(true);
    expect(seen.events()).toHaveLength(4);
    expect(first.store.finals.undelivered()).toEqual([]);

    // A crash before delivery: the final state is recorded, no hook runs.
    const [lost] = await first.orders.placeLimitOrders('rec', [{ market: 'BTC_USDT', side: 'buy', amount: d('0.001'), price: last.mul('0.5').toDecimalPlaces(2) }]);
    await cleanups.pop()?.(); // the first worker
    await first.close();
    const between = engineFor(dir, stack.sim, stack.clock);
    await between.orders.cancelOrder(ID, lost?.clientOrderId ?? '');
    expect(between.store.finals.undelivered().map((f) => f.clientOrderId)).toEqual([lost?.clientOrderId]);
    await between.close();

    const second = engineFor(dir, stack.sim, stack.clock);
    cleanups.push(() => second.close());
    const again = wire(second);
    await eventually(() => again.events().length === 5, 'the undelivered event after the restart', { timeoutMs: 30_000 });
    expect(await again.settle()).toBe(true);
    expect(again.events()).toHaveLength(5);
    expect(again.events()[4]).toMatchObject({ clientOrderId: lost?.clientOrderId, state: 'CANCELLED' });
    expect(new Set(again.events().map((ev) => ev.clientOrderId)).size).toBe(5);
    expect(second.store.finals.undelivered()).toEqual([]);
  });
});
