/**
 * tempDir: a directory made inside a test is gone once that test has finished; one made at suite
 * level stays for every test of the suite and is gone after its last test.
 */
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../support/temp-dir.js';

describe('a directory made inside a test', () => {
  let made = '';
  it('exists, empty and writable, while the test runs', () => {
    made = tempDir('v4bot-tempdir-');
    expect(path.basename(made)).toMatch(/^v4bot-tempdir-/);
    writeFileSync(path.join(made, 'f'), 'x');
    expect(existsSync(path.join(made, 'f'))).toBe(true);
  });
  it('is removed, contents and all, when that test has finished', () => {
    expect(made).not.toBe('');
    expect(existsSync(made)).toBe(false);
  });
});

let suiteDir = '';
describe('a directory made at suite level', () => {
  const dir = tempDir('v4bot-tempdir-suite-');
  suiteDir = dir;
  it('is there in the first test', () => {
    writeFileSync(path.join(dir, 'kept'), 'x');
    expect(existsSync(dir)).toBe(true);
  });
  it('is still there, with what the first test wrote, in the next test', () => {
    expect(existsSync(path.join(dir, 'kept'))).toBe(true);
  });
});

describe('after the suite', () => {
  it('the suite-level directory is removed', () => {
    expect(suiteDir).not.toBe('');
    expect(existsSync(suiteDir)).toBe(false);
  });
});

let concurrentDir = '';
describe('in concurrent tests', () => {
  it.concurrent('refuses without the test context, since the call cannot be tied to its test', ({ expect }) => {
    expect(() => tempDir('v4bot-tempdir-')).toThrow(/concurrent test .*pass the test's context/);
  });
  it.concurrent('with the context, exists while that test runs', ({ expect, onTestFinished }) => {
    concurrentDir = tempDir('v4bot-tempdir-', { onTestFinished });
    expect(existsSync(concurrentDir)).toBe(true);
  });
});

describe('after the concurrent tests', () => {
  it('the directory made with a context is removed', () => {
    expect(concurrentDir).not.toBe('');
    expect(existsSync(concurrentDir)).toBe(false);
  });
});
