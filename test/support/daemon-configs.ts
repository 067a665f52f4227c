/**
 * Config fixtures shared by the config unit tests and the daemon end-to-end tests: one valid
 * file config and twenty invalid configurations, each with the key the refusal must name.
 */

/** A minimal valid BOT_CONFIG (no strategies). */
export function validFileConfig(): Record<string, unknown> {
  return {
    markets: {
      BTC_USDT: { tick: '0.01', step: '0.000001', minAmount: '0.00001', minTotalQuote: '5.05', maxPositionBase: '1' },
    },
    strategies: [],
    risk: { maxNotionalPerOrderQuote: '500' },
  };
}

export interface InvalidConfigCase {
  name: string;
  /** The refusal names this key (as in the message: `risk.maxDrawdownPct`, `API_KEY`, ...). */
  key: string;
  file?: unknown;
  /** Raw file text instead of `file` (for syntax errors). */
  fileText?: string;
  env?: Record<string, string>;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- fixtures poke at free-form JSON
type Json = Record<string, any>;

function patch(fn: (c: Json) => void): Record<string, unknown> {
  const c = validFileConfig() as Json;
  fn(c);
  return c;
}

const grid = (extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  module: 'spot-grid',
  id: 'g1',
  budgetQuote: '100',
  params: { market: 'BTC_USDT', levels: 2, spacingPct: '0.5', orderAmount: '0.001' },
  ...extra,
});

export const INVALID_CONFIGS: InvalidConfigCase[] = [
  { name: 'unknown top-level key', key: 'riskk', file: patch((c) => (c['riskk'] = {})) },
  { name: 'unknown key in a market', key: 'markets.BTC_USDT.tickSize', file: patch((c) => (c['markets'].BTC_USDT.tickSize = '0.01')) },
  { name: 'money as a JSON number', key: 'markets.BTC_USDT.tick', file: patch((c) => (c['markets'].BTC_USDT.tick = 0.01)) },
  { name: 'money in exponent notation', key: 'markets.BTC_USDT.step', file: patch((c) => (c['markets'].BTC_USDT.step = '1e-6')) },
  { name: 'zero tick', key: 'markets.BTC_USDT.tick', file: patch((c) => (c['markets'].BTC_USDT.tick = '0')) },
  { name: 'bad market name', key: 'markets.btc-usdt', file: patch((c) => (c['markets']['btc-usdt'] = c['markets'].BTC_USDT)) },
  { name: 'missing risk section', key: 'risk', file: patch((c) => delete c['risk']) },
  { name: 'negative notional', key: 'risk.maxNotionalPerOrderQuote', file: patch((c) => (c['risk'].maxNotionalPerOrderQuote = '-5')) },
  { name: 'drawdown of 100 %', key: 'risk.maxDrawdownPct', file: patch((c) => (c['risk'].maxDrawdownPct = '100')) },
  { name: 'bad cron', key: 'jobs.reconcileCron', file: patch((c) => (c['jobs'] = { reconcileCron: 'every minute' })) },
  { name: 'concurrency 0', key: 'jobs.maxConcurrentJobs', file: patch((c) => (c['jobs'] = { maxConcurrentJobs: 0 })) },
  { name: 'drain bound as a string', key: 'shutdown.drainTimeoutMs', file: patch((c) => (c['shutdown'] = { drainTimeoutMs: '10s' })) },
  { name: 'duplicate instance id', key: 'strategies[1].id', file: patch((c) => (c['strategies'] = [grid(), grid()])) },
  { name: 'instance id too long', key: 'strategies[0].id', file: patch((c) => (c['strategies'] = [grid({ id: 'a-very-long-instance-id-indeed' })])) },
  { name: 'missing budget', key: 'strategies[0].budgetQuote', file: patch((c) => (c['strategies'] = [grid({ budgetQuote: undefined })])) },
  { name: 'strategy schedule invalid', key: 'strategies[0].schedule', file: patch((c) => (c['strategies'] = [grid({ schedule: '* * *' })])) },
  { name: 'not JSON', key: '(root)', fileText: '{ "markets": ' },
  { name: 'BOT_MODE typo', key: 'BOT_MODE', env: { BOT_MODE: 'prod' } },
  { name: 'BOT_HTTP_PORT out of range', key: 'BOT_HTTP_PORT', env: { BOT_HTTP_PORT: '70000' } },
  { name: 'HTTP server beyond loopback without a control token', key: 'BOT_CONTROL_TOKEN', env: { BOT_HTTP_HOST: '0.0.0.0', BOT_HTTP_PORT: '9464' } },
  { name: 'live without a secret', key: 'API_SECRET', env: { BOT_MODE: 'live', API_KEY: 'SECRET-key-value', API_SECRET: '' } },
];

/**
 * Configs only the daemon refuses (after the strategy loader validated params against each
 * module's schema): used by the end-to-end test in addition to `INVALID_CONFIGS`.
 */
export const INVALID_STRATEGY_CONFIGS: InvalidConfigCase[] = [
  { name: 'unknown strategy module', key: 'strategies[0].module', file: patch((c) => (c['strategies'] = [grid({ module: 'no-such-strategy' })])) },
  {
    name: 'strategy params invalid',
    key: 'strategies[0].params.levels',
    file: patch((c) => (c['strategies'] = [grid({ params: { market: 'BTC_USDT', levels: -1, spacingPct: '0.5', orderAmount: '0.001' } })])),
  },
  {
    name: 'strategy market not configured',
    key: 'strategies[0].params.market',
    file: patch((c) => (c['strategies'] = [grid({ params: { market: 'ETH_USDT', levels: 2, spacingPct: '0.5', orderAmount: '0.001' } })])),
  },
];
