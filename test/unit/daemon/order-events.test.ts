/**
 * The route of final order states (src/daemon/order-events.ts) on a real SQLite store: an instance
 * without onOrder spends its events at once, one with it hears each once even when drained twice,
 * and the events of an instance not configured wait. The hook's state and the delivery mark land
 * together: a crash between them leaves neither.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ManualClock } from '../../../src/core/clock.js';
import { Decimal } from '../../../src/core/decimal.js';
import { routeOrderEvents } from '../../../src/daemon/order-events.js';
import { laneOf } from '../../../src/daemon/runners.js';
import { OrderJournal } from '../../../src/engine/order-journal.js';
import { Scheduler } from '../../../src/engine/scheduler.js';
import { StrategyRunner, type OrderPort, type StrategyRunnerOptions } from '../../../src/engine/strategy-runner.js';
import { silentLogger } from '../../../src/observability/logger.js';
import type { LoadedStrategy, OrderEventView } from '../../../src/strategy-api/host.js';
import { defineStrategy, type StrategyContext } from '../../../src/strategy-api/index.js';
import { openStore, type Store } from '../../../src/store/index.js';
import { tempDir } from '../../support/temp-dir.js';
import { MemoryState, snapshot } from '../../support/daemon-ctx.js';
import { RecordingEvents } from '../../support/runner-events.js';

const cleanups: (() => void)[] = [];
afterEach(() => {
  while (cleanups.length > 0) cleanups.pop()?.();
});

type Persisted = Pick<StrategyRunnerOptions, 'state' | 'atomically'>;

function runner(id: string, heard?: OrderEventView[], persisted: Persisted = { state: new MemoryState() }): StrategyRunner {
  const base = { name: id, params: z.object({}), schedule: '* * * * * *', onTick: () => [] };
  const onOrder = (ctx: StrategyContext, e: OrderEventView): void => {
    heard?.push(e);
    ctx.state.set('lastEvent', e.clientOrderId);
  };
  const definition = defineStrategy(heard === undefined ? base : { ...base, onOrder });
  const strategy: LoadedStrategy = { id, module: id, params: {}, schedule: '* * * * * *', definition: definition as NonNullable<LoadedStrategy['definition']> };
  return new StrategyRunner({
    strategy,
    clock: new ManualClock(),
    logger: silentLogger(),
    orders: {} as OrderPort,
    snapshot: async () => snapshot(),
    risk: () => ({}) as never,
    onDrawdown: () => undefined,
    ...persisted,
    accepting: () => true,
    events: new RecordingEvents(),
    deadlineMs: 1_000,
    errorBudget: 3,
    errorWindowMs: 60_000,
  });
}

function setup(): { store: Store; journal: OrderJournal; reject: (strategyId: string) => string } {
  const clock = new ManualClock(1_700_000_000_000);
  const store = openStore({ dataDir: tempDir('v4bot-finals-'), clock, logger: silentLogger() });
  cleanups.push(() => store.close());
  const journal = new OrderJournal(store, clock);
  const reject = (strategyId: string): string => {
    const [id] = journal.open(strategyId, [{ market: 'BTC_USDT', side: 'buy', amount: new Decimal('0.001'), price: new Decimal('100') }], 'limit') as [string];
    journal.move(id, 'REJECTED', 'ORDER_NOT_ENOUGH_BALANCE', {}, 'ORDER_NOT_ENOUGH_BALANCE: code 10');
    return id;
  };
  return { store, journal, reject };
}

describe('routeOrderEvents', () => {
  it('spends at once the events of an instance without onOrder, delivers the others once, keeps those of an unknown instance', async () => {
    const { store, journal, reject } = setup();
    const heard: OrderEventView[] = [];
    const scheduler = new Scheduler({ clock: new ManualClock(), maxConcurrent: 2 });
    const runners = new Map([
      ['quiet', runner('quiet')],
      ['ears', runner('ears', heard)],
    ]);
    const drain = routeOrderEvents({ store, clock: new ManualClock(), logger: silentLogger(), scheduler, runners, laneOf, onFinal: (l) => journal.onFinal(l) });
    reject('quiet');
    const ears = reject('ears');
    const gone = reject('gone');
    drain();
    drain();
    // The quiet instance's event was spent without waiting for its lane.
    expect(store.finals.undelivered().map((f) => f.clientOrderId)).toEqual([ears, gone]);
    expect(await scheduler.drain(5_000)).toBe(true);
    drain();
    expect(await scheduler.drain(5_000)).toBe(true);
    expect(heard.map((e) => [e.clientOrderId, e.state, e.reason, e.venue, e.amount.toFixed()])).toEqual([
      [ears, 'REJECTED', 'ORDER_NOT_ENOUGH_BALANCE', 'ORDER_NOT_ENOUGH_BALANCE: code 10', '0.001'],
    ]);
    expect(store.finals.undelivered().map((f) => f.clientOrderId)).toEqual([gone]);
  });
});

describe('onOrder state and its delivery mark', () => {
  it('land in one transaction: a failure while marking leaves the state unwritten and the event undelivered', async () => {
    const { store, reject } = setup();
    const id = reject('ears');
    const event: OrderEventView = {
      clientOrderId: id, market: 'BTC_USDT', side: 'buy', price: new Decimal('100'), amount: new Decimal('0.001'),
      filled: new Decimal(0), state: 'REJECTED', reason: 'ORDER_NOT_ENOUGH_BALANCE', venue: 'ORDER_NOT_ENOUGH_BALANCE: code 10', atMs: 0,
    };
    const state = store.strategyState('ears') as StrategyRunnerOptions['state'];
    const r = runner('ears', [], { state, atomically: (fn) => store.tx(fn) });
    const crash = (): void => {
      store.finals.markDelivered(id, 1);
      throw new Error('process died while marking');
    };
    await expect(r.order(event, crash)).rejects.toThrow('process died');
    expect(state.get('lastEvent')).toBeUndefined();
    expect(store.finals.undelivered().map((f) => f.clientOrderId)).toEqual([id]);
    // Delivered again after the "restart": state and mark land together this time.
    await r.order(event, () => store.finals.markDelivered(id, 2));
    expect(state.get('lastEvent')).toBe(id);
    expect(store.finals.undelivered()).toEqual([]);
  });
});
