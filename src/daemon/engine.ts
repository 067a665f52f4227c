/**
 * The engine's parts, built once and shared: trading state, the order pipeline, reconciliation,
 * the flex and credit jobs, venue data, the equity watch and the strategies' inputs.
 */
import type { BotConfig } from '../config/index.js';
import type { Clock } from '../core/clock.js';
import { AuthError, StoreError, errorCode, errorMessage } from '../core/errors.js';
import { BalanceAudit } from '../engine/balance-audit.js';
import { CreditJob } from '../engine/credit-job.js';
import { EquitySources } from '../engine/equity-sources.js';
import { EquityWatch } from '../engine/equity-watch.js';
import { checkEquity, type EquityCheckDeps } from '../engine/equity-check.js';
import { KeptValuation, readEquity, venueHasUnappliedDeals, type ReadEquityDeps } from '../engine/equity-reader.js';
import type { HoldRules } from '../engine/order-holds.js';
import { FillApplier } from '../engine/fill-applier.js';
import { FlexCloser } from '../engine/flex-close.js';
import { FlexJob } from '../engine/flex-job.js';
import { MarketData } from '../engine/market-data.js';
import { OrderJournal } from '../engine/order-journal.js';
import { OrderManager } from '../engine/order-manager.js';
import { ReadModels } from '../engine/read-models.js';
import { Reconciler } from '../engine/reconciler.js';
import { Resolver } from '../engine/resolver.js';
import { StrategyCandles } from '../engine/strategy-candles.js';
import { StrategyInputs } from '../engine/strategy-inputs.js';
import { TradingStateController } from '../engine/trading-state.js';
import type { ExchangeGateway } from '../exchange/gateway.js';
import type { Logger } from '../observability/logger.js';
import type { BotMetrics } from '../observability/metrics.js';
import type { Store } from '../store/index.js';
import { liveHoldRules } from './hold-rules.js';
import { recordingPrices } from './price-recorder.js';

/** What every part of the daemon is built from. */
export interface Base {
  config: BotConfig;
  clock: Clock;
  logger: Logger;
  store: Store;
  metrics: BotMetrics;
}

export interface Engine {
  readonly gateway: ExchangeGateway;
  readonly tradingState: TradingStateController;
  readonly orders: OrderManager;
  readonly fills: FillApplier;
  readonly reconciler: Reconciler;
  /** Where order states move; it tells when an order reached a final state (onOrder). */
  readonly journal: OrderJournal;
  readonly flexJob: FlexJob;
  readonly creditJob: CreditJob;
  readonly market: MarketData;
  /** Reads the futures listing once so its prices fold into candles (the daemon's price poll). */
  pollPrices(): Promise<void>;
  readonly equityWatch: EquityWatch;
  /** The journal's parts of equity (held by open orders, collateral positions, flex). */
  readonly equitySources: EquitySources;
  /** The balance audit (docs/balance-audit.md); the daemon schedules it, the backtest does not. */
  readonly audit: BalanceAudit;
  readonly inputs: StrategyInputs;
  /** The strategies' declared candle windows (docs/strategies.md § Candles): the runners register them, a feed fills them. */
  readonly candles: StrategyCandles;
  /** Halts trading (cancels only), persisted; a second call keeps the first reason. */
  halt(reason: string): void;
  /** Counts an engine fault; a store or auth fault halts trading (a human must act). */
  engineError(err: unknown): void;
  /** Refreshes equity from venue prices and balances (the drawdown kill switch watches it). */
  computeEquity(): Promise<void>;
}

/** What only a backtest tells the engine; the daemon passes none. */
export interface EngineOptions {
  /**
   * True: the store is the run's alone and thrown away at its end (a backtest's, opened
   * `scratch` or `memory`), so what only other readers or later runs read is not written: the
   * account row and the equity curve of each equity check (equity-check.ts), a credit snapshot
   * that repeats the last one (credit-job.ts), a flex pull handed the pages of the last one
   * (flex-job.ts: only the checkpoint's time would move) and the price history, closed minutes and price
   * samples (price-recorder.ts), whose open minutes move only for the markets of declared candle
   * windows (the only readers of them). What the engine itself reads is the same either way.
   */
  throwawayStore?: boolean;
}

function tradingStateOf(b: Base): TradingStateController {
  const ts = new TradingStateController(b.store, b.clock, b.logger);
  b.metrics.setTradingState(ts.get());
  ts.onChange((c) => b.metrics.setTradingState(c.to));
  return ts;
}

function haltWith(ts: TradingStateController, logger: Logger): (reason: string) => void {
  return (reason) => {
    if (ts.get() === 'HALTED') return;
    try {
      ts.set('HALTED', reason);
    } catch (err) {
      logger.error({ err }, 'could not persist HALTED; trading stops in memory only');
    }
  };
}

/**
 * The order pipeline: the journal alone moves order states; the fill applier and the resolver
 * are shared by the order manager (placing, cancelling) and the reconciler (scanning, settling).
 */
function orderPipeline(b: Base, gateway: ExchangeGateway): Pick<Engine, 'orders' | 'fills' | 'reconciler' | 'journal'> {
  const { store, clock, logger } = b;
  const log = logger.child({ part: 'orders' });
  const journal = new OrderJournal(store, clock);
  const fills = new FillApplier(store, clock, log, journal);
  const flex = new FlexCloser({ store, gateway, clock, logger: log, journal });
  const resolver = new Resolver({ store, gateway, clock, logger: log, fills, journal, flex });
  return {
    orders: new OrderManager({ store, gateway, clock, logger: log, journal, resolver, flex }),
    fills,
    journal,
    reconciler: new Reconciler({ store, gateway, clock, logger: logger.child({ part: 'reconcile' }), fills, resolver }),
  };
}

/**
 * `holdRules`: how the venue reserves funds for open orders (daemon/hold-rules.ts): the
 * simulator's own markets in paper mode and the backtest, the live defaults otherwise.
 */
export function buildEngine(b: Base, gateway: ExchangeGateway, holdRules?: HoldRules, options: EngineOptions = {}): Engine {
  const { config, clock, logger, store } = b;
  const part = (name: string): Logger => logger.child({ part: name });
  const tradingState = tradingStateOf(b);
  const halt = haltWith(tradingState, logger);
  const keepRecords = options.throwawayStore !== true;
  const candles = new StrategyCandles((m) => store.candles.openMinute(m));
  // Without records only the declared windows' markets are folded (the runners declare them before any price read).
  const readsOpen = (m: string): boolean => candles.windows.watches(m);
  const recorded = recordingPrices(gateway, store, clock, part('prices'), config.marketData.candleRetentionDays, Object.keys(config.markets), keepRecords, readsOpen);
  const market = new MarketData(recorded, clock, 1_000);
  const equityWatch = new EquityWatch({ store, limits: config.risk, onBreach: halt });
  const rules = holdRules ?? liveHoldRules(config.risk.equityAsset);
  const equitySources = new EquitySources(store, rules);
  const pipeline = orderPipeline(b, gateway);
  const flexJob = new FlexJob({ store, gateway, clock, logger: part('flex') }, { recordEveryRun: keepRecords });
  const creditJob = new CreditJob({ store, gateway, clock, logger: part('credit'), tradingState }, { recordEveryCheck: keepRecords });
  const valuation = new KeptValuation();
  const { toleranceFraction: fraction, toleranceByAsset: byAsset, settleAttempts } = config.audit;
  const audit = new BalanceAudit({
    ...{ store, gateway, clock, logger: part('audit'), reconciler: pipeline.reconciler, flexJob, creditJob, holdRules: rules },
    ...{ tolerance: { fraction, byAsset }, settleAttempts },
  });
  // Built once: a check is run every few seconds (every candle in a backtest).
  const readDeps: ReadEquityDeps = {
    equityAsset: config.risk.equityAsset,
    sources: equitySources,
    fresh: () => market.fresh(),
    unappliedDeals: () => !pipeline.reconciler.noDealSinceScan() && venueHasUnappliedDeals(gateway, store, clock),
    reconcile: () => pipeline.reconciler.reconcileOnce(),
    valuation,
  };
  const equityCheck: EquityCheckDeps = {
    ...{ equityAsset: config.risk.equityAsset, markets: Object.keys(config.markets), store, clock, logger: part('equity'), watch: equityWatch, statusRecords: keepRecords },
    read: () => readEquity(readDeps),
  };
  return {
    gateway,
    tradingState,
    ...pipeline,
    flexJob,
    creditJob,
    market,
    pollPrices: async () => void (await recorded.markets()),
    equityWatch,
    equitySources,
    audit,
    candles,
    inputs: new StrategyInputs({
      candles,
      store,
      read: new ReadModels(store),
      clock,
      markets: config.markets,
      limits: config.risk,
      budgets: new Map(config.strategies.map((s) => [s.id, s.budgetQuote])),
      tradingState: () => tradingState.get(),
      equity: () => equityWatch.current,
      recentFillsLimit: config.plugins.recentFillsLimit,
    }),
    halt,
    engineError: (err) => {
      b.metrics.error(errorCode(err));
      if (err instanceof StoreError || err instanceof AuthError) halt(`${errorCode(err)}: ${errorMessage(err).slice(0, 120)}`);
    },
    computeEquity: () => checkEquity(equityCheck),
  };
}
