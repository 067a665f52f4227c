/**
 * Temporary directories for tests: the one way a test gets a scratch directory.
 *
 *   const dir = tempDir('v4bot-store-');   // inside it(), beforeEach() or a function they call
 *
 * The directory is made under the OS temp dir and removed with everything in it when the current
 * test finishes (pass or fail). Called outside a test — at the top of a test file or in a
 * `describe` body — it is kept for every test of that file or suite and removed after the last
 * one, for files whose tests share a directory. Do not call it from `beforeAll`: vitest drops
 * hooks registered while a hook runs, so such a directory would never be removed; make it at
 * suite level instead.
 *
 * Use this instead of `mkdtempSync` in test files. Scripts that run outside vitest (benches, the
 * chaos runner, child processes) manage their own directories.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, onTestFinished, TestRunner } from 'vitest';

export function tempDir(prefix = 'v4bot-'): string {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  const remove = (): void => rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
  if (TestRunner.getCurrentTest() !== undefined) onTestFinished(remove);
  else afterAll(remove);
  return dir;
}
