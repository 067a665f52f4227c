/**
 * A call that waits for nothing answers a promise settled already, and a call that waits goes on
 * from its first wait in one async function: the turns of the microtask queue on which a call's
 * intents reach the order port, its state lands and its promise settles are those of the runner's
 * whole call as one async function (the reference below, the runner's call as it was), for every
 * mix of a snapshot and a hook answered at once or later, on random sequences of ticks that write
 * state, place orders (one or two intents, a port answering at once or later, or failing), return
 * garbage or throw. A synchronous fault rejects the call's promise, as the async function's did.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ManualClock } from '../../../src/core/clock.js';
import type { Decimal } from '../../../src/core/decimal.js';
import { InlineExecutor } from '../../../src/engine/sandbox-worker/executor.js';
import type { RiskSnapshot } from '../../../src/engine/risk-gate.js';
import { StrategyRunner, type OrderPort, type StrategyRunnerOptions } from '../../../src/engine/strategy-runner.js';
import { silentLogger } from '../../../src/observability/logger.js';
import type { Logger } from '../../../src/observability/logger.js';
import { BufferedState, type GuardedResult, type HookGuard, type Intent, type LoadedStrategy, type SnapshotData } from '../../../src/strategy-api/host.js';
import { defineStrategy, intents, type HookResult, type StrategyContext } from '../../../src/strategy-api/index.js';
import { MemoryState, price, snapshot } from '../../support/daemon-ctx.js';
import { PromiseOnly } from '../../support/promise-only-executor.js';
import { RecordingEvents } from '../../support/runner-events.js';
import { riskSnapshot } from '../../support/risk-snapshot.js';


type Move = 'none' | 'write' | 'place' | 'two' | 'fail' | 'garbage' | 'throw' | 'late';
const MOVES: Move[] = ['none', 'write', 'place', 'two', 'fail', 'garbage', 'throw', 'late'];

function onTick(moves: Move[]): (ctx: StrategyContext<unknown>) => HookResult | Promise<HookResult> {
  let i = 0;
  const order = (p: string) => intents.placeLimits([{ market: 'BTC_USDT', side: 'buy', amount: '0.001', price: p }]);
  return (ctx) => {
    const move = moves[i++] ?? 'none';
    const seen = ctx.state.get('n');
    const n = typeof seen === 'number' ? seen : 0;
    if (move !== 'none') ctx.state.set('n', n + 1);
    if (move === 'place') return [order(`${100 + n}`)];
    if (move === 'two') return [order(`${100 + n}`), intents.cancelAll('BTC_USDT')];
    if (move === 'fail') return [intents.cancelAll('BTC_USDT'), order('101')];
    if (move === 'garbage') return [{ type: 'nonsense' } as never];
    if (move === 'throw') throw new Error('boom');
    if (move === 'late') return Promise.resolve([order('99')]);
    return [];
  };
}

function risk(): RiskSnapshot {
  return riskSnapshot('s', 0);
}

/** The runner's parts the reference call uses (private in the class: reached as its call reached them). */
interface Parts {
  id: string;
  log: Logger;
  guard: HookGuard;
  options: StrategyRunnerOptions;
  snapshotNow(): SnapshotData | Promise<SnapshotData>;
  guarded(hook: 'onTick', data: SnapshotData, state: BufferedState, input: object): GuardedResult<unknown> | Promise<GuardedResult<unknown>>;
  intentsOf(hook: 'onTick', result: GuardedResult<unknown>, spent: () => void): Intent[] | undefined;
  land(state: BufferedState, spent: () => void): void;
  execute(intent: Intent): Promise<void>;
}

/** The runner's call as one async function, as it was before a call that waits for nothing answered at once. */
async function reference(r: StrategyRunner): Promise<void> {
  const p = r as unknown as Parts;
  const spent = (): void => undefined;
  if (p.guard.quarantined) return spent();
  const snap = p.snapshotNow();
  const data = snap instanceof Promise ? await snap : snap;
  const state = new BufferedState(p.options.state);
  const called = p.guarded('onTick', data, state, {});
  const list = p.intentsOf('onTick', called instanceof Promise ? await called : called, spent);
  if (list === undefined) return;
  p.land(state, spent);
  if (!p.options.accepting()) return;
  for (const intent of list) {
    try {
      await p.execute(intent);
    } catch (err) {
      p.options.events.engineError(p.id, err);
      return;
    }
  }
}

interface Mix {
  hookAtOnce: boolean;
  snapshotAtOnce: boolean;
  portAtOnce: boolean;
}

/** Runs the ticks with a microtask counter going; what happened is written down with the turn it happened on. */
async function trace(moves: Move[], mix: Mix, viaReference: boolean): Promise<string[]> {
  const clock = new ManualClock();
  const out: string[] = [];
  let turn = 0;
  let spinning = true;
  const spin = (): void => {
    if (!spinning) return;
    turn++;
    queueMicrotask(spin);
  };
  const answer = <T>(v: T): T | Promise<T> => (mix.portAtOnce ? v : Promise.resolve(v));
  const orders = {
    placeLimitOrders: (_s: string, specs: readonly { price: Decimal }[]) => {
      out.push(`place ${specs.map((o) => o.price.toFixed()).join()} @${turn}`);
      return Promise.resolve(answer(specs.map((_, i) => ({ status: 'placed' as const, clientOrderId: `c${i}`, orderId: i, state: 'OPEN' as const }))));
    },
    cancelAll: (_s: string, market?: string) => {
      out.push(`cancelAll ${market ?? ''} @${turn}`);
      return moves.includes('fail') ? Promise.reject(new Error('store down')) : Promise.resolve(answer([]));
    },
  } as unknown as OrderPort;
  const state = new (class extends MemoryState {
    override set(key: string, value: never): void {
      out.push(`set ${key}=${JSON.stringify(value)} @${turn}`);
      super.set(key, value);
    }
  })();
  const definition = defineStrategy({ name: 't', params: z.object({}), schedule: '* * * * * *', onTick: onTick(moves) });
  const strategy: LoadedStrategy = { id: 's', module: 't', params: {}, schedule: '* * * * * *', definition: definition as NonNullable<LoadedStrategy['definition']> };
  const inline = new InlineExecutor(strategy, silentLogger());
  const data = (): SnapshotData => snapshot({ nowMs: clock.now(), prices: { BTC_USDT: price('BTC_USDT', '100') } });
  const events = new RecordingEvents();
  const runner = new StrategyRunner({
    strategy,
    executor: mix.hookAtOnce ? inline : new PromiseOnly(inline),
    clock,
    logger: silentLogger(),
    orders,
    snapshot: mix.snapshotAtOnce ? data : () => Promise.resolve(data()),
    risk,
    onDrawdown: () => undefined,
    state,
    accepting: () => true,
    events,
    deadlineMs: 1_000,
    errorBudget: 100,
    errorWindowMs: 10_000,
  });
  spin();
  for (const move of moves) {
    const start = turn;
    await (viaReference ? reference(runner) : runner.tick());
    out.push(`${move} settled +${turn - start}`);
    clock.advance(1_000);
  }
  spinning = false;
  out.push(`errors ${events.errors.join()}`, `engine ${events.engine.length}`);
  return out;
}

describe('StrategyRunner: the turns a call takes', () => {
  it('are those of the call as one async function, for every mix of answers at once and later', async () => {
    let seed = 7;
    const rand = (n: number): number => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed % n;
    };
    for (let run = 0; run < 48; run++) {
      const mix = { hookAtOnce: run % 2 === 0, snapshotAtOnce: run % 4 < 2, portAtOnce: run % 8 < 4 };
      const moves = Array.from({ length: 12 }, () => MOVES[rand(MOVES.length)] as Move);
      const mine = await trace(moves, mix, false);
      expect(mine, `${JSON.stringify(mix)} ${moves.join()}`).toEqual(await trace(moves, mix, true));
    }
  });

  it('rejects, not throws, when the snapshot fails at once', async () => {
    const definition = defineStrategy({ name: 't', params: z.object({}), schedule: '* * * * * *', onTick: () => [] });
    const strategy: LoadedStrategy = { id: 's', module: 't', params: {}, schedule: '* * * * * *', definition: definition as NonNullable<LoadedStrategy['definition']> };
    const runner = new StrategyRunner({
      strategy,
      clock: new ManualClock(),
      logger: silentLogger(),
      orders: {} as OrderPort,
      snapshot: () => {
        throw new Error('store gone');
      },
      risk,
      onDrawdown: () => undefined,
      state: new MemoryState(),
      accepting: () => true,
      events: new RecordingEvents(),
      deadlineMs: 1_000,
      errorBudget: 3,
      errorWindowMs: 10_000,
    });
    let tick: Promise<void> | undefined;
    expect(() => (tick = runner.tick())).not.toThrow();
    await expect(tick).rejects.toThrow('store gone');
  });
});
