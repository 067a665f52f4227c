/**
 * Strategies in the backtest's own thread (src/engine/sandbox-worker/sandbox-thread-executor.ts)
 * are evaluated by the sandbox's Compartment: a module reaching for `Function` to get at
 * `process.env` fails its hook, while the host thread keeps the `Function` its own libraries
 * need (put back after lockdown, as the backtest's wiring does), and `eval` stays gone. Every
 * hook a strategy can define runs there as in the worker, `onOrder` included.
 */
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BufferedState } from '../../../src/strategy-api/host.js';
import { MemoryState, snapshot } from '../../support/daemon-ctx.js';
import { compileStrategy } from '../../../src/strategy-api/sandbox/transform.js';
import { SandboxThreadExecutor, type HookWatch } from '../../../src/engine/sandbox-worker/sandbox-thread-executor.js';
import { Decimal } from '../../../src/core/decimal.js';
import type { OrderEventView } from '../../../src/strategy-api/index.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const file = path.join(here, '../engine/sandbox-worker/fixtures/hostile/function.ts');
const HOST_FUNCTION = Function;
const recorder = path.join(here, '../../integration/engine/fixtures/order-recorder.ts');
const silent = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };

/** A prepared in-thread executor of the module `at`, the host's `Function` put back after each evaluation (as the backtest's wiring does). */
async function threadExecutor(at: string, instanceId: string, params: object, watch?: HookWatch): Promise<SandboxThreadExecutor> {
  const compiled = compileStrategy(at);
  if (!compiled.ok) throw new Error(compiled.message);
  const init = { file: at, fileUrl: pathToFileURL(at).href, program: compiled.program, instanceId, params, knownMarkets: ['BTC_USDT'] };
  const restore = (): void => {
    (globalThis as { Function?: unknown }).Function = HOST_FUNCTION;
  };
  const executor = new SandboxThreadExecutor(init, silent, restore, watch);
  await executor.prepare();
  return executor;
}

describe('strategies in the run\'s thread', () => {
  it('refuses code from strings inside the compartment, and the host keeps Function but not eval', async () => {
    const executor = await threadExecutor(file, 'f1', { port: 1 });
    const data = snapshot({ prices: {} });
    const state = new BufferedState(new MemoryState());
    await expect(executor.run({ hook: 'onTick', data, state })).rejects.toThrow(/Function|not a constructor|not a function/);
    expect(typeof Function).toBe('function');
    expect(new Function('return 2')()).toBe(2);
    expect((globalThis as { eval?: unknown }).eval).toBeUndefined();
    expect(Object.isFrozen(Array.prototype)).toBe(true);
  });

  it('runs onOrder with its event, as the worker does', async () => {
    const executor = await threadExecutor(recorder, 'o1', {});
    const backend = new MemoryState();
    const state = new BufferedState(backend);
    const order: OrderEventView = {
      ...{ clientOrderId: 'o1-1', market: 'BTC_USDT', side: 'buy', state: 'FILLED', reason: 'fills', venue: null, atMs: 1_700_000_000_000 },
      ...{ price: new Decimal('60000.5'), amount: new Decimal('0.01'), filled: new Decimal('0.01') },
    };
    await expect(executor.run({ hook: 'onOrder', data: snapshot({ prices: {} }), state, order })).resolves.toEqual([]);
    state.commit();
    expect(backend.get('events')).toEqual([
      { clientOrderId: 'o1-1', market: 'BTC_USDT', side: 'buy', state: 'FILLED', reason: 'fills', venue: null, price: '60000.5', amount: '0.01', filled: '0.01', decimals: true },
    ]);
  });

  it('tells its watch when each call begins and ends, a call that throws too (what bounds a hook from outside the thread)', async () => {
    const seen: string[] = [];
    const watch: HookWatch = { enter: (id, hook) => seen.push(`enter ${id} ${hook}`), leave: () => seen.push('leave') };
    const thrower = await threadExecutor(path.join(here, '../engine/sandbox-worker/fixtures/thrower.ts'), 'f2', {}, watch);
    const calm = await threadExecutor(recorder, 'o2', {}, watch);
    const data = snapshot({ prices: {} });
    expect(() => thrower.runNow({ hook: 'onTick', data, state: new BufferedState(new MemoryState()) })).toThrow('boom in the strategy');
    expect(calm.runNow({ hook: 'onTick', data, state: new BufferedState(new MemoryState()) })).toEqual([]);
    expect(seen).toEqual(['enter f2 onTick', 'leave', 'enter o2 onTick', 'leave']);
  });

  it("hands the engine the hook's answer as plain data, as a worker does: Decimals as decimal strings, an async answer too", async () => {
    const executor = await threadExecutor(path.join(here, '../engine/sandbox-worker/fixtures/decimal-answer.ts'), 'd1', {});
    const state = new BufferedState(new MemoryState());
    const data = snapshot({ prices: { BTC_USDT: { ticker: 'BTC_USDT', base: 'BTC', quote: 'USDT', last: new Decimal('60000.5'), bid: new Decimal('60000'), ask: new Decimal('60001') } } });
    expect(executor.runNow({ hook: 'onTick', data, state })).toEqual([
      { type: 'placeLimits', orders: [{ market: 'BTC_USDT', side: 'buy', amount: '0.001', price: '60000.5' }, { market: 'BTC_USDT', side: 'sell', amount: '0.002', price: '120001' }] },
    ]);
    const fill = { dealId: 1, clientOrderId: 'd1-00001', market: 'BTC_USDT', side: 'buy' as const, role: 'maker' as const, amount: new Decimal('0.001'), price: new Decimal('60000'), quote: new Decimal('60'), fee: new Decimal('0.06'), timeMs: 1 };
    await expect(executor.runNow({ hook: 'onFill', data, state, fill }) as Promise<unknown>).resolves.toEqual([{ type: 'cancel', clientOrderId: 'd1-00001' }]);
  });
});
