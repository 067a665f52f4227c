/**
 * The bot's configuration for a chaos run: the example strategies on second-level schedules, a
 * fast reconciliation, and a perpetual whose position limit leaves room for exactly one
 * collateral entry (so a second entry before the first fill is scanned breaks the limit).
 */

/** The collateral entry size and the limit that admits exactly one of them, base. */
export const ENTRY_AMOUNT = '0.002';
export const PERP_LIMIT = '0.002';
export const SPOT_LIMIT = '0.05';

/** Instance ids, and which of them are collateral-signal instances (whose exits are judged). */
export const SIGNAL_ID = 'sig';
export const GRID_ID = 'grid';
export const SIGNAL_INSTANCES: readonly string[] = [SIGNAL_ID];

/** Percent moves the scenario uses against the strategy's thresholds (see scenario.ts). */
export const SIGNAL_PARAMS = { thresholdPct: '0.1', stopLossPct: '0.3', takeProfitPct: '0.3' } as const;

export function chaosBotConfig(opts: { tradingEnabled: boolean }): Record<string, unknown> {
  const enabled = opts.tradingEnabled;
  return {
    markets: {
      BTC_USDT: { tick: '0.01', step: '0.000001', minAmount: '0.00001', minTotalQuote: '5.05', maxPositionBase: SPOT_LIMIT, maxOpenOrders: 20 },
      BTC_PERP: { tick: '0.1', step: '0.0001', minAmount: '0.0001', minTotalQuote: '5.05', maxPositionBase: PERP_LIMIT, maxOpenOrders: 10 },
    },
    strategies: [
      {
        module: 'collateral-signal',
        id: SIGNAL_ID,
        enabled,
        budgetQuote: '2000',
        schedule: '* * * * * *',
        params: { market: 'BTC_PERP', amount: ENTRY_AMOUNT, lookbackTicks: 2, entryTimeoutMs: 5000, ...SIGNAL_PARAMS },
      },
      {
        module: 'spot-grid',
        id: GRID_ID,
        enabled,
        budgetQuote: '3000',
        schedule: '*/2 * * * * *',
        params: { market: 'BTC_USDT', levels: 3, spacingPct: '0.15', orderAmount: '0.0005' },
      },
    ],
    risk: { maxNotionalPerOrderQuote: '500', maxDrawdownPct: DRAWDOWN_LIMIT_PCT, equityAsset: 'USDT' },
    jobs: {
      reconcileCron: '*/2 * * * * *',
      equityCheckCron: '*/5 * * * * *',
      creditCheckCron: '*/30 * * * * *',
      flexPullCron: '*/30 * * * * *',
      // Audited often enough that every cycle's trading falls in some audit's window.
      balanceAuditCron: '*/5 * * * * *',
      maxConcurrentJobs: 4,
    },
    shutdown: { cancelOwnOrdersOnStop: false, drainTimeoutMs: 5000 },
  };
}

/** The kill switch's limit, for the drawdown check. */
export const DRAWDOWN_LIMIT_PCT = '50';

/** Limit per market, for the checks. */
export const LIMITS: Readonly<Record<string, string>> = { BTC_USDT: SPOT_LIMIT, BTC_PERP: PERP_LIMIT };
