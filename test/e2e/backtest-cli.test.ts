/**
 * `node dist/src/cli/backtest.js` on the shipped sample prices and the default config: the live
 * engine trades (orders and fills > 0), the fills in result.json are exactly the simulator's own
 * deals (venue-fills.json, the venue's truth), two runs write byte-identical files, and a bad
 * price file or flag exits 2 with file, line and column and no stack; a run stopped with Ctrl-C
 * leaves no store behind in the temp dir.
 */
import { execFile, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { TruthFill } from '../../src/backtest/collect.js';
import type { BacktestResult } from '../../src/backtest/result.js';
import { ROOT } from '../support/daemon-process.js';
import { eventually } from '../support/eventually.js';
import { tempDir } from '../support/temp-dir.js';

const CLI = path.join(ROOT, 'dist/src/cli/backtest.js');
const SPAN = ['--from', '2024-01-01T00:00:00Z', '--to', '2024-01-01T00:30:00Z'];

function run(args: string[]): Promise<{ code: number; stderr: string }> {
  return new Promise((resolve) => {
    const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(BOT_|API_|ENV_FILE|LOG_LEVEL)/.test(k)));
    execFile(process.execPath, [CLI, ...args], { cwd: ROOT, env, timeout: 600_000 }, (err, _stdout, stderr) => {
      resolve({ code: err === null ? 0 : Number((err as { code?: number }).code ?? 1), stderr });
    });
  });
}

const read = (dir: string, file: string): string => readFileSync(path.join(dir, file), 'utf8');
const key = (f: { timeMs: number; market: string; side: string; price: string; amount: string; fee: string; orderId: string }): string =>
  [f.timeMs, f.market, f.side, f.price, f.amount, f.fee, f.orderId].join('|');

describe('npm run backtest (built CLI)', () => {
  it('trades on the sample data, reports the venue truth, and is byte-identical on a second run', async () => {
    const [a, b] = [tempDir('v4bot-bt-'), tempDir('v4bot-bt-')];
    const first = await run(['--config', 'config/bot.json', '--prices', 'samples/prices', ...SPAN, '--out', a]);
    expect(first.stderr).toMatch(/^backtest 2024-01-01T00:00Z \.\. 2024-01-01T00:30Z: 30 candles in [\d.]+ s, orders \d+, fills \d+, trades \d+, net PnL -?[\d.]+/m);
    // The default config's sub-minute schedules over one-minute candles: one fire per candle, and said so.
    expect(first.stderr).toMatch(/^job resolution step: .*\bgrid1\b.* are scheduled more often than the 60 s candles; fired once per candle/m);
    expect(first.code).toBe(0);
    const result = JSON.parse(read(a, 'result.json')) as BacktestResult;
    expect(result.total.orders).toBeGreaterThan(0);
    expect(result.total.fills).toBeGreaterThan(0);
    expect(result.inputs.prices).toEqual([{ file: 'samples/prices/BTC_USDT.csv', sha256: expect.stringMatching(/^[0-9a-f]{64}$/) as string }]);
    expect(result.inputs.fillModel).toMatchObject({ touch: 'through', stepMs: '60000', jobResolution: 'step' });
    expect(result.inputs.fillModel['finerSchedules']).toContain('grid1');
    // The engine's fills (reconciled from the in-process venue's deals) are the venue's deals.
    const truth = JSON.parse(read(a, 'venue-fills.json')) as TruthFill[];
    expect(result.fills.map(key).sort()).toEqual(truth.map(key).sort());
    expect(result.fills.every((f) => f.strategy !== 'unattributed')).toBe(true);
    expect(Object.values(result.strategies).reduce((n, m) => n + m.fills, 0)).toBe(result.total.fills);
    expect(result.equity.length).toBeGreaterThan(30);
    expect(read(a, 'report.html')).toMatch(/^<!doctype html>/i);

    const second = await run(['--config', 'config/bot.json', '--prices', 'samples/prices', ...SPAN, '--out', b]);
    expect(second.code).toBe(0);
    for (const f of ['result.json', 'report.html', 'venue-fills.json']) expect(readFileSync(path.join(b, f)).equals(readFileSync(path.join(a, f)))).toBe(true);
  }, 600_000);

  it('--job-resolution cron (exact schedules) over --venue http: still the venue truth, recorded in the inputs, byte-identical on a second run', async () => {
    const [a, b] = [tempDir('v4bot-bt-cron-'), tempDir('v4bot-bt-cron-')];
    const args = ['--config', 'config/bot.json', '--prices', 'samples/prices', ...SPAN, '--job-resolution', 'cron', '--venue', 'http', '--out'];
    const first = await run([...args, a]);
    expect(first.code).toBe(0);
    expect(first.stderr).toMatch(/^job resolution cron: .*\bgrid1\b.* fired at every cron time/m);
    const result = JSON.parse(read(a, 'result.json')) as BacktestResult;
    expect(result.inputs.fillModel).toMatchObject({ jobResolution: 'cron' });
    expect(result.total.orders).toBeGreaterThan(0);
    const truth = JSON.parse(read(a, 'venue-fills.json')) as TruthFill[];
    expect(result.fills.map(key).sort()).toEqual(truth.map(key).sort());
    expect((await run([...args, b])).code).toBe(0);
    for (const f of ['result.json', 'report.html', 'venue-fills.json']) expect(readFileSync(path.join(b, f)).equals(readFileSync(path.join(a, f)))).toBe(true);
  }, 600_000);

  it('a bad price file exits 2 naming file, line and column, without a stack', async () => {
    const dir = tempDir('v4bot-bt-bad-');
    writeFileSync(path.join(dir, 'BTC_USDT.csv'), 'time,price\n2024-01-01T00:00:00Z,60000\n2024-01-01T00:01:00Z,6O000\n');
    const r = await run(['--prices', dir, '--out', tempDir()]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`v4-bot backtest: ${path.join(dir, 'BTC_USDT.csv')}:3:2: price: expected a decimal > 0, found "6O000"\n`);
  });

  it('a bad strategy and a bad price file: the strategy is named (prices are read while strategies load)', async () => {
    const dir = tempDir('v4bot-bt-both-');
    writeFileSync(path.join(dir, 'BTC_USDT.csv'), 'time,price\n2024-01-01T00:00:00Z,6O000\n');
    const config = JSON.parse(read(ROOT, 'config/bot.json')) as { strategies: { params: Record<string, unknown> }[] };
    (config.strategies[0] as { params: Record<string, unknown> }).params['levels'] = -1;
    writeFileSync(path.join(dir, 'bot.json'), JSON.stringify(config));
    const r = await run(['--config', path.join(dir, 'bot.json'), '--prices', dir, '--out', tempDir()]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('v4-bot backtest: invalid configuration:\n  strategies: strategies[0].params.levels: expected an integer ≥ 1 and ≤ 20, found -1\n');
  });

  it('a bad flag exits 2 naming it', async () => {
    const r = await run(['--prices', 'samples/prices', '--fill', 'sometimes']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('v4-bot backtest: command line: --fill: expected "through" or "at", found "sometimes"\n');
    const res = await run(['--prices', 'samples/prices', '--job-resolution', 'second']);
    expect(res.code).toBe(2);
    expect(res.stderr).toBe('v4-bot backtest: command line: --job-resolution: expected "step" or "cron", found "second"\n');
  });

  it('--help lists the flags and runs nothing', async () => {
    const out = await new Promise<string>((resolve) => execFile(process.execPath, [CLI, '--help'], { cwd: ROOT }, (_e, stdout) => resolve(stdout)));
    for (const flag of ['--prices', '--job-resolution', '--venue', 'time,open,high,low,close']) expect(out).toContain(flag);
  });

  it('Ctrl-C ends the run with 130 and removes its store from the temp dir', async () => {
    const tmp = tempDir('v4bot-bt-tmp-');
    const env = { ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(BOT_|API_|ENV_FILE|LOG_LEVEL)/.test(k))), TMPDIR: tmp };
    const child = spawn(process.execPath, [CLI, '--prices', 'samples/prices', '--out', tempDir()], { cwd: ROOT, env, stdio: 'ignore' });
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const stores = (): string[] => readdirSync(tmp).filter((d) => d.startsWith('v4bot-backtest-'));
    // The run's store exists once the run has begun (its database file in a private directory).
    const [dir] = await eventually(() => {
      const found = stores();
      return found.length > 0 && existsSync(path.join(tmp, found[0] as string, 'bot.sqlite')) ? found : undefined;
    }, 'the run\'s store in the temp dir', { timeoutMs: 60_000 });
    expect(dir).toMatch(/^v4bot-backtest-/);
    child.kill('SIGINT');
    expect(await exited).toBe(130);
    expect(stores()).toEqual([]);
  });
});
