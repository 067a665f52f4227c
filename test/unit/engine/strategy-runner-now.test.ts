/**
 * A runner whose executor answers at once (`runNow`: the in-thread executors) and whose snapshot
 * comes at once behaves as one that goes through promises for both: on a random sequence of ticks
 * whose hook writes state (changed or not), returns intents or garbage, throws, or answers late,
 * the stored state, the orders sent, the errors, the quarantine and the deadline's outcome are
 * the same; state that changed is persisted, state written back unchanged is not written again.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ManualClock } from '../../../src/core/clock.js';
import type { Decimal } from '../../../src/core/decimal.js';
import { InlineExecutor } from '../../../src/engine/sandbox-worker/executor.js';
import type { RiskSnapshot } from '../../../src/engine/risk-gate.js';
import { StrategyRunner, type OrderPort } from '../../../src/engine/strategy-runner.js';
import { silentLogger } from '../../../src/observability/logger.js';
import type { JsonValue, LoadedStrategy, SnapshotData } from '../../../src/strategy-api/host.js';
import { defineStrategy, intents, type HookResult, type StrategyContext } from '../../../src/strategy-api/index.js';
import { MemoryState, price, snapshot } from '../../support/daemon-ctx.js';
import { PromiseOnly } from '../../support/promise-only-executor.js';
import { RecordingEvents } from '../../support/runner-events.js';
import { riskSnapshot } from '../../support/risk-snapshot.js';


/** What a tick's hook does: picked per tick by the sequence. */
type Move = 'same' | 'change' | 'place' | 'garbage' | 'throw' | 'late' | 'hang' | 'delete';
const MOVES: Move[] = ['same', 'change', 'place', 'garbage', 'throw', 'late', 'hang', 'delete'];

function onTick(moves: Move[]): (ctx: StrategyContext<unknown>) => HookResult | Promise<HookResult> {
  let i = 0;
  return (ctx) => {
    const move = moves[i++] ?? 'same';
    const seen = ctx.state.get('n');
    const n = typeof seen === 'number' ? seen : 0;
    if (move === 'same') ctx.state.set('n', n);
    if (move === 'change') ctx.state.set('n', n + 1);
    if (move === 'delete') ctx.state.delete('n');
    if (move === 'place') return [intents.placeLimits([{ market: 'BTC_USDT', side: 'buy', amount: '0.0015', price: `${100 + n}.004` }])];
    if (move === 'garbage') return [{ type: 'nonsense' } as never];
    if (move === 'throw') throw new Error(`boom ${n}`);
    if (move === 'late') return Promise.resolve([intents.cancelAll('BTC_USDT')]);
    if (move === 'hang') return new Promise<never>(() => undefined);
    return [];
  };
}

/** A backend that knows what it holds (as the store does) and counts the writes that reach it. */
class CountingState extends MemoryState {
  writes: string[] = [];
  holds(key: string, json: string | null): boolean {
    return json === null ? !this.data.has(key) : this.data.has(key) && JSON.stringify(this.data.get(key)) === json;
  }
  override set(key: string, value: JsonValue): void {
    this.writes.push(`${key}=${JSON.stringify(value)}`);
    super.set(key, value);
  }
  override delete(key: string): void {
    this.writes.push(`-${key}`);
    super.delete(key);
  }
}

function risk(): RiskSnapshot {
  return riskSnapshot('s', 0);
}

function runnerOf(moves: Move[], atOnce: boolean) {
  const clock = new ManualClock();
  const state = new CountingState();
  const events = new RecordingEvents();
  const sent: string[] = [];
  const orders = {
    placeLimitOrders: async (_s: string, specs: readonly { side: string; amount: Decimal; price: Decimal }[]) => {
      sent.push(...specs.map((o) => `${o.side} ${o.amount.toFixed()}@${o.price.toFixed()}`));
      return specs.map((_, i) => ({ status: 'placed' as const, clientOrderId: `c${i}`, orderId: i, state: 'OPEN' as const }));
    },
    cancelAll: async (_s: string, market?: string) => (sent.push(`cancelAll ${market ?? ''}`), []),
  } as unknown as OrderPort;
  const definition = defineStrategy({ name: 't', params: z.object({}), schedule: '* * * * * *', onTick: onTick(moves) });
  const strategy: LoadedStrategy = { id: 's', module: 't', params: {}, schedule: '* * * * * *', definition: definition as NonNullable<LoadedStrategy['definition']> };
  const inline = new InlineExecutor(strategy, silentLogger());
  const data = (): SnapshotData => snapshot({ nowMs: clock.now(), prices: { BTC_USDT: price('BTC_USDT', '100') } });
  const runner = new StrategyRunner({
    strategy,
    executor: atOnce ? inline : new PromiseOnly(inline),
    clock,
    logger: silentLogger(),
    orders,
    snapshot: atOnce ? data : async () => data(),
    risk,
    onDrawdown: () => undefined,
    state,
    accepting: () => true,
    events,
    deadlineMs: 1_000,
    errorBudget: 4,
    errorWindowMs: 10_000,
  });
  return { runner, clock, state, events, sent };
}

/** Runs the ticks one after the other; a hanging one is taken past its deadline on the clock. */
async function play(moves: Move[], atOnce: boolean) {
  const h = runnerOf(moves, atOnce);
  for (const move of moves) {
    const tick = h.runner.tick();
    if (move === 'hang' && !h.runner.quarantined) {
      for (let i = 0; i < 50 && h.clock.pendingCount === 0; i++) await Promise.resolve();
      h.clock.advance(1_000);
    }
    await tick;
    h.clock.advance(2_500);
  }
  return { state: h.state.get('n'), writes: h.state.writes, errors: h.events.errors, quarantines: h.events.quarantines, sent: h.sent };
}

describe('StrategyRunner: a call answered at once', () => {
  it('gives what the promise path gives on random sequences of ticks', async () => {
    let seed = 11;
    const rand = (n: number): number => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed % n;
    };
    for (let run = 0; run < 40; run++) {
      const moves = Array.from({ length: 25 }, () => MOVES[rand(MOVES.length)] as Move);
      const viaPromises = await play(moves, false);
      const atOnce = await play(moves, true);
      expect(atOnce, moves.join(',')).toEqual(viaPromises);
    }
  });

  it('persists state that changed and does not write back state unchanged', async () => {
    const out = await play(['change', 'same', 'same', 'change', 'place', 'same', 'delete', 'delete', 'change'], true);
    expect(out.writes).toEqual(['n=1', 'n=2', '-n', 'n=1']);
    expect(out.state).toBe(1);
    expect(out.sent).toEqual(['buy 0.001@102']);
  });

  it('abandons a hook that answers with a promise never settled, at its deadline', async () => {
    const out = await play(['hang', 'change'], true);
    expect(out.errors).toEqual(['STRATEGY_DEADLINE']);
    expect(out.state).toBe(1);
  });
});
