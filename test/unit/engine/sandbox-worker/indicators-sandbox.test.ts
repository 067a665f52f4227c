/**
 * Indicators inside the sandbox (docs/strategies.md § Indicators): the library runs in the
 * strategy's worker, its wrappers are hardened (a strategy cannot change them or reach the host
 * through them), an indicator kept in module-level state lives as long as the worker, and a new
 * worker (after a deadline) rebuilds it from the history kept in `ctx.state` to the same value.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { Decimal } from '../../../../src/core/decimal.js';
import { WorkerExecutor } from '../../../../src/engine/sandbox-worker/worker-executor.js';
import { silentLogger } from '../../../../src/observability/logger.js';
import { BufferedState, type JsonValue } from '../../../../src/strategy-api/host.js';
import { indicators } from '../../../../src/strategy-api/index.js';
import { MemoryState, price, snapshot } from '../../../support/daemon-ctx.js';

const file = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures/indicator-probe.ts');

class EntriesState extends MemoryState {
  entries(): Record<string, JsonValue> {
    return Object.fromEntries(this.data);
  }
}

const executors: WorkerExecutor[] = [];
afterEach(async () => {
  for (const e of executors.splice(0)) await e.close();
});

function start(state: EntriesState): WorkerExecutor {
  const e = new WorkerExecutor({ file, instanceId: 'ind', params: { market: 'BTC_USDT' }, knownMarkets: ['BTC_USDT'], stateEntries: () => state.entries(), logger: silentLogger() });
  executors.push(e);
  return e;
}

async function tick(e: WorkerExecutor, state: EntriesState, last: string): Promise<void> {
  await e.prepare();
  const buffered = new BufferedState(state);
  await e.run({ hook: 'onTick', data: snapshot({ prices: { BTC_USDT: price('BTC_USDT', last) } }), state: buffered });
  buffered.commit();
}

const closes = ['100', '101.5', '99.25', '102', '103.75', '101'];

describe('indicators in the sandbox', () => {
  it("the library's exports are hardened: replacing the namespace, a factory's property or a method fails, and the constructor trick throws", async () => {
    const state = new EntriesState();
    const e = start(state);
    await tick(e, state, '100');
    expect(state.get('attacks')).toEqual({
      namespace: 'refused: TypeError',
      factory: 'refused: TypeError',
      prototype: 'refused: TypeError',
      constructorTrick: 'refused: TypeError',
    });
  });

  it('an EMA kept across ticks in the worker equals the one-shot EMA, and a new worker rebuilds it from ctx.state to the same value', async () => {
    const state = new EntriesState();
    const e = start(state);
    for (const c of closes.slice(0, 4)) await tick(e, state, c);
    expect(state.get('builds')).toBe(1);
    expect(state.get('builtFrom')).toBe(0);
    const reference = (n: number): string | undefined => indicators.ema(3).over(closes.slice(0, n).map((c) => new Decimal(c)))?.toFixed();
    expect(state.get('ema')).toBe(reference(4));
    // What a missed deadline does: the worker is terminated; the next call starts a fresh one.
    e.abandon();
    expect(e.running).toBe(false);
    for (const c of closes.slice(4)) await tick(e, state, c);
    // The new worker's module state started empty (one build in it), from the 4 closes kept.
    expect(state.get('builds')).toBe(1);
    expect(state.get('builtFrom')).toBe(4);
    expect(state.get('ema')).toBe(reference(6));
    expect(state.get('closes')).toEqual(closes);
  });
});
