/**
 * `npm run bench -- backtest`: a year of one-minute OHLCV candles for BTC_USDT, built from the
 * committed sample (candles-from-prices.ts; `BENCH_BACKTEST_FILE` takes a file instead), run
 * through the real backtest with the default config (config/bot.json): the live engine, the
 * simulator in process, `--job-resolution step`. Printed in one table: candles per second, wall
 * time and peak RSS of the run, the plain-loop floor over the same file (backtest-floor.ts) and
 * the ratio, and the same for the candles example (config/candles.json, strategy ema-cross) over
 * the whole year, and for the wire path (`--venue http`, strategies in workers) over a short span,
 * each run in its own process as an operator runs it (the built `v4-bot backtest`: `npm run build`
 * first), so its wall time and peak RSS are its own. The goal (docs/backtesting.md § Speed): a
 * year in at most 60 s with a peak RSS of at most 400 MB.
 *
 * `BENCH_BACKTEST_DAYS` (default 2; 365 runs the whole year) bounds the default config's span,
 * `BENCH_BACKTEST_CANDLES_DAYS` (default 365) the candles example's, `BENCH_BACKTEST_WIRE_HOURS`
 * (default 6) the wire path's.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { writeCandles } from '../../src/backtest/candles-from-prices.js';
import type { BacktestArgs } from '../../src/backtest/args.js';
import { loadPrices } from '../../src/backtest/load-prices.js';
import { floorLoop } from './backtest-floor.js';

const YEAR_MINUTES = 365 * 1440;
const START = Date.UTC(2024, 0, 1);

interface Run {
  config: string;
  venue: BacktestArgs['venue'];
  strategiesIn: BacktestArgs['strategiesIn'];
}

/** The command line of one run: the default fill model, the run's span and its own output directory under `outRoot`. */
function args(outRoot: string, prices: string, run: Run, minutes: number): string[] {
  const { config, venue, strategiesIn } = run;
  const iso = (ms: number): string => new Date(ms).toISOString();
  const out = path.join(outRoot, `out-${venue}-${path.basename(config, '.json')}`);
  const span = ['--from', iso(START), '--to', iso(START + minutes * 60_000)];
  return ['--config', config, '--prices', prices, ...span, '--out', out, '--venue', venue, '--strategies', strategiesIn];
}

/**
 * One run as an operator runs it (`node bin/v4-bot.js backtest`, the built command: `npm run
 * build` first), in its own process: the wall time from its start to its exit, its own peak RSS
 * (peak-rss-at-exit.mjs, on descriptor 3) and the fills its summary line reports.
 */
function timed(flags: string[], minutes: number): Promise<{ candlesPerS: number; wallS: number; rssMb: number; fills: number }> {
  const hook = path.resolve('test/bench/peak-rss-at-exit.mjs');
  const t = performance.now();
  const child = spawn(process.execPath, ['--import', pathToFileURL(hook).href, 'bin/v4-bot.js', 'backtest', ...flags], { stdio: ['ignore', 'ignore', 'pipe', 'pipe'] });
  let err = '';
  let rss = '';
  child.stdio[2]?.on('data', (b: Buffer) => (err += b.toString()));
  child.stdio[3]?.on('data', (b: Buffer) => (rss += b.toString()));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => {
      const wallS = (performance.now() - t) / 1000;
      const fills = /, fills (\d+),/.exec(err);
      if (code !== 0 || fills === null) return reject(new Error(`backtest ${flags.join(' ')} exited ${String(code)}: ${err.slice(-400)}`));
      resolve({ candlesPerS: minutes / wallS, wallS, rssMb: Number(rss.trim()) / 1024, fills: Number(fills[1]) });
    });
  });
}

/**
 * The runs' outputs (never beside a given price file) and the year built from the sample go to
 * temp directories of the bench's own, removed when it ends however it ends: a year's run leaves
 * about 100 MB of results and the built year about 30 MB.
 */
export default async function bench(): Promise<void> {
  const temps: string[] = [];
  const temp = (prefix: string): string => {
    const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
    temps.push(dir);
    return dir;
  };
  try {
    await measure(temp);
  } finally {
    for (const dir of temps) rmSync(dir, { recursive: true, force: true });
  }
}

async function measure(temp: (prefix: string) => string): Promise<void> {
  const days = Number(process.env['BENCH_BACKTEST_DAYS'] ?? '2');
  const candleDays = Number(process.env['BENCH_BACKTEST_CANDLES_DAYS'] ?? '365');
  const wireHours = Number(process.env['BENCH_BACKTEST_WIRE_HOURS'] ?? '6');
  let dir = process.env['BENCH_BACKTEST_FILE'];
  if (dir === undefined) {
    dir = temp('v4bot-bench-bt-');
    const t = performance.now();
    const sample = [...(loadPrices('samples/prices/BTC_USDT.csv').series.get('BTC_USDT')?.rows() ?? [])];
    await writeCandles(path.join(dir, 'BTC_USDT.csv'), sample, { startMs: START, candles: YEAR_MINUTES, tick: '0.01' });
    console.log(`built a year of one-minute BTC_USDT candles from the sample in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  }
  const outRoot = temp('v4bot-bench-bt-out-');
  const file = dir.endsWith('.csv') ? dir : path.join(dir, 'BTC_USDT.csv');
  const t = performance.now();
  const floor = floorLoop(file);
  const floorS = (performance.now() - t) / 1000;
  const floorRate = floor.candles / floorS;
  const minutes = Math.min(days * 1440, floor.candles - 1);
  const wireMinutes = Math.min(wireHours * 60, minutes);
  const candleMinutes = Math.min(candleDays * 1440, floor.candles - 1);
  const wire = await timed(args(outRoot, dir, { config: 'config/bot.json', venue: 'http', strategiesIn: 'worker' }, wireMinutes), wireMinutes);
  const candles = await timed(args(outRoot, dir, { config: 'config/candles.json', venue: 'in-process', strategiesIn: 'thread' }, candleMinutes), candleMinutes);
  const inProcess = await timed(args(outRoot, dir, { config: 'config/bot.json', venue: 'in-process', strategiesIn: 'thread' }, minutes), minutes);
  const row = (name: string, r: typeof inProcess, n: number) => ({
    path: name,
    candles: n,
    'candles/s': Math.round(r.candlesPerS),
    'wall s': r.wallS.toFixed(1),
    'peak RSS MB': r.rssMb.toFixed(0),
    fills: r.fills,
    'a year would take (s)': (YEAR_MINUTES / r.candlesPerS).toFixed(0),
    'floor candles/s': Math.round(floorRate),
    '× floor': (floorRate / r.candlesPerS).toFixed(0),
  });
  console.table([
    row('in process (strategies in the thread)', inProcess, minutes),
    row('candles example (config/candles.json, ema-cross)', candles, candleMinutes),
    row('wire (--venue http, workers)', wire, wireMinutes),
  ]);
  console.log(`floor: ${floor.candles} candles in ${floorS.toFixed(2)} s (${floor.book.fills} fills)`);
  console.log(`goal: a year of one-minute candles in at most 60 s, peak RSS at most 400 MB (${YEAR_MINUTES} candles)`);
}
