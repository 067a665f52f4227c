/**
 * The operator console: the dashboard, its live feed and the control API, built once the engine
 * runs and served by the daemon's HTTP server (src/observability/health.ts `routes`). The
 * composition root (src/daemon/console.ts) hands in the engine's parts as the narrow shapes
 * below, so this layer never reaches into the daemon.
 */
import type { Clock } from '../core/clock.js';
import { ReadModels } from '../engine/read-models.js';
import type { Logger } from '../observability/logger.js';
import type { Store } from '../store/index.js';
import type { OrderRecord } from '../model/journal.js';
import { CandleChart } from './candles.js';
import { newRunToken, removeTokenFile, writeTokenFile } from './auth.js';
import { CANCELLABLE, ControlService, type ControlledRunner } from './control.js';
import { EventFeed } from './events.js';
import { ConsoleHttp } from './http.js';
import type { PauseRegistry } from './pauses.js';
import { buildConsoleState, type StateSources } from './state.js';

export { PauseRegistry } from './pauses.js';
export { ConsoleHttp } from './http.js';
export { tokensEqual, readTokenFile, tokenFilePath, TOKEN_FILE } from './auth.js';
export { tradedMarkets } from './candles.js';
export { CONTROL_ACTIONS, isControlAction, type ControlAction } from './control.js';

export interface ConsoleRunner extends ControlledRunner {
  readonly id: string;
}

export interface ConsoleDeps {
  mode: 'paper' | 'live';
  dataDir: string;
  /** The server binds to loopback only. */
  loopbackOnly: boolean;
  /** `BOT_CONTROL_TOKEN`, revealed; null: this run makes its own (written to the data dir 0600). */
  configuredToken: string | null;
  equityAsset: string;
  /** The configured markets (their tick and step). */
  markets: StateSources['markets'];
  /** The markets the strategies trade (`tradedMarkets`): one candle chart each; none when absent. */
  tradedMarkets?: readonly string[];
  clock: Clock;
  logger: Logger;
  store: Store;
  pauses: PauseRegistry;
  runners: ReadonlyMap<string, ConsoleRunner>;
  strategies: readonly { id: string; module: string }[];
  tradingState: { get(): string; reason(): string; set(state: 'ACTIVE', reason: string): void; onChange(l: () => void): unknown };
  halt(reason: string): void;
  resetPeak(): void;
  onFill(listener: () => void): void;
  /** `OrderManager.cancelAll` on the strategy's lane. */
  cancelAll(strategyId: string): Promise<{ status: string }[]>;
  setQuarantined(strategyId: string, on: boolean): void;
  source: Pick<StateSources, 'jobs' | 'reconcile' | 'prices' | 'rateLimits' | 'requestQueue'>;
}

export interface Console {
  readonly http: ConsoleHttp;
  readonly feed: EventFeed;
  /** Where this run's token is (null when BOT_CONTROL_TOKEN is configured). */
  readonly tokenFile: string | null;
  close(): void;
}

export function createConsole(d: ConsoleDeps): Console {
  const log = d.logger.child({ part: 'console' });
  const token = d.configuredToken ?? newRunToken();
  // A stale file from an earlier run without a configured token must not outlive it.
  const tokenFile = d.configuredToken === null ? writeTokenFile(d.dataDir, token) : (removeTokenFile(d.dataDir), null);
  const read = new ReadModels(d.store);
  const chart = new CandleChart({
    store: d.store, now: () => d.clock.now(), markets: d.tradedMarkets ?? [], increments: d.markets, prices: () => d.source.prices(),
  });
  const src: StateSources = {
    ...d.source,
    mode: d.mode,
    equityAsset: d.equityAsset,
    markets: d.markets,
    chartMarkets: chart.markets,
    store: d.store,
    read,
    pauses: d.pauses,
    now: () => d.clock.now(),
    tradingState: () => ({ state: d.tradingState.get(), reason: d.tradingState.reason() }),
    strategies: () => d.strategies.map((s) => ({ id: s.id, module: s.module, quarantined: d.runners.get(s.id)?.quarantined === true })),
  };
  const state = async (): Promise<string> => JSON.stringify(await buildConsoleState(src));
  const quarantines = (): string => [...d.runners.values()].filter((r) => r.quarantined).map((r) => r.id).join(',');
  const feed = new EventFeed({
    clock: d.clock,
    logger: log,
    state,
    fingerprint: () => `${d.store.console.fingerprint()}|${d.tradingState.get()}|${d.pauses.ids().join(',')}|${quarantines()}`,
  });
  const control = new ControlService({
    clock: d.clock,
    logger: log,
    repo: d.store.console,
    pauses: d.pauses,
    runners: d.runners,
    tradingState: d.tradingState,
    halt: d.halt,
    resetPeak: d.resetPeak,
    cancellable: (): OrderRecord[] => d.store.orders.listByState(CANCELLABLE),
    cancelAll: d.cancelAll,
    setQuarantined: d.setQuarantined,
    changed: () => feed.changed(),
  });
  d.tradingState.onChange(() => feed.changed());
  d.onFill(() => feed.changed());
  const http = new ConsoleHttp({
    token,
    tokenKind: d.configuredToken === null ? 'run' : 'configured',
    loopbackOnly: d.loopbackOnly,
    autoSession: d.loopbackOnly && d.mode === 'paper',
    mode: d.mode,
    control,
    feed,
    state,
    candles: (params) => chart.answer(params),
    logger: log,
  });
  return {
    http,
    feed,
    tokenFile,
    close: () => {
      feed.close();
      if (tokenFile !== null) removeTokenFile(d.dataDir);
    },
  };
}
