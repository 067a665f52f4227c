import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { eventually } from '../../support/eventually.js';
import { tempDir } from '../../support/temp-dir.js';

const CHILD = path.join(import.meta.dirname, 'study-child.ts');

function recordedKeys(dir: string): string[] {
  const db = new Database(path.join(dir, 'study.sqlite'), { readonly: true });
  try {
    return (db.prepare('SELECT key FROM trials').all() as { key: string }[]).map((r) => r.key);
  } finally {
    db.close();
  }
}

function runToEnd(dir: string, run: string): void {
  const out = spawnSync(process.execPath, ['--import', 'tsx', CHILD], { env: { ...process.env, STUDY_DIR: dir, RUN: run }, encoding: 'utf8' });
  expect(out.stderr).toBe('');
  expect(out.status).toBe(0);
}

function lines(file: string): string[] {
  return existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter((l) => l !== '') : [];
}

describe('a study killed mid-way', () => {
  it('keeps its finished trials, does not run them again, and ends as an uninterrupted study', async () => {
    const dir = tempDir('opt-kill-');
    const child = spawn(process.execPath, ['--import', 'tsx', CHILD], { env: { ...process.env, STUDY_DIR: dir, RUN: 'killed', HANG_AFTER: '5' }, stdio: 'ignore' });
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)));
    await eventually(() => existsSync(path.join(dir, 'study.sqlite')) && recordedKeys(dir).length === 5, 'five trials recorded', { timeoutMs: 30_000, everyMs: 100 });
    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');
    const before = recordedKeys(dir);
    expect(before).toHaveLength(5);

    runToEnd(dir, 'resumed');
    const rerun = lines(path.join(dir, 'ran-resumed.log'));
    expect(rerun).toHaveLength(7);
    expect(rerun.filter((k) => before.includes(k))).toEqual([]);
    expect(recordedKeys(dir)).toHaveLength(12);

    const whole = tempDir('opt-whole-');
    runToEnd(whole, 'whole');
    expect(JSON.parse(readFileSync(path.join(dir, 'result-resumed.json'), 'utf8'))).toEqual(JSON.parse(readFileSync(path.join(whole, 'result-whole.json'), 'utf8')));
  });
});
