/**
 * The candle endpoint's query rules and the traded markets (src/console/candles.ts).
 */
import { describe, expect, it } from 'vitest';
import { countLimit, DEFAULT_COUNT, parseCandleQuery, tradedMarkets } from '../../../src/console/candles.js';

const q = (s: string): ReturnType<typeof parseCandleQuery> => parseCandleQuery(new URLSearchParams(s), ['BTC_USDT', 'BTC_PERP']);

describe('parseCandleQuery', () => {
  it('defaults to 15m and 200 candles, and serves a count above the timeframe bound at the bound', () => {
    expect(q('market=BTC_PERP')).toEqual({ market: 'BTC_PERP', timeframe: '15m', count: DEFAULT_COUNT });
    expect(q('market=BTC_USDT&timeframe=1d')).toEqual({ market: 'BTC_USDT', timeframe: '1d', count: 30 });
    expect(q('market=BTC_USDT&timeframe=1m&count=1')).toEqual({ market: 'BTC_USDT', timeframe: '1m', count: 1 });
  });

  it('names what is wrong', () => {
    expect(q('')).toBe('market is required');
    expect(q('market=')).toBe('market is required');
    expect(q('market=XRP_USDT')).toBe('market must be one of the traded markets (BTC_USDT, BTC_PERP)');
    expect(parseCandleQuery(new URLSearchParams('market=BTC_PERP'), [])).toBe('market must be one of the traded markets (none configured)');
    expect(q('market=BTC_PERP&timeframe=1w')).toBe('timeframe must be one of 1m, 5m, 15m, 1h, 4h, 1d');
    for (const c of ['0', '501', '1e2', ' 5', '05', '99999']) expect(q(`market=BTC_PERP&count=${encodeURIComponent(c)}`)).toBe('count must be a whole number from 1 to 500');
  });

  it('bounds the minutes one read folds to 30 days (the default candle retention)', () => {
    expect([countLimit('1m'), countLimit('5m'), countLimit('15m'), countLimit('1h'), countLimit('4h'), countLimit('1d')]).toEqual([500, 500, 500, 500, 180, 30]);
  });
});

describe('tradedMarkets', () => {
  it('keeps the configured markets that any strategy names anywhere in its params, in configuration order', () => {
    const configured = ['BTC_USDT', 'BTC_PERP', 'ETH_USDT', 'ETH_PERP'];
    expect(tradedMarkets([{ market: 'BTC_PERP' }, { quoteAsset: 'USDT' }, { legs: [{ pair: 'ETH_USDT' }] }, { market: 'DOGE_USDT' }], configured)).toEqual(['BTC_PERP', 'ETH_USDT']);
    expect(tradedMarkets([{ minQuoteBalance: '1000' }, null, 5], configured)).toEqual([]);
  });
});
