/**
 * A backtest of the committed sample (samples/prices) with the default config, from its first
 * minute, run in process by the real run loop: the shared set-up of the tests that compare two
 * ways of running the same backtest (venue paths, strategies' thread, the account change mark, the
 * result files written from the store).
 */
import { loadConfig } from '../../src/config/index.js';
import { dec } from '../../src/core/decimal.js';
import { loadConfiguredStrategies } from '../../src/daemon/strategies.js';
import { buildResult, truthFills } from '../../src/backtest/collect.js';
import type { StrategiesIn } from '../../src/backtest/engine-wiring.js';
import { loadPrices, type PriceSeries } from '../../src/backtest/load-prices.js';
import { runBacktest, type RunInputs } from '../../src/backtest/run.js';
import type { VenueKind } from '../../src/backtest/sim-venue.js';
import { runSpan } from '../../src/backtest/span.js';
import { silentLogger } from '../../src/observability/logger.js';

const FROM = Date.UTC(2024, 0, 1);

/** The run's inputs and the result's meta for `hours` of the sample. */
export async function sampleInputs(venue: VenueKind, strategiesIn: StrategiesIn, hours: number) {
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
  return { inputs, meta };
}

/** The result, the venue's own deals and the job fires of `hours` of the sample. */
export async function runSample(venue: VenueKind, strategiesIn: StrategiesIn, hours: number) {
  const { inputs, meta } = await sampleInputs(venue, strategiesIn, hours);
  return runBacktest(inputs, (s) => ({ result: buildResult(s, meta), truth: truthFills(s), jobs: s.jobsRun }));
}
