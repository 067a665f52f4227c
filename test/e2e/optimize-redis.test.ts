/**
 * `v4-bot optimize --redis URL` with an `optimize worker` (both the built CLI through the
 * launcher) over a real redis-server: the study's trials run on the worker and the result equals
 * the same study run locally.
 */
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import type { StudyResult } from '../../src/optimize/types.js';
import { ROOT } from '../support/daemon-process.js';
import { RedisServer, redisAvailable } from '../support/redis-server.js';
import { closeAfterTest } from '../support/test-scope.js';
import { tempDir } from '../support/temp-dir.js';

const ENV = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(BOT_|API_|ENV_FILE|LOG_LEVEL)/.test(k)));

function optimize(args: readonly string[]): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, [path.join(ROOT, 'bin/v4-bot.js'), 'optimize', ...args], { cwd: ROOT, env: ENV, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stderr })));
}

function startWorker(url: string): void {
  const child = spawn(process.execPath, [path.join(ROOT, 'bin/v4-bot.js'), 'optimize', 'worker', '--redis', url, '--concurrency', '1'], { cwd: ROOT, env: ENV, stdio: 'ignore' });
  onTestFinished(async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  });
}

function withoutName(result: StudyResult): Omit<StudyResult, 'study'> {
  const { study: _name, ...rest } = result;
  return rest;
}

describe.skipIf(!redisAvailable())('v4-bot optimize over Redis (built CLI)', () => {
  it('runs the trials on a worker and gives the result of a local run', async () => {
    const redis = closeAfterTest(await RedisServer.start());
    startWorker(redis.url);
    const [remote, local] = [tempDir('opt-redis-'), tempDir('opt-local-')];
    const space = path.join(remote, 'space.json');
    writeFileSync(space, JSON.stringify({ strategy: 'grid1', params: { levels: { values: [2] }, spacingPct: { values: ['0.1', '0.3'] } } }));
    const common = ['--prices', 'samples/prices', '--space', space, '--objective', 'net', '--to', '2024-01-01T01:00:00Z'];
    const overRedis = await optimize([...common, '--redis', redis.url, '--out', remote]);
    expect(overRedis.stderr).toContain('optimize: 2/2 trials (2 run now');
    expect(overRedis.code).toBe(0);
    expect((await optimize([...common, '--workers', '1', '--out', local])).code).toBe(0);
    const read = (dir: string): StudyResult => JSON.parse(readFileSync(path.join(dir, 'result.json'), 'utf8')) as StudyResult;
    expect(read(remote).trials).toHaveLength(2);
    expect(withoutName(read(remote))).toEqual(withoutName(read(local)));
  });
});
