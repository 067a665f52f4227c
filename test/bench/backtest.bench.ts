/**
 * `npm run bench -- backtest`: a year of one-minute OHLCV candles for BTC_USDT, built from the
 * committed sample (candles-from-prices.ts; `BENCH_BACKTEST_FILE` takes a file instead), run
 * through the real backtest with the default config (config/bot.json): the live engine, the
 * simulator in process, `--job-resolution step`. Printed in one table: candles per second, wall
 * time and peak RSS of the run, the plain-loop floor over the same file (backtest-floor.ts) and
 * the ratio, and the same for the candles example (config/candles.json, strategy ema-cross) over
 * the same span, and for the wire path (`--venue http`, strategies in workers) over a short span,
 * run first (the in-process runs' strategies run in their thread, which locks the process down).
 *
 * `BENCH_BACKTEST_DAYS` (default 2; 365 runs the whole year) bounds the in-process spans,
 * `BENCH_BACKTEST_WIRE_HOURS` (default 6) the wire path's.
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { backtest } from '../../src/backtest/index.js';
import { writeCandles } from '../../src/backtest/candles-from-prices.js';
import type { BacktestArgs } from '../../src/backtest/args.js';
import { loadPrices } from '../../src/backtest/load-prices.js';
import { installZeroDelayTimers } from '../../src/backtest/zero-delay-timers.js';
import { dec } from '../../src/core/decimal.js';
import { silentLogger } from '../../src/observability/logger.js';
import { floorLoop } from './backtest-floor.js';

const YEAR_MINUTES = 365 * 1440;
const START = Date.UTC(2024, 0, 1);

interface Run {
  config: string;
  venue: BacktestArgs['venue'];
  strategiesIn: BacktestArgs['strategiesIn'];
}

/** Where the runs write their outputs (never beside a given price file). */
const outRoot = mkdtempSync(path.join(os.tmpdir(), 'v4bot-bench-bt-out-'));

function args(prices: string, run: Run, minutes: number): BacktestArgs {
  const { config, venue, strategiesIn } = run;
  return {
    config,
    prices,
    fromMs: START,
    toMs: START + minutes * 60_000,
    out: path.join(outRoot, `out-${venue}-${path.basename(config, '.json')}`),
    logLevel: 'silent',
    jobResolution: 'step',
    venue,
    strategiesIn,
    fill: { touch: 'through', volumeShare: dec('0.1'), volumePerStep: null, makerFee: dec('0.001'), takerFee: dec('0.001') },
  };
}

/** One logger for every run: none may be made after a run locked the thread down. */
const logger = silentLogger();

async function timed(a: BacktestArgs, minutes: number): Promise<{ candlesPerS: number; wallS: number; rssMb: number; fills: number }> {
  const t = performance.now();
  // This run's peak: sampled at each progress report (200 a run) and at the end, since the
  // process's own maximum also holds the runs before it.
  let rss = process.memoryUsage().rss;
  const s = await backtest(a, logger, () => (rss = Math.max(rss, process.memoryUsage().rss)));
  const wallS = (performance.now() - t) / 1000;
  rss = Math.max(rss, process.memoryUsage().rss);
  return { candlesPerS: minutes / wallS, wallS, rssMb: rss / 1024 / 1024, fills: s.result.total.fills };
}

export default async function bench(): Promise<void> {
  const days = Number(process.env['BENCH_BACKTEST_DAYS'] ?? '2');
  const wireHours = Number(process.env['BENCH_BACKTEST_WIRE_HOURS'] ?? '6');
  let dir = process.env['BENCH_BACKTEST_FILE'];
  if (dir === undefined) {
    dir = mkdtempSync(path.join(os.tmpdir(), 'v4bot-bench-bt-'));
    const t = performance.now();
    const sample = [...(loadPrices('samples/prices/BTC_USDT.csv').series.get('BTC_USDT')?.rows() ?? [])];
    await writeCandles(path.join(dir, 'BTC_USDT.csv'), sample, { startMs: START, candles: YEAR_MINUTES, tick: '0.01' });
    console.log(`built a year of one-minute BTC_USDT candles from the sample in ${((performance.now() - t) / 1000).toFixed(1)} s: ${dir}/BTC_USDT.csv`);
  }
  const file = dir.endsWith('.csv') ? dir : path.join(dir, 'BTC_USDT.csv');
  const t = performance.now();
  const floor = floorLoop(file);
  const floorS = (performance.now() - t) / 1000;
  const floorRate = floor.candles / floorS;
  installZeroDelayTimers();
  const minutes = Math.min(days * 1440, floor.candles - 1);
  const wireMinutes = Math.min(wireHours * 60, minutes);
  // The wire path first, its strategies in workers: the thread mode locks this process down for
  // good (no new logger after it: docs/backtesting.md § Strategies in the run's thread).
  const wire = await timed(args(dir, { config: 'config/bot.json', venue: 'http', strategiesIn: 'worker' }, wireMinutes), wireMinutes);
  // The light candles example before the default config: a run's peak RSS is sampled in this
  // process, which keeps some of the heap of the runs before it.
  const candles = await timed(args(dir, { config: 'config/candles.json', venue: 'in-process', strategiesIn: 'thread' }, minutes), minutes);
  const inProcess = await timed(args(dir, { config: 'config/bot.json', venue: 'in-process', strategiesIn: 'thread' }, minutes), minutes);
  const row = (name: string, r: typeof inProcess, n: number) => ({
    path: name,
    candles: n,
    'candles/s': Math.round(r.candlesPerS),
    'wall s': r.wallS.toFixed(1),
    'peak RSS MB (sampled)': r.rssMb.toFixed(0),
    fills: r.fills,
    'a year would take (s)': (YEAR_MINUTES / r.candlesPerS).toFixed(0),
    'floor candles/s': Math.round(floorRate),
    '× floor': (floorRate / r.candlesPerS).toFixed(0),
  });
  console.table([
    row('in process (strategies in the thread)', inProcess, minutes),
    row('candles example (config/candles.json, ema-cross)', candles, minutes),
    row('wire (--venue http, workers)', wire, wireMinutes),
  ]);
  console.log(`floor: ${floor.candles} candles in ${floorS.toFixed(2)} s (${floor.book.fills} fills)`);
}
