/**
 * Paper mode's venue: the embedded simulator's markets built from the bot's configuration, and
 * where its state file lives (the paper account persists: docs/paper-account.md). Wiring code,
 * like the rest of src/daemon/: never used in live mode.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { BotConfig } from '../config/index.js';
import { ConfigError } from '../core/errors.js';
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

/** The embedded venue's state file in the data dir, beside the bot's store (docs/paper-account.md). */
export const PAPER_STATE_FILE = 'paper-venue.sqlite';

export function paperStateFile(dataDir: string): string {
  return path.join(path.resolve(dataDir), PAPER_STATE_FILE);
}

/**
 * A journal without its paper account: the data dir holds orders or fills but no paper venue
 * file (a data dir of a version whose paper venue kept no state, or the file was deleted). Those
 * orders and positions exist nowhere, and trading on would count them (the "ghost" positions of
 * docs/paper-account.md). Refused with the two ways out, before the venue starts.
 */
export function refuseJournalWithoutAccount(store: Store, dataDir: string): void {
  if (existsSync(paperStateFile(dataDir))) return;
  const orders = Object.values(store.orders.countByState()).reduce((a, b) => a + b, 0);
  const fills = store.fills.count();
  if (orders === 0 && fills === 0) return;
  throw new ConfigError(
    `BOT_DATA_DIR: ${path.resolve(dataDir)} holds a paper journal (${orders} orders, ${fills} fills) but no ${PAPER_STATE_FILE}: ` +
      'its paper account is gone (a data dir of a version whose paper venue kept no state, or the file was deleted). ' +
      'Start a fresh paper account with `npm start -- --reset-paper` (moves the old journal to archive/), or use another BOT_DATA_DIR',
    { dataDir: path.resolve(dataDir), orders, fills },
  );
}
