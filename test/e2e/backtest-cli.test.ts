/**
 * `node dist/src/cli/backtest.js` on the shipped sample prices and the default config: the live
 * engine trades (orders and fills > 0), the fills in result.json are exactly the simulator's own
 * deals (venue-fills.json, the venue's truth), two runs write byte-identical files, and a bad
 * price file or flag exits 2 with file, line and column and no stack; a run stopped with Ctrl-C
 * leaves no store behind in the temp dir. A strategy in the run's thread whose hook runs on, or
 * that allocates without end, ends the run with exit 1 and a line saying which bound it passed.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TruthFill } from '../../src/backtest/collect.js';
import type { BacktestResult } from '../../src/backtest/result.js';
import { ROOT } from '../support/daemon-process.js';
import { eventually } from '../support/eventually.js';
import { tempDir } from '../support/temp-dir.js';

const CLI = path.join(ROOT, 'dist/src/cli/backtest.js');
const SPAN = ['--from', '2024-01-01T00:00:00Z', '--to', '2024-01-01T00:30:00Z'];

/** This process's environment without the bot's own settings, and `extra`. */
function cliEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(BOT_|API_|ENV_FILE|LOG_LEVEL)/.test(k))), ...extra };
}

function run(args: string[], extraEnv: Record<string, string> = {}): Promise<{ code: number; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI, ...args], { cwd: ROOT, env: cliEnv(extraEnv), timeout: 600_000 }, (err, _stdout, stderr) => {
      resolve({ code: err === null ? 0 : Number((err as { code?: number }).code ?? 1), stderr });
    });
  });
}

/** The command started with `args` and its temp dir `tmp`, and the code it exits with. */
function start(args: string[], tmp: string): { child: ChildProcess; exited: Promise<number | null> } {
  const child = spawn(process.execPath, [CLI, ...args], { cwd: ROOT, env: cliEnv({ TMPDIR: tmp }), stdio: 'ignore' });
  return { child, exited: new Promise((resolve) => child.once('exit', (code) => resolve(code))) };
}

const read = (dir: string, file: string): string => readFileSync(path.join(dir, file), 'utf8');

/** The runs' stores (a directory holding `bot.sqlite`) in the temp dirs the supervisor made under `tmp`. */
function runStores(tmp: string): string[] {
  const inside = (dir: string): string[] => (existsSync(dir) ? readdirSync(dir).map((d) => path.join(dir, d)) : []);
  return inside(tmp).flatMap(inside).filter((d) => existsSync(path.join(d, 'bot.sqlite')));
}
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
    const { child, exited } = start(['--prices', 'samples/prices', '--out', tempDir()], tmp);
    // The run's store exists once the run has begun (its database file in a private directory,
    // inside the temp dir the supervisor made for the run's worker).
    const store = await eventually(() => runStores(tmp)[0], 'the run\'s store in the temp dir', { timeoutMs: 60_000 });
    expect(path.basename(store)).toMatch(/^v4bot-backtest-/);
    child.kill('SIGINT');
    expect(await exited).toBe(130);
    expect(readdirSync(tmp)).toEqual([]);
  });

  describe('a strategy in the run\'s thread that runs on or allocates without end', () => {
    const tag = `${process.pid}`;
    const dist = path.join(ROOT, 'dist/strategies');
    const api = "'../src/strategy-api/index.js'";
    const spinner = `hostile-bt-spin-${tag}`;
    const hog = `hostile-bt-hog-${tag}`;
    const spinSource = `import { defineStrategy, z } from ${api};
export default defineStrategy({ name: 'spin', params: z.strictObject({ at: z.int() }), schedule: '* * * * * *', onTick(ctx) {
  const n = (ctx.state.get('n') ?? 0) + 1;
  ctx.state.set('n', n);
  if (n >= ctx.params.at) for (;;) { /* never returns */ }
  return [];
} });
`;
    const hogSource = `import { defineStrategy, z } from ${api};
const kept = [];
export default defineStrategy({ name: 'hog', params: z.strictObject({}), schedule: '* * * * * *', onTick() {
  for (let i = 0; i < 64; i++) kept.push(new Array(1 << 20).fill(i + 0.5));
  return [];
} });
`;
    beforeAll(() => {
      writeFileSync(path.join(dist, `${spinner}.js`), spinSource);
      writeFileSync(path.join(dist, `${hog}.js`), hogSource);
    });
    afterAll(() => {
      for (const m of [spinner, hog]) rmSync(path.join(dist, `${m}.js`), { force: true });
    });

    /** The default config with the grid and `module` as a second instance, hooks bounded by `deadlineMs`. */
    function configWith(module: string, id: string, deadlineMs: number, params: object = {}): string {
      const config = JSON.parse(readFileSync(path.join(ROOT, 'config/bot.json'), 'utf8')) as { strategies: unknown[]; plugins: Record<string, unknown> };
      config.strategies = [config.strategies[0], { module, id, budgetQuote: '1', params }];
      config.plugins['hookDeadlineMs'] = deadlineMs;
      const file = path.join(tempDir('v4bot-bt-config-'), 'bot.json');
      writeFileSync(file, JSON.stringify(config));
      return file;
    }

    it('a hook past its deadline ends the run with exit 1, naming the instance and the hook, and leaves no store behind', async () => {
      const tmp = tempDir('v4bot-bt-tmp-');
      const res = await run(['--config', configWith(spinner, 'spinner', 1000, { at: 5 }), '--prices', 'samples/prices', '--out', tempDir()], { TMPDIR: tmp });
      expect(res.code).toBe(1);
      expect(res.stderr).toMatch(/^v4-bot backtest: stopped: strategy spinner: onTick ran [\d.]+ s, past its deadline \(plugins\.hookDeadlineMs = 1000\)/m);
      expect(readdirSync(tmp)).toEqual([]);
    }, 120_000);

    it('Ctrl-C during a hook that never returns still ends the run with 130 and removes its store', async () => {
      const tmp = tempDir('v4bot-bt-tmp-');
      const { child, exited } = start(['--config', configWith(spinner, 'spinner', 600_000, { at: 1 }), '--prices', 'samples/prices', '--out', tempDir()], tmp);
      // The spinner's first tick, milliseconds after the store opens, never returns: the run's
      // thread cannot hear the stop, so the supervisor stops its worker after a grace and removes
      // the run's temp dir itself (the store's own exit hook never runs).
      await eventually(() => runStores(tmp)[0], 'the run\'s store in the temp dir', { timeoutMs: 60_000 });
      child.kill('SIGINT');
      expect(await exited).toBe(130);
      expect(readdirSync(tmp)).toEqual([]);
    }, 120_000);

    it('a second Ctrl-C during the grace ends the run at once, still with 130 and its store removed', async () => {
      const tmp = tempDir('v4bot-bt-tmp-');
      const { child, exited } = start(['--config', configWith(spinner, 'spinner', 600_000, { at: 1 }), '--prices', 'samples/prices', '--out', tempDir()], tmp);
      await eventually(() => runStores(tmp)[0], 'the run\'s store in the temp dir', { timeoutMs: 60_000 });
      // The spinner never hears the first stop; the second comes well inside the 2 s grace (the
      // main thread is idle, so the first has been handled by then).
      child.kill('SIGINT');
      await new Promise((resolve) => setTimeout(resolve, 300));
      child.kill('SIGINT');
      // Without the fix the second signal met Node's default action: no code, the store left behind.
      expect(await exited).toBe(130);
      expect(readdirSync(tmp)).toEqual([]);
    }, 120_000);

    it('a run past its heap bound ends with exit 1 and says so, where it would take the machine\'s memory', async () => {
      const tmp = tempDir('v4bot-bt-tmp-');
      const res = await run(['--config', configWith(hog, 'hog', 600_000), '--prices', 'samples/prices', '--out', tempDir()], { TMPDIR: tmp });
      expect(res.code).toBe(1);
      // The engine's 1024 MB and sandbox.memoryMb (256) for each of the two instances.
      expect(res.stderr).toMatch(/^v4-bot backtest: stopped: the run passed its heap bound of 1536 MB/m);
      expect(readdirSync(tmp)).toEqual([]);
    }, 120_000);
  });
});
