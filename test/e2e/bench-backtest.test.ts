/**
 * `npm run bench -- backtest` over short spans of the shipped sample: it prints its table (the
 * three paths, the floor and the goal) and leaves nothing in the temp dir, where each year's run
 * would otherwise leave about 100 MB of result files. Figures are not checked: tests do not time.
 */
import { execFile } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../support/daemon-process.js';
import { tempDir } from '../support/temp-dir.js';

const TSX = path.join(ROOT, 'node_modules/.bin/tsx');

describe('npm run bench -- backtest', () => {
  it('prints every path beside the floor and removes its outputs when it ends', async () => {
    const tmp = tempDir('v4bot-bench-tmp-');
    const env = {
      ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(BOT_|API_|ENV_FILE|LOG_LEVEL|BENCH_)/.test(k))),
      TMPDIR: tmp,
      BENCH_BACKTEST_FILE: 'samples/prices',
      BENCH_BACKTEST_DAYS: '0.05',
      BENCH_BACKTEST_CANDLES_DAYS: '1',
      BENCH_BACKTEST_WIRE_HOURS: '0.5',
    };
    const stdout = await new Promise<string>((resolve, reject) => {
      execFile(TSX, ['test/bench/run.ts', 'backtest'], { cwd: ROOT, env, timeout: 300_000 }, (err, out, errText) => {
        if (err !== null) reject(new Error(`the bench failed: ${errText.slice(-600)}`));
        else resolve(out);
      });
    });
    for (const row of ['in process (strategies in the thread)', 'candles example (config/candles.json, ema-cross)', 'wire (--venue http, workers)']) {
      expect(stdout).toContain(row);
    }
    expect(stdout).toMatch(/^floor: \d+ candles in [\d.]+ s/m);
    expect(stdout).toMatch(/^goal: a year of one-minute candles in at most 60 s/m);
    // tsx keeps its compile cache in the temp dir (`tsx-<uid>`); nothing of the bench's is left.
    expect(readdirSync(tmp).filter((d) => d.startsWith('v4bot-'))).toEqual([]);
  }, 300_000);
});
