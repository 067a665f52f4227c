/**
 * The in-process venue (src/backtest/in-process-api.ts, in-process-venue.ts) against the wire path
 * (`--venue http`: the simulator's HTTP server and the API client) on six hours of the committed
 * sample with the default config: the same venue deals, the same fills in the store, the same
 * PnL, byte for byte. Likewise strategies in the run's thread against sandboxed workers. What the in-process path leaves out (HTTP, signing, JSON, the queue) must
 * change nothing the engine decides.
 */
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/index.js';
import { dec } from '../../../src/core/decimal.js';
import { loadConfiguredStrategies } from '../../../src/daemon/strategies.js';
import { buildResult, truthFills } from '../../../src/backtest/collect.js';
import { loadPrices, type PriceSeries } from '../../../src/backtest/load-prices.js';
import { runBacktest, type RunInputs } from '../../../src/backtest/run.js';
import type { VenueKind } from '../../../src/backtest/sim-venue.js';
import type { StrategiesIn } from '../../../src/backtest/engine-wiring.js';
import { runSpan } from '../../../src/backtest/span.js';
import { silentLogger } from '../../../src/observability/logger.js';

const FROM = Date.UTC(2024, 0, 1);
const HOURS = 6;

async function run(venue: VenueKind, strategiesIn: StrategiesIn = 'worker', hours = HOURS) {
  const config = loadConfig({ env: { BOT_CONFIG: 'config/bot.json', BOT_MODE: 'paper', ENV_FILE: '/dev/null' }, cwd: process.cwd() });
  const prices = loadPrices('samples/prices');
  const span = runSpan([prices.series.get('BTC_USDT') as PriceSeries], FROM, FROM + hours * 3_600_000);
  const inputs: RunInputs = {
    config,
    strategies: await loadConfiguredStrategies(config),
    prices,
    span,
    model: { touch: 'through', volumeShare: dec('0.1'), volumePerStep: dec('0.5'), makerFee: dec('0.001'), takerFee: dec('0.001') },
    logger: silentLogger(),
    jobResolution: 'step',
    venue,
    strategiesIn,
  };
  const meta = { configFile: 'config/bot.json', configSha256: '', prices: prices.files, fromMs: span.fromMs, toMs: span.toMs, fillModel: {} };
  return runBacktest(inputs, (s) => ({ result: buildResult(s, meta), truth: truthFills(s), jobs: s.jobsRun }));
}

describe('backtest venue paths', () => {
  it('in process and over HTTP: identical venue deals, fills and PnL on six hours of the sample', async () => {
    const inProcess = await run('in-process');
    const wire = await run('http');
    expect(inProcess.result.total.fills).toBeGreaterThan(10);
    expect(inProcess.truth).toEqual(wire.truth);
    expect(inProcess.result.fills).toEqual(wire.result.fills);
    expect(inProcess.result.total).toEqual(wire.result.total);
    expect(inProcess.result.strategies).toEqual(wire.result.strategies);
    expect(JSON.stringify(inProcess.result)).toBe(JSON.stringify(wire.result));
    expect(inProcess.jobs).toBe(wire.jobs);
  }, 240_000);

  // Last in this file: the thread mode locks down this process's intrinsics (ses lockdown), after
  // which a new pino logger can no longer set Error.prepareStackTrace.
  it('strategies in the run\'s thread and in sandboxed workers: the same result', async () => {
    const worker = await run('in-process', 'worker', 2);
    const thread = await run('in-process', 'thread', 2);
    expect(thread.result.total.fills).toBeGreaterThan(5);
    expect(JSON.stringify(thread.result)).toBe(JSON.stringify(worker.result));
  }, 240_000);
});
