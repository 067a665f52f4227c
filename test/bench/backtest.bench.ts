/**
 * `npm run bench -- backtest`: the default config (config/bot.json) over one-minute prices of a
 * whole year (generated here from a seed, not committed), through the real backtest (live engine,
 * worker-thread strategies, simulator over loopback HTTP, virtual clock). Prints simulated days
 * per wall second and what a year takes at that pace. `BENCH_BACKTEST_DAYS` (default 2) runs that
 * many days of the year; `BENCH_BACKTEST_DAYS=365` runs all of it. `BENCH_BACKTEST_RESOLUTION`
 * (`cron` default, or `step`) is the run's `--job-resolution`.
 *
 * Beside it, where a request's time goes: a bare keep-alive GET to the simulator (the loopback
 * floor) against the same GET through the client (rate-limit pools, nonce, signing, parsing).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { backtest } from '../../src/backtest/index.js';
import { syntheticCsv } from '../../src/backtest/synthetic-prices.js';
import { installZeroDelayTimers } from '../../src/backtest/zero-delay-timers.js';
import { SystemClock } from '../../src/core/clock.js';
import { dec } from '../../src/core/decimal.js';
import { createApiClient } from '../../src/exchange/api-client.js';
import { silentLogger } from '../../src/observability/logger.js';
import { startSimulator } from '../../src/simulator/index.js';

const YEAR_MINUTES = 365 * 1440;
const START = Date.UTC(2024, 0, 1);

async function perRequest(): Promise<{ bareMs: number; clientMs: number; privateMs: number }> {
  const sim = await startSimulator({});
  const agent = new http.Agent({ keepAlive: true });
  const get = (): Promise<void> =>
    new Promise((resolve, reject) => http.get(`${sim.baseUrl}/api/v4/public/futures`, { agent }, (r) => r.resume().on('end', resolve)).on('error', reject));
  const client = createApiClient({ baseUrl: sim.baseUrl, ...sim.defaultAccount, clock: new SystemClock() });
  const time = async (n: number, once: () => Promise<unknown>): Promise<number> => {
    for (let i = 0; i < 20; i++) await once();
    const t = performance.now();
    for (let i = 0; i < n; i++) await once();
    return (performance.now() - t) / n;
  };
  const out = { bareMs: await time(300, get), clientMs: await time(300, () => client.futures()), privateMs: await time(300, () => client.mainBalance()) };
  await client.close();
  agent.destroy();
  await sim.close();
  return out;
}

export default async function bench(): Promise<void> {
  const days = Number(process.env['BENCH_BACKTEST_DAYS'] ?? '2');
  const jobResolution = process.env['BENCH_BACKTEST_RESOLUTION'] === 'step' ? 'step' : 'cron';
  const dir = mkdtempSync(path.join(os.tmpdir(), 'v4bot-bench-bt-'));
  let t = performance.now();
  writeFileSync(path.join(dir, 'BTC_USDT.csv'), syntheticCsv({ startMs: START, minutes: YEAR_MINUTES, seed: 7, startPrice: '60000', volatility: '0.0008', tick: '0.01' }));
  console.log(`generated a year of one-minute BTC_USDT prices in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  // As the CLI does (zero-delay-timers.ts); the per-request figures below are measured after it too.
  installZeroDelayTimers();
  t = performance.now();
  const s = await backtest(
    {
      config: 'config/bot.json',
      prices: dir,
      fromMs: START,
      toMs: START + days * 86_400_000,
      out: path.join(dir, 'out'),
      logLevel: 'silent',
      jobResolution,
      fill: { touch: 'through', volumeShare: dec('0.1'), volumePerStep: null, makerFee: dec('0.001'), takerFee: dec('0.001') },
    },
    silentLogger(),
  );
  const wallS = (performance.now() - t) / 1000;
  const simDays = (s.result.inputs.toMs - s.result.inputs.fromMs) / 86_400_000;
  const pace = simDays / wallS;
  console.table([
    {
      'simulated days': simDays.toFixed(2),
      'wall s': wallS.toFixed(1),
      'sim days / wall s': pace.toFixed(4),
      'a year would take (min)': (365 / pace / 60).toFixed(0),
      orders: s.result.total.orders,
      fills: s.result.total.fills,
      'job resolution': jobResolution,
      jobs: s.jobsRun,
      'wall ms per job': ((wallS * 1000) / Math.max(1, s.jobsRun)).toFixed(2),
      'timer jumps': s.timerJumps,
    },
  ]);
  const r = await perRequest();
  console.table([{ 'bare loopback GET ms': r.bareMs.toFixed(2), 'client public GET ms': r.clientMs.toFixed(2), 'client private POST ms': r.privateMs.toFixed(2) }]);
}
