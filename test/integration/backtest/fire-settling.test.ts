/**
 * The run loop settles each job fire without an event-loop turn when its work ended on promise
 * continuations (src/backtest/settle.ts: reconcile, equity, credit in process), and with real
 * turns when a hook runs in a worker thread (each strategy tick, each onFill). Together the same
 * inputs give the same requests in the same order: the venue numbers orders as it receives them,
 * so the same ids, times and states, and the same fills, twice. (The hooks in the run's thread
 * lock the test process down: the golden runs of the CLI cover that mode.)
 */
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/index.js';
import { dec } from '../../../src/core/decimal.js';
import { loadConfiguredStrategies } from '../../../src/daemon/strategies.js';
import { loadPrices } from '../../../src/backtest/load-prices.js';
import { runBacktest, type RunInputs, type RunState } from '../../../src/backtest/run.js';
import { runSpan } from '../../../src/backtest/span.js';
import { silentLogger } from '../../../src/observability/logger.js';

const FROM = Date.UTC(2024, 0, 1);
const MINUTES = 40;

async function inputs(): Promise<RunInputs> {
  const config = loadConfig({ env: { BOT_CONFIG: 'config/bot.json', BOT_MODE: 'paper', ENV_FILE: '/dev/null' }, cwd: process.cwd() });
  const prices = loadPrices('samples/prices');
  return {
    config,
    strategies: await loadConfiguredStrategies(config),
    prices,
    span: runSpan(prices.series.values(), FROM, FROM + MINUTES * 60_000),
    model: { touch: 'through', volumeShare: dec('0.1'), volumePerStep: dec('0.5'), makerFee: dec('0.001'), takerFee: dec('0.001') },
    logger: silentLogger(),
    jobResolution: 'step',
  };
}

/** What the venue was asked, in its order: requests received, orders as numbered and ended, fills. */
const requests = (s: RunState) => ({
  received: s.venue.received(),
  jobs: s.jobsRun,
  orders: s.wired.store.orders.all().map((o) => [o.clientOrderId, o.orderId, o.createdMs, o.state, o.filledBase.toFixed()].join(' ')),
  fills: s.wired.store.fills.all().map((f) => [f.dealId, f.orderId, f.timeMs, f.amount.toFixed(), f.price.toFixed()].join(' ')),
});

describe('backtest fire settling', () => {
  it('the same inputs give the same requests in the same order, twice', async () => {
    const first = await runBacktest(await inputs(), requests);
    expect(first.fills.length).toBeGreaterThan(0);
    expect(await runBacktest(await inputs(), requests)).toEqual(first);
  }, 180_000);
});
