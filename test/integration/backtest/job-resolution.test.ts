/**
 * `--job-resolution` on the backtest's run loop (src/backtest/run.ts): `cron` fires every job at
 * every fire time of its schedule, as the daemon does; `step` fires each job at most once per
 * price step (one-minute prices here), so the sub-minute schedules of config/bot.json coalesce
 * and the ten-minute flex pull is unchanged. Both trade and both runs reach the end time.
 */
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/index.js';
import { dec } from '../../../src/core/decimal.js';
import { loadConfiguredStrategies } from '../../../src/daemon/strategies.js';
import { loadPrices } from '../../../src/backtest/load-prices.js';
import { runBacktest, type JobResolution, type RunInputs } from '../../../src/backtest/run.js';
import { runSpan } from '../../../src/backtest/span.js';
import { silentLogger } from '../../../src/observability/logger.js';

const FROM = Date.UTC(2024, 0, 1);
const MINUTES = 10;

async function inputs(jobResolution: JobResolution): Promise<RunInputs> {
  const config = loadConfig({ env: { BOT_CONFIG: 'config/bot.json', BOT_MODE: 'paper', ENV_FILE: '/dev/null' }, cwd: process.cwd() });
  const prices = loadPrices('samples/prices');
  return {
    config,
    strategies: await loadConfiguredStrategies(config),
    prices,
    span: runSpan(prices.series.values(), FROM, FROM + MINUTES * 60_000),
    model: { touch: 'through', volumeShare: dec('0.1'), volumePerStep: dec('0.5'), makerFee: dec('0.001'), takerFee: dec('0.001') },
    logger: silentLogger(),
    jobResolution,
  };
}

const outcome = (s: Parameters<Parameters<typeof runBacktest>[1]>[0]) => ({
  jobs: s.jobsRun,
  orders: s.wired.store.orders.all().length,
  endMs: s.samples.timeAt(s.samples.length - 1),
});

describe('backtest job resolution', () => {
  it('cron runs every fire of every schedule; step at most one per job and price step', async () => {
    const cron = await runBacktest(await inputs('cron'), outcome);
    // Ten minutes of config/bot.json: grid1 every 10 s (60), trend1 and equity every 15 s (40
    // each), reconcile every 30 s (20), treasury and credit every minute (10 each), flex at 00:10 (1).
    expect(cron.jobs).toBe(60 + 40 + 40 + 20 + 10 + 10 + 1);
    const step = await runBacktest(await inputs('step'), outcome);
    // Once per step: the four sub-minute jobs at their first fire after the start (00:00:10 to
    // 00:00:30) and then at each step 00:01 .. 00:10 (11 each); treasury and credit fire at whole
    // minutes anyway (10 each); flex once.
    expect(step.jobs).toBe(4 * (MINUTES + 1) + 2 * MINUTES + 1);
    for (const r of [cron, step]) {
      expect(r.orders).toBeGreaterThan(0);
      expect(r.endMs).toBe(FROM + MINUTES * 60_000);
    }
  }, 180_000);
});
