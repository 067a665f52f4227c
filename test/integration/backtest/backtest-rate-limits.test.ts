/**
 * The client's rate-limit pools run on the backtest's virtual clock: with a balance pool of four
 * requests per 20 s the engine's calls wait for refills, the clock jumps to them (no real waiting),
 * and the run completes and trades; with the default pools no call ever waits.
 */
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/index.js';
import { dec } from '../../../src/core/decimal.js';
import { loadConfiguredStrategies } from '../../../src/daemon/strategies.js';
import { loadPrices } from '../../../src/backtest/load-prices.js';
import { runBacktest, type RunInputs } from '../../../src/backtest/run.js';
import { runSpan } from '../../../src/backtest/span.js';
import { silentLogger } from '../../../src/observability/logger.js';

const FROM = Date.UTC(2024, 0, 1);

async function inputs(pools?: RunInputs['pools']): Promise<RunInputs> {
  const config = loadConfig({ env: { BOT_CONFIG: 'config/bot.json', BOT_MODE: 'paper', ENV_FILE: '/dev/null' }, cwd: process.cwd() });
  const prices = loadPrices('samples/prices');
  return {
    config,
    strategies: await loadConfiguredStrategies(config),
    prices,
    span: runSpan(prices.series.values(), FROM, FROM + 10 * 60_000),
    model: { touch: 'through', volumeShare: dec('0.1'), volumePerStep: dec('0.5'), makerFee: dec('0.001'), takerFee: dec('0.001') },
    logger: silentLogger(),
    // The client's pools exist on the wire path only (in process there is no client).
    venue: 'http',
    ...(pools === undefined ? {} : { pools }),
  };
}

const outcome = (s: Parameters<Parameters<typeof runBacktest>[1]>[0]) => ({
  timerJumps: s.timerJumps,
  orders: s.wired.store.orders.all().length,
  endMs: s.samples.timeAt(s.samples.length - 1),
  durable: s.wired.store.durable,
  file: s.wired.store.file,
});

describe('backtest rate limits on the virtual clock', () => {
  it('a pool out of budget makes the clock jump to its refill; the run completes and trades', async () => {
    const tight = await runBacktest(await inputs({ mainBalance: { limit: 4, windowMs: 20_000, safetyMargin: 1 } }), outcome);
    expect(tight.timerJumps).toBeGreaterThan(0);
    expect(tight.orders).toBeGreaterThan(0);
    expect(tight.endMs).toBe(FROM + 10 * 60_000);
    const free = await runBacktest(await inputs(), outcome);
    expect(free.timerJumps).toBe(0);
    // The run's store is a private temp file (src/store/index.ts, durability 'scratch'), gone after the run.
    expect(free.durable).toBe(false);
    expect(path.dirname(path.dirname(free.file))).toBe(path.resolve(tmpdir()));
    expect(existsSync(free.file)).toBe(false);
  }, 180_000);
});
