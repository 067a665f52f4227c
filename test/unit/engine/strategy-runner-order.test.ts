/**
 * The runner's `onOrder` (docs/strategies.md § Order events): a paused instance still hears it
 * (its intents are dropped, its state kept), a quarantined one does not; the delivery mark comes
 * once the hook's state is committed, or at once when the hook cannot run or fails.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ManualClock } from '../../../src/core/clock.js';
import { Decimal } from '../../../src/core/decimal.js';
import { StrategyError } from '../../../src/core/errors.js';
import { StrategyRunner, type OrderPort } from '../../../src/engine/strategy-runner.js';
import { silentLogger } from '../../../src/observability/logger.js';
import type { LoadedStrategy, OrderEventView } from '../../../src/strategy-api/host.js';
import { defineStrategy, intents, type StrategyDefinition } from '../../../src/strategy-api/index.js';
import { MemoryState, snapshot } from '../../support/daemon-ctx.js';
import { RecordingEvents } from '../../support/runner-events.js';

const event: OrderEventView = {
  clientOrderId: 'o-1',
  market: 'BTC_USDT',
  side: 'buy',
  price: new Decimal('100.5'),
  amount: new Decimal('0.002'),
  filled: new Decimal('0'),
  state: 'REJECTED',
  reason: 'ORDER_NOT_ENOUGH_BALANCE',
  venue: 'ORDER_NOT_ENOUGH_BALANCE: code 10',
  atMs: 1_700_000_000_000,
};

function harness(onOrder: StrategyDefinition<unknown>['onOrder'], accepting = true) {
  const cancels: string[] = [];
  const orders = { cancelOrder: async (_s: string, id: string) => void cancels.push(id) } as unknown as OrderPort;
  const definition = defineStrategy({ name: 't', params: z.object({}), schedule: '* * * * * *', onTick: () => [], ...(onOrder === undefined ? {} : { onOrder }) });
  const strategy: LoadedStrategy = { id: 't', module: 't', params: {}, schedule: '* * * * * *', definition: definition as NonNullable<LoadedStrategy['definition']> };
  const state = new MemoryState();
  const events = new RecordingEvents();
  const runner = new StrategyRunner({
    strategy,
    clock: new ManualClock(),
    logger: silentLogger(),
    orders,
    snapshot: async () => snapshot(),
    risk: () => ({ tradingState: 'ACTIVE', markets: {}, limits: {}, exposure: {}, strategy: { quarantined: false }, equity: null }) as never,
    onDrawdown: () => undefined,
    state,
    accepting: () => accepting,
    events,
    deadlineMs: 1_000,
    errorBudget: 3,
    errorWindowMs: 60_000,
  });
  let marks = 0;
  const deliver = (): Promise<void> => runner.order(event, () => void marks++);
  return { runner, state, events, cancels, deliver, marks: () => marks };
}

const recording: StrategyDefinition<unknown>['onOrder'] = (ctx, e) => {
  ctx.state.set('heard', `${e.clientOrderId} ${e.state} ${e.reason} ${e.amount.toFixed()}@${e.price.toFixed()}`);
  return [intents.cancel('o-2')];
};

describe('StrategyRunner.order', () => {
  it('runs onOrder with the event as Decimals, commits its state, executes its intents and marks it delivered once', async () => {
    const h = harness(recording);
    await h.deliver();
    expect(h.state.get('heard')).toBe('o-1 REJECTED ORDER_NOT_ENOUGH_BALANCE 0.002@100.5');
    expect(h.cancels).toEqual(['o-2']);
    expect(h.marks()).toBe(1);
  });

  it('a paused instance still hears it: state kept, intents dropped', async () => {
    const h = harness(recording, false);
    await h.deliver();
    expect(h.state.get('heard')).toBe('o-1 REJECTED ORDER_NOT_ENOUGH_BALANCE 0.002@100.5');
    expect(h.cancels).toEqual([]);
    expect(h.marks()).toBe(1);
  });

  it('a quarantined instance does not hear it; the event is spent', async () => {
    const h = harness(recording);
    h.runner.guard.quarantine(new StrategyError('threw', 'strategy t threw', { instanceId: 't' }));
    await h.deliver();
    expect(h.state.get('heard')).toBeUndefined();
    expect(h.marks()).toBe(1);
  });

  it('a hook that throws spends the event and the error budget, and writes no state', async () => {
    const h = harness((ctx) => {
      ctx.state.set('heard', 'half');
      throw new Error('boom');
    });
    await h.deliver();
    expect(h.state.get('heard')).toBeUndefined();
    expect(h.events.errors).toEqual(['STRATEGY_THREW']);
    expect(h.marks()).toBe(1);
  });

  it('a module without onOrder: the event is spent without a call', async () => {
    const h = harness(undefined);
    await h.deliver();
    expect(h.marks()).toBe(1);
  });
});
