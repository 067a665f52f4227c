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
 * suite level instead. In a concurrent test (`it.concurrent`), pass the test's context
 * (`tempDir(prefix, context)`): vitest cannot tell which of the running tests a call belongs to.
 *
 * Use this instead of `mkdtempSync` in test files. Scripts that run outside vitest (benches, the
 * chaos runner, child processes) manage their own directories.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, onTestFinished, TestRunner, type TestContext } from 'vitest';

export function tempDir(prefix = 'v4bot-', context?: Pick<TestContext, 'onTestFinished'>): string {
  const test = TestRunner.getCurrentTest();
  if (context === undefined && test?.concurrent === true) {
    throw new Error(`tempDir('${prefix}') in the concurrent test "${test.name}": pass the test's context, tempDir(prefix, context)`);
  }
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  const remove = (): void => rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
  if (context !== undefined) context.onTestFinished(remove);
  else if (test !== undefined) onTestFinished(remove);
  else afterAll(remove);
  return dir;
}
