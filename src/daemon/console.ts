/**
 * Wires the operator console (src/console/) to the engine: its parts as the console's narrow
 * shapes, control actions through the same paths the daemon uses (strategy lanes, trading state,
 * the order manager, the runners' guards).
 */
import { releaseQuarantine } from '../engine/status-records.js';
import { isLoopbackBind } from '../config/index.js';
import { createConsole, tradedMarkets, type Console, type PauseRegistry } from '../console/index.js';
import type { ApiClient } from '../exchange/api-client.js';
import type { Scheduler } from '../engine/scheduler.js';
import type { LoadedStrategy } from '../strategy-api/host.js';
import type { Base, Engine } from './engine.js';
import type { ReconcileJob } from './jobs.js';
import { laneOf, type Runners } from './runners.js';

export interface ConsoleParts {
  engine: Engine;
  scheduler: Scheduler;
  runners: Runners;
  reconcile: ReconcileJob;
  client: ApiClient;
  strategies: readonly LoadedStrategy[];
  pauses: PauseRegistry;
}

/** The console, or null when the HTTP server is off (BOT_HTTP_PORT=0). */
export function buildConsole(b: Base, p: ConsoleParts): Console | null {
  if (b.config.httpPort <= 0) return null;
  const { engine, scheduler, runners } = p;
  return createConsole({
    mode: b.config.mode,
    dataDir: b.config.dataDir,
    loopbackOnly: isLoopbackBind(b.config.httpHost),
    configuredToken: b.config.controlToken?.reveal() ?? null,
    equityAsset: b.config.risk.equityAsset,
    markets: b.config.markets,
    tradedMarkets: tradedMarkets(p.strategies.map((s) => s.params), Object.keys(b.config.markets)),
    clock: b.clock,
    logger: b.logger,
    store: b.store,
    pauses: p.pauses,
    runners,
    strategies: p.strategies.map((s) => ({ id: s.id, module: s.module })),
    tradingState: engine.tradingState,
    halt: engine.halt,
    resetPeak: () => engine.equityWatch.resetPeak(),
    onFill: (listener) => engine.reconciler.onFill(() => listener()),
    // On the strategy's lane, so the cancels never overlap its tick; strategies no longer
    // configured have no lane and are cancelled directly.
    cancelAll: async (id) => {
      if (!runners.has(id)) return engine.orders.cancelAll(id);
      let out: { status: string }[] = [];
      await scheduler.enqueue(laneOf(id), `cancel-all:${id}`, async () => void (out = await engine.orders.cancelAll(id)));
      return out;
    },
    setQuarantined: (id, on) => {
      b.metrics.setQuarantined(id, on);
      // `npm run status` lists quarantines from the store: a lifted one leaves that list too.
      if (!on) releaseQuarantine(b.store.meta, id);
    },
    source: {
      jobs: () => scheduler.report(),
      reconcile: () => p.reconcile.state,
      prices: async () => (await engine.market.get()).prices,
      rateLimits: () => p.client.rateLimitStatus(),
      requestQueue: () => ({ ...p.client.requestQueueHealth() }),
    },
  });
}
