/**
 * What the strategy sandbox (docs/sandbox.md) adds per hook: spot-grid's `onTick` on a priced
 * snapshot, called one after another through a `WorkerExecutor`, in the sandboxed worker
 * (lockdown, Compartment, bounded heap) and in the baseline worker that imports the module
 * natively (sandbox-baseline-entry.ts: the worker as it was before). Each figure is the mean
 * round trip of one call (post, hook, intents and state back); the ratio is sandbox / baseline.
 */
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { Decimal } from '../../src/core/decimal.js';
import { WorkerExecutor } from '../../src/engine/sandbox-worker/worker-executor.js';
import { silentLogger } from '../../src/observability/logger.js';
import { BufferedState, workerEntry, type JsonValue, type SnapshotData } from '../../src/strategy-api/host.js';
import { MemoryState, price, snapshot } from '../support/daemon-ctx.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const file = path.resolve(here, '../../strategies/spot-grid.ts');
const params = { market: 'BTC_USDT', levels: 5, spacingPct: '0.5', orderAmount: '0.001' };
const CALLS = 2_000;
const WARM_UP = 200;

function data(i: number): SnapshotData {
  const last = new Decimal(60_000).plus(i % 50);
  return snapshot({ prices: { BTC_USDT: { ...price('BTC_USDT', last.toFixed(), '1'), index: last } } });
}

async function meanUs(executor: WorkerExecutor, state: MemoryState): Promise<number> {
  await executor.prepare();
  const call = (i: number): Promise<unknown> => executor.run({ hook: 'onTick', data: data(i), state: new BufferedState(state) });
  for (let i = 0; i < WARM_UP; i++) await call(i);
  const start = performance.now();
  for (let i = 0; i < CALLS; i++) await call(i);
  return ((performance.now() - start) * 1000) / CALLS;
}

async function measure(sandboxed: boolean): Promise<number> {
  const state = new MemoryState();
  const entries = (): Record<string, JsonValue> => Object.fromEntries(state.data);
  const base = { file, instanceId: 'bench', params, knownMarkets: ['BTC_USDT'], stateEntries: entries, logger: silentLogger() };
  const executor = new WorkerExecutor(sandboxed ? base : { ...base, entry: workerEntry(import.meta.url, 'sandbox-baseline-entry') });
  try {
    return await meanUs(executor, state);
  } finally {
    await executor.close();
  }
}

export default async function bench(): Promise<void> {
  const baseline = await measure(false);
  const sandboxed = await measure(true);
  console.log(`spot-grid onTick, ${CALLS} calls one after another (mean round trip per hook call):`);
  console.log('| worker | µs per hook | ratio |');
  console.log('| --- | ---: | ---: |');
  console.log(`| baseline (module imported natively, no sandbox) | ${baseline.toFixed(1)} | 1.00 |`);
  console.log(`| sandbox (lockdown + Compartment, bounded heap) | ${sandboxed.toFixed(1)} | ${(sandboxed / baseline).toFixed(2)} |`);
}
