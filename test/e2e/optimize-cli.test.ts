/**
 * `v4-bot optimize` (the built CLI through the launcher) with real trials: a two-point grid of the
 * grid strategy over one sample hour. The study writes result.json and report.html; the same
 * command again runs nothing and writes the same result; other inputs under the same study are
 * refused; Ctrl-C stops cleanly (exit 130) and the next run finishes the rest. Bad flags and a
 * space the strategy's schema refuses exit 2, naming the flag or the param.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import type { StudyResult } from '../../src/optimize/types.js';
import { ROOT } from '../support/daemon-process.js';
import { eventually } from '../support/eventually.js';
import { tempDir } from '../support/temp-dir.js';

const SPAN = ['--to', '2024-01-01T01:00:00Z'];
const SPACE = { strategy: 'grid1', params: { levels: { values: [2] }, spacingPct: { values: ['0.1', '0.3'] } } };

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function start(args: readonly string[]): { child: ReturnType<typeof spawn>; done: Promise<Run> } {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(BOT_|API_|ENV_FILE|LOG_LEVEL)/.test(k)));
  // Its own process group, so a test can send Ctrl-C's SIGINT to the whole group as a terminal does.
  const child = spawn(process.execPath, [path.join(ROOT, 'bin/v4-bot.js'), 'optimize', ...args], { cwd: ROOT, env, detached: true });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const done = new Promise<Run>((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
  return { child, done };
}

const run = (args: readonly string[]): Promise<Run> => start(args).done;

function study(dir: string, space: unknown = SPACE): string[] {
  const file = path.join(dir, 'space.json');
  writeFileSync(file, JSON.stringify(space));
  return ['--prices', 'samples/prices', '--space', file, '--objective', 'net', '--workers', '1', ...SPAN, '--out', dir];
}

function recorded(dir: string, status = "'ok', 'failed'"): number {
  const file = path.join(dir, 'study.sqlite');
  if (!existsSync(file)) return 0;
  const db = new Database(file, { readonly: true });
  try {
    return (db.prepare(`SELECT count(*) AS n FROM trials WHERE status IN (${status})`).get() as { n: number }).n;
  } catch {
    return 0;
  } finally {
    db.close();
  }
}

describe('v4-bot optimize (built CLI)', () => {
  it('--help lists the flags', async () => {
    const help = await run(['--help']);
    expect(help.code).toBe(0);
    for (const flag of ['--prices', '--space', '--objective', '--search', '--trials', '--seed', '--walk-forward', '--train', '--test', '--workers', '--redis', '--study', '--out']) {
      expect(help.stdout).toContain(flag);
    }
  });

  it('hands `worker` to the Redis worker command', async () => {
    const help = await run(['worker', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^usage: npm run optimize -- worker --redis URL/);
    const bad = await run(['worker', '--redis', 'http://host']);
    expect(bad).toMatchObject({ code: 2, stderr: expect.stringContaining('--redis: expected a redis:// or rediss:// URL') as unknown });
  });

  it('refuses a bad flag and a space the strategy schema refuses, exit 2, naming them', async () => {
    const dir = tempDir('opt-cli-bad-');
    const flag = await run([...study(dir), '--search', 'annealing']);
    expect(flag).toMatchObject({ code: 2, stderr: 'v4-bot optimize: command line: --search: expected "grid" or "random", found "annealing"\n' });
    const space = await run(study(dir, { strategy: 'grid1', params: { levels: { values: [2, 40] } } }));
    expect(space.code).toBe(2);
    expect(space.stderr).toMatch(/^v4-bot optimize: space file: param levels: the value 40 is refused by the strategy's schema: expected an integer ≥ 1 and ≤ 20\n$/);
    expect(existsSync(path.join(dir, 'study.sqlite'))).toBe(false);
  });

  it('runs a tiny grid, resumes without re-running, and refuses other inputs under the same study', async () => {
    const dir = tempDir('opt-cli-');
    const first = await run(study(dir));
    expect(first.stderr).toContain('2 param sets, 0 trial(s) already finished');
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/^study opt-cli-\w+: 2 trials, objective net, grid search, seed 42\nbest: levels=2 spacingPct=0\.[13] {2}objective -?[\d.]+ {2}net PnL -?[\d.]+/);
    const result = JSON.parse(readFileSync(path.join(dir, 'result.json'), 'utf8')) as StudyResult;
    expect(result.trials.map((t) => t.params)).toEqual([{ levels: 2, spacingPct: '0.1' }, { levels: 2, spacingPct: '0.3' }]);
    expect(result.trials.every((t) => t.metrics.orders > 0)).toBe(true);
    expect(result.inputs).toMatchObject({ strategy: 'grid1', prices: 'samples/prices', backtestFlags: ['--job-resolution', 'step'] });
    expect(readFileSync(path.join(dir, 'report.html'), 'utf8')).toMatch(/^<!DOCTYPE html>/i);

    const again = await run(study(dir));
    expect(again.code).toBe(0);
    expect(again.stderr).toContain('2 param sets, 2 trial(s) already finished');
    expect(again.stderr).toContain('optimize: 2/2 trials (0 run now');
    expect(JSON.parse(readFileSync(path.join(dir, 'result.json'), 'utf8'))).toEqual(result);

    const other = await run([...study(dir), '--seed', '3']);
    expect(other.code).toBe(2);
    expect(other.stderr).toMatch(/was started with other inputs \(seed differs\)/);
  });

  it('stops cleanly on Ctrl-C, keeping finished trials, and the next run finishes the rest', async () => {
    const dir = tempDir('opt-cli-int-');
    const space = { strategy: 'grid1', params: { levels: { values: [2, 3] }, spacingPct: { values: ['0.1', '0.3'] } } };
    const { child, done } = start(study(dir, space));
    await eventually(() => recorded(dir) >= 1, 'a finished trial', { timeoutMs: 300_000, everyMs: 250 });
    // The terminal's Ctrl-C: SIGINT to the command and its trial runners alike.
    process.kill(-(child.pid as number), 'SIGINT');
    const stopped = await done;
    expect(stopped.code).toBe(130);
    expect(stopped.stderr).toMatch(/interrupted: \d\/4 trials finished and kept in .*study\.sqlite; run the same command to continue/);
    const kept = recorded(dir);
    expect(kept).toBeGreaterThanOrEqual(1);
    expect(kept).toBeLessThan(4);
    // Runners stopped by the same Ctrl-C are not failed trials.
    expect(recorded(dir, "'failed'")).toBe(0);
    const rest = await run(study(dir, space));
    expect(rest.code).toBe(0);
    expect(rest.stderr).toContain(`4 param sets, ${kept} trial(s) already finished`);
    expect(rest.stderr).toContain(`optimize: 4/4 trials (${4 - kept} run now`);
  });
});
