/**
 * Test-scoped resources: open something inside a test and have it closed when that test
 * finishes (pass or fail), without a file-level `let` and an `afterEach` to close it.
 *
 *   const { sim, clock } = await useStack({ accounts: [...] });   // inside it()
 *   const store = closeAfterTest(openStore({ dataDir: tempDir(), clock, logger }));
 *   const scratch = memoryStore({ clock });                        // a store that is never on disk
 *
 * Closing runs in reverse order of opening, after the file's own afterEach hooks.
 */
import { onTestFinished } from 'vitest';
import { ManualClock, type Clock } from '../../src/core/clock.js';
import { silentLogger } from '../../src/observability/logger.js';
import type { SimulatorOptions } from '../../src/simulator/index.js';
import { openStore, type Store } from '../../src/store/index.js';
import type { Stack } from './engine-stack.js';
import { tempDir } from './temp-dir.js';

/** Closes `resource` when the current test finishes; returns it. Call inside a test or beforeEach. */
export function closeAfterTest<T extends { close(): unknown }>(resource: T): T {
  onTestFinished(async () => {
    await resource.close();
  });
  return resource;
}

/** The simulator and its clock for the current test (`startStack`), closed when the test finishes. */
export async function useStack(options: SimulatorOptions = {}): Promise<Stack> {
  // Loaded here, not at the top: a store-only test importing this file does not load the simulator.
  const { startStack } = await import('./engine-stack.js');
  return closeAfterTest(await startStack(options));
}

export interface MemoryStoreOptions {
  /** The store's clock (strategy state times, the open candle); a ManualClock at 0 unless given. */
  clock?: Clock;
  /** Never made or written by a memory store; given only by a test that checks exactly that. */
  dataDir?: string;
}

/**
 * A store in memory (`durability: 'memory'`: same migrations and transactions as the file, nothing
 * on disk) with a silent logger, closed when the current test finishes. Called inside a property,
 * each run's store stays open (about half a MB) until the test ends.
 */
export function memoryStore(options: MemoryStoreOptions = {}): Store {
  const { clock = new ManualClock(0), dataDir = tempDir('v4bot-memory-store-') } = options;
  return closeAfterTest(openStore({ dataDir, clock, logger: silentLogger(), durability: 'memory' }));
}
