/**
 * Paper mode's venue: the embedded simulator's markets built from the bot's configuration, and
 * the journal clean-up after a restart (the simulator keeps no state between runs). Wiring code,
 * like the rest of src/daemon/: never used in live mode.
 */
import type { BotConfig } from '../config/index.js';
import type { Clock } from '../core/clock.js';
import { OrderJournal } from '../engine/order-journal.js';
import { LIVE_STATES } from '../engine/order-state.js';
import type { Logger } from '../observability/logger.js';
import { defaultMarkets, type MarketOptions } from '../simulator/index.js';
import type { Store } from '../store/index.js';

/** The configured markets, plus a perpetual per base so the futures listing prices every market. */
function paperMarketNames(config: BotConfig): string[] {
  const names = new Set(Object.keys(config.markets));
  for (const name of [...names]) {
    const [base] = name.split('_');
    if (!name.endsWith('_PERP') && base !== undefined) names.add(`${base}_PERP`);
  }
  return [...names];
}

function startPrice(config: BotConfig, name: string, fallback: MarketOptions | undefined): string {
  const prices = config.paper.startPrices;
  const spot = prices[name.replace(/_PERP$/, '_USDT')];
  return prices[name]?.toFixed() ?? fallback?.startPrice ?? spot?.toFixed() ?? '100';
}

/** Rules of a market: the configured ones, else the simulator's default market of that name, else generic ones. */
function paperRules(config: BotConfig, name: string, fallback: MarketOptions | undefined): Pick<MarketOptions, 'tick' | 'step' | 'minAmount' | 'minTotal'> {
  const rules = config.markets[name];
  if (rules !== undefined) {
    return { tick: rules.tick.toFixed(), step: rules.step.toFixed(), minAmount: rules.minAmount.toFixed(), minTotal: rules.minTotalQuote.toFixed() };
  }
  return { tick: fallback?.tick ?? '0.01', step: fallback?.step ?? '0.0001', minAmount: fallback?.minAmount ?? '0.0001', minTotal: fallback?.minTotal ?? '5' };
}

/** Simulator markets for paper mode, built from the bot's configuration. */
export function paperMarkets(config: BotConfig): MarketOptions[] {
  const defaults = new Map(defaultMarkets().map((m) => [m.name, m]));
  return paperMarketNames(config).map((name) => {
    const fallback = defaults.get(name);
    return {
      name,
      // A spot market and its perpetual follow one price path, so a spot strategy priced from
      // the futures listing quotes around the spot market's own price.
      pricePath: name.split('_')[0] ?? name,
      startPrice: startPrice(config, name, fallback),
      ...paperRules(config, name, fallback),
      volatility: config.paper.volatility.toFixed(),
      volumePerStep: config.paper.volumePerStep.toFixed(),
    };
  });
}

/**
 * The embedded venue keeps no state across restarts, so orders a previous paper session left
 * open no longer exist anywhere: close them in the journal (with their protective legs) rather
 * than let strategies and the risk gate count ghosts. Never runs in live mode.
 */
export function closePaperGhosts(store: Store, clock: Clock, logger: Logger): void {
  const ghosts = store.orders.listByState(LIVE_STATES);
  const legs = store.children.live();
  if (ghosts.length === 0 && legs.length === 0) return;
  const now = clock.now();
  const journal = new OrderJournal(store, clock);
  store.tx(() => {
    for (const o of ghosts) journal.move(o.clientOrderId, 'CANCELLED', 'paper_venue_restarted');
    for (const c of legs) store.children.update(c.id, { state: 'cancelled' }, now);
    store.alerts.add('paper_reset', 'orders', `${ghosts.length} orders of a previous paper session closed`, now);
  });
  logger.warn({ orders: ghosts.length, legs: legs.length }, 'paper mode: closed orders of the previous simulator session');
}