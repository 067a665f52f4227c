/**
 * Paper mode's simulator markets come from the bot's config: configured rules win, a perpetual is
 * added per base so the futures listing prices every market, and a spot market shares its
 * perpetual's price path.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/index.js';
import { checkPaperStartPrices, paperMarkets } from '../../../src/daemon/paper-venue.js';
import { configErrorOf } from '../../support/config-error.js';
import { validFileConfig } from '../../support/daemon-configs.js';
import { tempDir } from '../../support/temp-dir.js';

function configWith(file: unknown): ReturnType<typeof loadConfig> {
  const dir = tempDir('v4bot-paper-');
  writeFileSync(path.join(dir, 'bot.json'), JSON.stringify(file));
  return loadConfig({ cwd: dir, env: { BOT_CONFIG: 'bot.json' } });
}

describe('paperMarkets', () => {
  it('uses configured rules and start prices, adds the perpetual, and shares one price path', () => {
    const config = configWith({
      markets: { SOL_USDT: { tick: '0.05', step: '0.001', minAmount: '0.002', minTotalQuote: '7', maxPositionBase: '1' } },
      strategies: [],
      risk: { maxNotionalPerOrderQuote: '500' },
      paper: { startPrices: { SOL_USDT: '150' } },
    });
    const byName = new Map(paperMarkets(config).map((m) => [m.name, m]));
    expect([...byName.keys()].sort()).toEqual(['SOL_PERP', 'SOL_USDT']);
    expect(byName.get('SOL_USDT')).toMatchObject({ pricePath: 'SOL', startPrice: '150', tick: '0.05', step: '0.001', minAmount: '0.002', minTotal: '7' });
    // The perpetual has no rules of its own here: generic rules, and the spot market's start price.
    expect(byName.get('SOL_PERP')).toMatchObject({ pricePath: 'SOL', startPrice: '150', tick: '0.01', step: '0.0001', minAmount: '0.0001', minTotal: '5' });
  });

  it("falls back to the simulator's default market of the same name", () => {
    const config = configWith({
      markets: { BTC_PERP: { tick: '0.1', step: '0.0001', minAmount: '0.0001', minTotalQuote: '5.05', maxPositionBase: '0.05' } },
      strategies: [],
      risk: { maxNotionalPerOrderQuote: '500' },
    });
    const [perp] = paperMarkets(config);
    expect(perp?.name).toBe('BTC_PERP');
    expect(perp?.tick).toBe('0.1');
    expect(Number(perp?.startPrice)).toBeGreaterThan(100);
  });

  it('a configured market without a start price is refused naming the key, not priced at 100', () => {
    const config = configWith({
      markets: {
        SOL_USDT: { tick: '0.05', step: '0.001', minAmount: '0.002', minTotalQuote: '7', maxPositionBase: '1' },
        XRP_USDT: { tick: '0.0001', step: '1', minAmount: '1', minTotalQuote: '5', maxPositionBase: '100' },
      },
      strategies: [],
      risk: { maxNotionalPerOrderQuote: '500' },
      paper: { startPrices: { XRP_USDT: '0.5' } },
    });
    for (const attempt of [() => checkPaperStartPrices(config), () => paperMarkets(config)]) {
      const err = configErrorOf(attempt);
      expect(err.context['keys']).toEqual(['paper.startPrices.SOL_USDT']);
      expect(err.message).toContain('paper.startPrices.SOL_USDT: expected a start price for the configured market SOL_USDT');
    }
  });

  it('a configured perpetual takes its spot market\'s start price', () => {
    const config = configWith({
      markets: { SOL_PERP: { tick: '0.01', step: '0.01', minAmount: '0.01', minTotalQuote: '5', maxPositionBase: '1' } },
      strategies: [],
      risk: { maxNotionalPerOrderQuote: '500' },
      paper: { startPrices: { SOL_USDT: '150' } },
    });
    expect(paperMarkets(config).find((m) => m.name === 'SOL_PERP')?.startPrice).toBe('150');
  });

  it('the backtest supplies its own start prices: no configured one needed', () => {
    const config = configWith({
      markets: { SOL_USDT: { tick: '0.05', step: '0.001', minAmount: '0.002', minTotalQuote: '7', maxPositionBase: '1' } },
      strategies: [],
      risk: { maxNotionalPerOrderQuote: '500' },
    });
    expect(paperMarkets(config, () => '42').map((m) => m.startPrice)).toEqual(['42', '42']);
  });

  it('the shipped config and the shared test config have a start price for every market', () => {
    expect(() => checkPaperStartPrices(loadConfig({ cwd: process.cwd(), env: { ENV_FILE: 'config/paper.env' } }))).not.toThrow();
    expect(() => checkPaperStartPrices(configWith(validFileConfig()))).not.toThrow();
  });
});
