/**
 * The runner lands a hook's state and its event's delivery mark in one store transaction, and
 * opens none for a call that wrote nothing and delivers no event (most ticks). It waits for the
 * executor's `prepare()` only while the executor does not say it is prepared.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ManualClock } from '../../../src/core/clock.js';
import { Decimal } from '../../../src/core/decimal.js';
import { InlineExecutor, type HookExecutor } from '../../../src/engine/sandbox-worker/executor.js';
import { StrategyRunner, type OrderPort } from '../../../src/engine/strategy-runner.js';
import { silentLogger } from '../../../src/observability/logger.js';
import type { LoadedStrategy, OrderEventView } from '../../../src/strategy-api/host.js';
import { defineStrategy } from '../../../src/strategy-api/index.js';
import { MemoryState, snapshot } from '../../support/daemon-ctx.js';
import { RecordingEvents } from '../../support/runner-events.js';

const event: OrderEventView = {
  clientOrderId: 'o-1', market: 'BTC_USDT', side: 'buy', price: new Decimal('100'), amount: new Decimal('0.002'), filled: new Decimal('0'),
  state: 'REJECTED', reason: 'ORDER_NOT_ENOUGH_BALANCE', venue: 'ORDER_NOT_ENOUGH_BALANCE: code 10', atMs: 1_700_000_000_000,
};

function harness(executorOf?: (s: LoadedStrategy) => HookExecutor) {
  let ticks = 0;
  const definition = defineStrategy({
    name: 't',
    params: z.object({}),
    schedule: '* * * * * *',
    // Writes its state on every other tick only, a second key on every fourth.
    onTick: (ctx) => {
      ticks++;
      if (ticks % 2 === 0) ctx.state.set('ticks', ticks);
      if (ticks % 4 === 0) ctx.state.set('fourth', ticks);
      return [];
    },
    onOrder: () => [],
  });
  const strategy: LoadedStrategy = { id: 't', module: 't', params: {}, schedule: '* * * * * *', definition: definition as NonNullable<LoadedStrategy['definition']> };
  const state = new MemoryState();
  const transactions: string[] = [];
  const runner = new StrategyRunner({
    ...(executorOf === undefined ? {} : { executor: executorOf(strategy) }),
    strategy,
    clock: new ManualClock(),
    logger: silentLogger(),
    orders: {} as OrderPort,
    snapshot: async () => snapshot(),
    risk: () => ({}) as never,
    onDrawdown: () => undefined,
    state,
    atomically: (fn) => {
      transactions.push(`state ${String(state.get('ticks'))}`);
      fn();
    },
    accepting: () => true,
    events: new RecordingEvents(),
    deadlineMs: 1_000,
    errorBudget: 3,
    errorWindowMs: 60_000,
  });
  return { runner, state, transactions };
}

describe('StrategyRunner: landing a call', () => {
  it('a tick that wrote nothing or one key opens no transaction; one that wrote more commits inside one', async () => {
    const h = harness();
    await h.runner.tick();
    expect(h.transactions).toEqual([]);
    await h.runner.tick();
    expect(h.transactions).toEqual([]);
    expect(h.state.get('ticks')).toBe(2);
    await h.runner.tick();
    await h.runner.tick();
    expect(h.transactions).toEqual(['state 2']);
    expect(h.state.get('ticks')).toBe(4);
    expect(h.state.get('fourth')).toBe(4);
  });

  it('an order event is marked delivered inside a transaction even when the hook wrote nothing', async () => {
    const h = harness();
    let marks = 0;
    await h.runner.order(event, () => void marks++);
    expect(h.transactions).toEqual(['state undefined']);
    expect(marks).toBe(1);
  });

  it('waits for prepare() on every call unless the executor says it is prepared', async () => {
    const prepares: boolean[] = [];
    const counting = (prepared: boolean) => (st: LoadedStrategy): HookExecutor => {
      const inline = new InlineExecutor(st, silentLogger());
      const prepare = async (): Promise<void> => void prepares.push(prepared);
      return Object.assign(inline, prepared ? { prepare } : { prepare, isPrepared: undefined });
    };
    const waiting = harness(counting(false));
    await waiting.runner.tick();
    await waiting.runner.tick();
    expect(prepares).toEqual([false, false]);
    const ready = harness(counting(true));
    await ready.runner.tick();
    await ready.runner.tick();
    expect(prepares).toEqual([false, false]);
    expect(ready.state.get('ticks')).toBe(2);
  });
});
