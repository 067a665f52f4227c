/**
 * Strategies in the backtest's own thread (src/engine/sandbox-worker/sandbox-thread-executor.ts)
 * are evaluated by the sandbox's Compartment: a module reaching for `Function` to get at
 * `process.env` fails its hook, while the host thread keeps the `Function` its own libraries
 * need (put back after lockdown, as the backtest's wiring does), and `eval` stays gone.
 */
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BufferedState } from '../../../src/strategy-api/host.js';
import { MemoryState, snapshot } from '../../support/daemon-ctx.js';
import { compileStrategy } from '../../../src/strategy-api/sandbox/transform.js';
import { SandboxThreadExecutor } from '../../../src/engine/sandbox-worker/sandbox-thread-executor.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const file = path.join(here, '../engine/sandbox-worker/fixtures/hostile/function.ts');
const HOST_FUNCTION = Function;
const silent = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };

describe('strategies in the run\'s thread', () => {
  it('refuses code from strings inside the compartment, and the host keeps Function but not eval', async () => {
    const compiled = compileStrategy(file);
    if (!compiled.ok) throw new Error(compiled.message);
    const init = { file, fileUrl: pathToFileURL(file).href, program: compiled.program, instanceId: 'f1', params: { port: 1 }, knownMarkets: ['BTC_USDT'] };
    const executor = new SandboxThreadExecutor(init, silent, () => {
      (globalThis as { Function?: unknown }).Function = HOST_FUNCTION;
    });
    await executor.prepare();
    const data = snapshot({ prices: {} });
    const state = new BufferedState(new MemoryState());
    await expect(executor.run({ hook: 'onTick', data, state })).rejects.toThrow(/Function|not a constructor|not a function/);
    expect(typeof Function).toBe('function');
    expect(new Function('return 2')()).toBe(2);
    expect((globalThis as { eval?: unknown }).eval).toBeUndefined();
    expect(Object.isFrozen(Array.prototype)).toBe(true);
  });
});
