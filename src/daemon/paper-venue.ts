/**
 * Paper mode's venue: the embedded simulator's markets built from the bot's configuration, and
 * where its state file lives (the paper account persists: docs/paper-account.md). Wiring code,
 * like the rest of src/daemon/: never used in live mode.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { configError, type BotConfig } from '../config/index.js';
import { ConfigError } from '../core/errors.js';
import { defaultMarkets, type MarketOptions } from '../simulator/index.js';
import type { Store } from '../store/index.js';

/** The configured markets, plus a perpetual per base so the futures listing prices every market. */
export function paperMarketNames(config: BotConfig): string[] {
  const names = new Set(Object.keys(config.markets));
  for (const name of [...names]) {
    const [base] = name.split('_');
    if (!name.endsWith('_PERP') && base !== undefined) names.add(`${base}_PERP`);
  }
  return [...names];
}

/**
 * Start price of a paper market: its own `paper.startPrices` entry; for a perpetual, that of its
 * `<BASE>_USDT` spot market (one price path); else the simulator's built-in market of that name
 * (BTC_USDT, ETH_USDT, BTC_PERP, ETH_PERP). Null when none of those has one: a made-up price
 * would put the paper market nowhere near the strategy's idea of it.
 */
function knownStartPrice(config: BotConfig, name: string, builtIn: MarketOptions | undefined): string | null {
  const prices = config.paper.startPrices;
  const spot = name.endsWith('_PERP') ? prices[name.replace(/_PERP$/, '_USDT')] : undefined;
  return prices[name]?.toFixed() ?? spot?.toFixed() ?? builtIn?.startPrice ?? null;
}

/**
 * Paper mode needs a start price for every configured market: refused with the key to set
 * (`paper.startPrices.SOL_USDT`), exit 2 before the venue starts.
 */
export function checkPaperStartPrices(config: BotConfig): void {
  const builtIn = new Map(defaultMarkets().map((m) => [m.name, m]));
  const missing = Object.keys(config.markets).filter((name) => knownStartPrice(config, name, builtIn.get(name)) === null);
  if (missing.length === 0) return;
  throw configError(
    config.configPath,
    missing.map((name) => ({
      key: `paper.startPrices.${name}`,
      expected: `a start price for the configured market ${name} in paper mode (a decimal string in quote, e.g. "25.5")`,
      found: 'nothing (the key is missing)',
    })),
  );
}

/** Rules of a market: the configured ones, else the simulator's default market of that name, else generic ones. */
function paperRules(config: BotConfig, name: string, fallback: MarketOptions | undefined): Pick<MarketOptions, 'tick' | 'step' | 'minAmount' | 'minTotal'> {
  const rules = config.markets[name];
  if (rules !== undefined) {
    return { tick: rules.tick.toFixed(), step: rules.step.toFixed(), minAmount: rules.minAmount.toFixed(), minTotal: rules.minTotalQuote.toFixed() };
  }
  return { tick: fallback?.tick ?? '0.01', step: fallback?.step ?? '0.0001', minAmount: fallback?.minAmount ?? '0.0001', minTotal: fallback?.minTotal ?? '5' };
}

/**
 * Simulator markets for paper mode, built from the bot's configuration. `startPriceOf` overrides
 * the configured start prices (the backtest starts each market at its first CSV price).
 */
export function paperMarkets(config: BotConfig, startPriceOf?: (name: string) => string): MarketOptions[] {
  if (startPriceOf === undefined) checkPaperStartPrices(config);
  const defaults = new Map(defaultMarkets().map((m) => [m.name, m]));
  const names = paperMarketNames(config);
  const configured = (name: string): string | null => knownStartPrice(config, name, defaults.get(name));
  // A perpetual added for a configured market's base starts where that market does (one price path).
  const startOf = (name: string): string => {
    const own = startPriceOf?.(name) ?? configured(name);
    if (own !== null) return own;
    const base = name.split('_')[0];
    const sibling = names.find((n) => n !== name && n.split('_')[0] === base && configured(n) !== null);
    if (sibling === undefined) throw new ConfigError(`paper.startPrices.${name}: expected a start price for the market, found none`);
    return configured(sibling) as string;
  };
  return names.map((name) => {
    const fallback = defaults.get(name);
    return {
      name,
      // A spot market and its perpetual follow one price path, so a spot strategy priced from
      // the futures listing quotes around the spot market's own price.
      pricePath: name.split('_')[0] ?? name,
      startPrice: startOf(name),
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
