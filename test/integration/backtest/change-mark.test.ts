/**
 * The in-process venue's account change mark lets the reconciler skip passes over an unchanged
 * venue (src/engine/reconcile-shortcut.ts). A backtest with the mark and one with it turned off
 * (every pass in full, as over HTTP) on three hours of the committed sample with the default
 * config: the same result, the same venue deals, with fewer history scans.
 */
import { describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../../src/config/index.js';
import { dec } from '../../../src/core/decimal.js';
import { loadConfiguredStrategies } from '../../../src/daemon/strategies.js';
import { buildResult, truthFills } from '../../../src/backtest/collect.js';
import { loadPrices, type PriceSeries } from '../../../src/backtest/load-prices.js';
import { runBacktest, type RunInputs } from '../../../src/backtest/run.js';
import { runSpan } from '../../../src/backtest/span.js';
import { silentLogger } from '../../../src/observability/logger.js';
import type * as InProcessVenue from '../../../src/backtest/in-process-venue.js';

const gateways = vi.hoisted(() => ({ changeMark: true, scans: 0 }));

// The real in-process gateway, with the mark on or off, counting its history scans.
vi.mock('../../../src/backtest/in-process-venue.js', async (importOriginal) => {
  const m = await importOriginal<typeof InProcessVenue>();
  const inProcessGateway: typeof m.inProcessGateway = (api, account, options = {}) => {
    const g = m.inProcessGateway(api, account, { ...options, changeMark: gateways.changeMark });
    const fills = g.fills.bind(g);
    g.fills = (range) => {
      gateways.scans++;
      return fills(range);
    };
    return g;
  };
  return { ...m, inProcessGateway };
});

const FROM = Date.UTC(2024, 0, 1);

async function run(changeMark: boolean) {
  gateways.changeMark = changeMark;
  gateways.scans = 0;
  const config = loadConfig({ env: { BOT_CONFIG: 'config/bot.json', BOT_MODE: 'paper', ENV_FILE: '/dev/null' }, cwd: process.cwd() });
  const prices = loadPrices('samples/prices');
  const span = runSpan([prices.series.get('BTC_USDT') as PriceSeries], FROM, FROM + 3 * 3_600_000);
  const inputs: RunInputs = {
    config,
    strategies: await loadConfiguredStrategies(config),
    prices,
    span,
    model: { touch: 'through', volumeShare: dec('0.1'), volumePerStep: dec('0.5'), makerFee: dec('0.001'), takerFee: dec('0.001') },
    logger: silentLogger(),
    jobResolution: 'step',
    venue: 'in-process',
    strategiesIn: 'worker',
  };
  const meta = { configFile: 'config/bot.json', configSha256: '', prices: prices.files, fromMs: span.fromMs, toMs: span.toMs, fillModel: {} };
  const out = await runBacktest(inputs, (s) => ({ result: buildResult(s, meta), truth: truthFills(s), jobs: s.jobsRun }));
  return { ...out, scans: gateways.scans };
}

describe('backtest with and without the account change mark', () => {
  it('gives the same result and the same venue deals, with fewer history scans', async () => {
    const withMark = await run(true);
    const without = await run(false);
    expect(without.result.total.fills).toBeGreaterThan(10);
    expect(JSON.stringify(withMark.result)).toBe(JSON.stringify(without.result));
    expect(withMark.truth).toEqual(without.truth);
    expect(withMark.jobs).toBe(without.jobs);
    expect(withMark.scans).toBeLessThan(without.scans);
  }, 240_000);
});
