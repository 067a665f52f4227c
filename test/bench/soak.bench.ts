/**
 * Soak (`npm run bench -- soak`; docs/failure-modes.md #21): the real daemon with the example strategies
 * on one-second schedules, for `SOAK_SECONDS` (default 180), in a child process of its own
 * against the simulator running here (paper mode would embed the venue, whose books grow with
 * every order by design, in the measured heap), sampled after a forced GC every
 * `SOAK_SAMPLE_S` seconds (default 10). Prints the
 * samples, then the heap slope over the second half (after warm-up) by least squares, per minute
 * and per 1 000 orders journaled: a leak shows as a slope that does not fall towards zero while
 * the journal keeps growing.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../src/config/index.js';
import { SystemClock } from '../../src/core/clock.js';
import { paperMarkets } from '../../src/daemon/paper-venue.js';
import { startSimulator } from '../../src/simulator/index.js';
import { writeSoakConfig } from './soak-config.js';

interface Sample {
  t: number;
  heapMb: number;
  rssMb: number;
  orders: number;
  fills: number;
}

function slope(xs: number[], ys: number[]): number {
  const n = xs.length;
  const mx = xs.reduce((a, b) => a + b, 0) / n;
  const my = ys.reduce((a, b) => a + b, 0) / n;
  let num = 0;
  let den = 0;
  for (let i = 0; i < n; i++) {
    num += ((xs[i] as number) - mx) * ((ys[i] as number) - my);
    den += ((xs[i] as number) - mx) ** 2;
  }
  return den === 0 ? 0 : num / den;
}

/** Runs the soak child, printing and collecting its samples. */
function runChild(env: NodeJS.ProcessEnv, samples: Sample[]): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const child = spawn(process.execPath, ['--expose-gc', '--import', 'tsx', path.resolve('test/bench/soak-child.ts')], { stdio: ['ignore', 'pipe', 'inherit'], env });
    let buf = '';
    child.stdout.on('data', (b: Buffer) => {
      buf += b.toString();
      let nl: number;
      while ((nl = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, nl).trim();
        buf = buf.slice(nl + 1);
        if (!line.startsWith('{')) continue;
        const s = JSON.parse(line) as Sample & { done?: boolean };
        if (s.done === true) continue;
        samples.push(s);
        console.log(`t=${String(s.t).padStart(4)} s  heap ${s.heapMb.toFixed(2).padStart(7)} MB  rss ${s.rssMb.toFixed(1).padStart(6)} MB  orders ${String(s.orders).padStart(6)}  fills ${String(s.fills).padStart(6)}`);
      }
    });
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`soak child exited ${code}`))));
  });
}

export default async function bench(): Promise<void> {
  const samples: Sample[] = [];
  const dir = mkdtempSync(path.join(os.tmpdir(), 'v4bot-soak-'));
  const configPath = writeSoakConfig(dir);
  const config = loadConfig({ env: { BOT_MODE: 'paper', BOT_CONFIG: configPath, BOT_DATA_DIR: path.join(dir, 'data'), ENV_FILE: '' }, cwd: process.cwd() });
  const sim = await startSimulator({
    clock: new SystemClock(),
    seed: config.paper.seed,
    markets: paperMarkets(config),
    defaultBalances: Object.fromEntries(Object.entries(config.paper.balances).map(([k, v]) => [k, v.toFixed()])),
    defaultFlex: config.paper.flexInvestments.map((f) => ({ currency: f.currency, amount: f.amount.toFixed(), dailyRate: f.dailyRate.toFixed() })),
    stepMs: config.paper.priceStepMs,
  });
  const env = { ...process.env, SOAK_CONFIG: configPath, SOAK_DATA_DIR: config.dataDir, API_BASE_URL: sim.baseUrl, API_KEY: sim.defaultAccount.apiKey, API_SECRET: sim.defaultAccount.apiSecret };
  try {
    await runChild(env, samples);
  } finally {
    await sim.close();
    rmSync(dir, { recursive: true, force: true });
  }
  const half = samples.slice(Math.floor(samples.length / 2));
  if (half.length < 3) throw new Error('too few samples: raise SOAK_SECONDS');
  const first = samples[0] as Sample;
  const last = samples[samples.length - 1] as Sample;
  const perMin = slope(half.map((s) => s.t / 60), half.map((s) => s.heapMb));
  const perKOrders = slope(half.map((s) => s.orders / 1000), half.map((s) => s.heapMb));
  console.log(`| measure | value |`);
  console.log(`|---|---|`);
  console.log(`| run | ${last.t} s, ${last.orders - first.orders} orders and ${last.fills - first.fills} fills journaled |`);
  console.log(`| heap after GC, first / last sample | ${first.heapMb.toFixed(2)} / ${last.heapMb.toFixed(2)} MB |`);
  console.log(`| heap slope, second half | ${perMin.toFixed(3)} MB/min, ${perKOrders.toFixed(3)} MB per 1 000 orders |`);
  console.log(`| RSS, first / last sample | ${first.rssMb.toFixed(1)} / ${last.rssMb.toFixed(1)} MB |`);
}
