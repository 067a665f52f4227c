/**
 * The launcher (bin/v4-bot.js) on a small copied tree, never the real dist/: it refuses a missing
 * or stale dist/ with the reason and `npm run build`, exit 2, without running anything; a current
 * one runs the built command with its arguments. A source only touched since a successful build
 * (the build stamp is newer) is not stale.
 */
import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../support/temp-dir.js';

const ROOT = path.resolve(import.meta.dirname, '../../..');

/**
 * A package with src/cli/status.ts and strategies/s.ts, their built files 50 s old and the
 * sources 100 s old: every time is set, so a test that touches a source "now" is newer than its
 * built file by far more than the file system's timestamp resolution.
 */
function tree(): string {
  const root = tempDir('v4bot-launcher-');
  mkdirSync(path.join(root, 'bin'));
  for (const f of ['v4-bot.js', 'build-check.js']) copyFileSync(path.join(ROOT, 'bin', f), path.join(root, 'bin', f));
  const files: Record<string, string> = {
    'package.json': '{ "type": "module" }\n',
    'src/cli/status.ts': 'export {};\n',
    'strategies/s.ts': 'export {};\n',
    'dist/src/cli/status.js': "process.stdout.write(`built status ran with ${JSON.stringify(process.argv.slice(2))}\\n`);\n",
    'dist/strategies/s.js': 'export {};\n',
  };
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    writeFileSync(path.join(root, rel), text);
  }
  age(root, 'src/cli/status.ts', 100);
  age(root, 'strategies/s.ts', 100);
  age(root, 'dist/src/cli/status.js', 50);
  age(root, 'dist/strategies/s.js', 50);
  return root;
}

/** Sets a file's times to `secondsAgo` in the past. */
function age(root: string, rel: string, secondsAgo: number): void {
  const t = new Date(Date.now() - secondsAgo * 1000);
  utimesSync(path.join(root, rel), t, t);
}

function run(root: string, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [path.join(root, 'bin/v4-bot.js'), ...args], { cwd: root }, (err, stdout, stderr) => {
      resolve({ code: err === null ? 0 : ((err as { code?: number }).code ?? -1), stdout, stderr });
    });
  });
}

describe('bin/v4-bot.js on a copied tree', () => {
  it('runs the built command with its arguments when dist/ is current', async () => {
    const root = tree();
    expect(await run(root, 'status', '--json', '--data-dir', 'x')).toEqual({ code: 0, stdout: 'built status ran with ["--json","--data-dir","x"]\n', stderr: '' });
  });

  it('dist/ missing: says so and what to run, exit 2', async () => {
    const root = tree();
    rmSync(path.join(root, 'dist'), { recursive: true });
    const r = await run(root, 'status');
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('v4-bot: dist/ is missing');
    expect(r.stderr).toContain('Run `npm run build`');
  });

  it('a source newer than its built file: names it, exit 2, the built command does not run', async () => {
    const root = tree();
    age(root, 'strategies/s.ts', 0);
    const r = await run(root, 'status');
    expect(r).toMatchObject({ code: 2, stdout: '' });
    expect(r.stderr).toContain(`dist/ is out of date: ${path.join('strategies', 's.ts')} changed after the last build`);
    expect(r.stderr).toContain('Run `npm run build`');
  });

  it('a source with no built file: exit 2', async () => {
    const root = tree();
    writeFileSync(path.join(root, 'src/cli/new.ts'), 'export {};\n');
    age(root, 'src/cli/new.ts', 200);
    const r = await run(root, 'status');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${path.join('src', 'cli', 'new.ts')} has no built file`);
  });

  it('a source touched before the last build (build stamp newer) is current', async () => {
    const root = tree();
    age(root, 'src/cli/status.ts', 10);
    age(root, 'dist/src/cli/status.js', 50);
    expect((await run(root, 'status')).code).toBe(2);
    await new Promise<void>((resolve, reject) => execFile(process.execPath, [path.join(root, 'bin/build-check.js'), '--stamp'], (err) => (err === null ? resolve() : reject(err))));
    expect(await run(root, 'status')).toMatchObject({ code: 0, stdout: 'built status ran with []\n' });
  });
});
