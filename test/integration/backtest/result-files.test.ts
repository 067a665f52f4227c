/**
 * The result files written from the run's store as it is read (writeResultFiles) are byte for
 * byte the whole result's: result.json is JSON.stringify(buildResult(...), null, 2) and
 * report.html is renderReport of it, for a real run of the sample with fills and round trips.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildResult, writeResultFiles } from '../../../src/backtest/collect.js';
import { loadPrices, type PriceSeries } from '../../../src/backtest/load-prices.js';
import { renderReport } from '../../../src/backtest/report/index.js';
import { runBacktest, type RunInputs } from '../../../src/backtest/run.js';
import { runSpan } from '../../../src/backtest/span.js';
import { loadConfig } from '../../../src/config/index.js';
import { dec } from '../../../src/core/decimal.js';
import { loadConfiguredStrategies } from '../../../src/daemon/strategies.js';
import { silentLogger } from '../../../src/observability/logger.js';
import { tempDir } from '../../support/temp-dir.js';

const FROM = Date.UTC(2024, 0, 1);

describe('result files written from the store', () => {
  it('equal the whole result as JSON and its report', async () => {
    const config = loadConfig({ env: { BOT_CONFIG: 'config/bot.json', BOT_MODE: 'paper', ENV_FILE: '/dev/null' }, cwd: process.cwd() });
    const prices = loadPrices('samples/prices');
    const span = runSpan([prices.series.get('BTC_USDT') as PriceSeries], FROM, FROM + 4 * 3_600_000);
    const inputs: RunInputs = {
      config,
      strategies: await loadConfiguredStrategies(config),
      prices,
      span,
      model: { touch: 'through', volumeShare: dec('0.1'), volumePerStep: dec('0.5'), makerFee: dec('0.001'), takerFee: dec('0.001') },
      logger: silentLogger(),
      jobResolution: 'step',
      strategiesIn: 'thread',
    };
    const meta = { configFile: 'config/bot.json', configSha256: 'x', prices: prices.files, fromMs: span.fromMs, toMs: span.toMs, fillModel: { a: '1' } };
    const out = tempDir('v4bot-result-files-');
    const { whole, head } = await runBacktest(inputs, (s) => ({ whole: buildResult(s, meta), head: writeResultFiles(s, meta, out) }));
    expect(whole.fills.length).toBeGreaterThan(20);
    expect(whole.trades.length).toBeGreaterThan(5);
    expect(readFileSync(path.join(out, 'result.json'), 'utf8')).toBe(`${JSON.stringify(whole, null, 2)}\n`);
    expect(readFileSync(path.join(out, 'report.html'), 'utf8')).toBe(renderReport(whole));
    const { fills: _fills, trades: _trades, ...wholeHead } = whole;
    expect(head).toEqual(wholeHead);
  }, 240_000);
});
