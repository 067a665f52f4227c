/**
 * The one info line the daemon logs about its configuration at start: enough for an operator to
 * see which bot this is (mode, data dir, markets, strategies and their schedules, the main
 * limits) without a hundred lines of JSON; the full (redacted) configuration is at debug.
 * Holds no secret: only names, paths, schedules and limits.
 */
import type { BotConfig } from '../config/index.js';
import type { LoadedStrategy } from '../strategy-api/host.js';

export function configSummary(config: BotConfig, strategies: readonly LoadedStrategy[]): Record<string, unknown> {
  const budget = new Map(config.strategies.map((s) => [s.id, s.budgetQuote.toFixed()]));
  return {
    mode: config.mode,
    dataDir: config.dataDir,
    configPath: config.configPath,
    envFile: config.envFile,
    httpPort: config.httpPort,
    markets: Object.entries(config.markets)
      .map(([m, c]) => `${m} (maxPositionBase ${c.maxPositionBase.toFixed()}, maxOpenOrders ${c.maxOpenOrders})`)
      .join(', '),
    strategies: strategies.map((s) => `${s.id}=${s.module} [${s.schedule}] budget ${budget.get(s.id) ?? '-'}`).join(', ') || 'none',
    disabled: config.strategies.filter((s) => !s.enabled).map((s) => s.id),
    limits: `maxNotionalPerOrderQuote ${config.risk.maxNotionalPerOrderQuote.toFixed()}, maxDrawdownPct ${config.risk.maxDrawdownPct.toFixed()}, equity in ${config.risk.equityAsset}`,
    reconcile: config.jobs.reconcileCron,
    nonceMode: config.nonceMode,
    rateLimitStore: config.rateLimitRedisUrl === null ? 'local' : 'redis',
  };
}
