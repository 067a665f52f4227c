/**
 * Test-scoped resources: open something inside a test and have it closed when that test
 * finishes (pass or fail), without a file-level `let` and an `afterEach` to close it.
 *
 *   const { sim, clock } = await useStack({ accounts: [...] });   // inside it()
 *   const store = closeAfterTest(openStore({ dataDir: tempDir(), clock, logger }));
 *
 * Closing runs in reverse order of opening, after the file's own afterEach hooks.
 */
import { onTestFinished } from 'vitest';
import type { SimulatorOptions } from '../../src/simulator/index.js';
import { startStack, type Stack } from './engine-stack.js';

/** Closes `resource` when the current test finishes; returns it. Call inside a test or beforeEach. */
export function closeAfterTest<T extends { close(): unknown }>(resource: T): T {
  onTestFinished(async () => {
    await resource.close();
  });
  return resource;
}

/** The simulator and its clock for the current test (`startStack`), closed when the test finishes. */
export async function useStack(options: SimulatorOptions = {}): Promise<Stack> {
  return closeAfterTest(await startStack(options));
}
