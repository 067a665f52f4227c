import { describe, expect, it } from 'vitest';
import { Decimal, p, z } from '../../../src/strategy-api/index.js';
import { withConfiguredMarkets } from '../../../src/strategy-api/market-scope.js';

/** The one message a schema gives for `value`, or null when it accepts it. */
function refusal(schema: z.ZodType, value: unknown): string | null {
  const parsed = schema.safeParse(value);
  return parsed.success ? null : (parsed.error.issues[0]?.message ?? 'no message');
}

function accepted<T>(schema: z.ZodType<T>, value: unknown): T {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new Error(`refused ${JSON.stringify(value)}: ${parsed.error.issues[0]?.message ?? ''}`);
  return parsed.data;
}

describe('p.decimal and its bounded forms', () => {
  it('hands back a Decimal with every digit of the string', () => {
    const d = accepted(p.decimal(), '-12.345678901234567890123');
    expect(Decimal.isDecimal(d)).toBe(true);
    expect(d.toFixed()).toBe('-12.345678901234567890123');
    expect(accepted(p.positive(), '0.00000001').toFixed()).toBe('0.00000001');
    expect(accepted(p.nonNegative(), '0').isZero()).toBe(true);
  });

  it('refuses a JSON number, saying numbers lose precision', () => {
    expect(refusal(p.positive(), 0.1)).toBe('a decimal string such as "0.5", not a JSON number (numbers lose precision)');
  });

  it('refuses other types and a missing value, asking for a decimal string', () => {
    for (const bad of [true, null, undefined, { v: '1' }, ['1']]) expect(refusal(p.decimal(), bad)).toBe('a decimal string such as "0.5"');
  });

  it('refuses malformed strings, naming the plain form', () => {
    for (const bad of ['', ' 1', '1e5', '1,5', '.5', '5.', 'NaN', 'Infinity', '0x10', '+1']) {
      expect(refusal(p.decimal(), bad)).toBe('a plain decimal string such as "0.5" (no exponent, spaces or commas)');
    }
  });

  it('refuses values outside the bounds, naming the bounds', () => {
    expect(refusal(p.positive(), '0')).toBe('a decimal > 0');
    expect(refusal(p.positive(), '-1')).toBe('a decimal > 0');
    expect(refusal(p.nonNegative(), '-0.01')).toBe('a decimal ≥ 0');
    const band = p.decimal({ gte: '1', lte: '2' });
    expect(accepted(band, '1').toFixed()).toBe('1');
    expect(accepted(band, '2').toFixed()).toBe('2');
    expect(refusal(band, '2.0001')).toBe('a decimal ≥ 1 and ≤ 2');
  });

  it('refuses a malformed bound when the schema is built, not when a value comes', () => {
    expect(() => p.decimal({ gt: 'zero' })).toThrow(RangeError);
  });
});

describe('p.percent', () => {
  it('is the percentage itself, > 0 and < 100 by default', () => {
    expect(accepted(p.percent(), '0.5').toFixed()).toBe('0.5');
    expect(refusal(p.percent(), '0')).toBe('a percentage > 0 and < 100');
    expect(refusal(p.percent(), '100')).toBe('a percentage > 0 and < 100');
  });

  it('keeps the default lower bound when only the upper one is given, and the other way round', () => {
    expect(refusal(p.percent({ lt: '50' }), '50')).toBe('a percentage > 0 and < 50');
    expect(refusal(p.percent({ lt: '50' }), '0')).toBe('a percentage > 0 and < 50');
    expect(accepted(p.percent({ gte: '0' }), '0').isZero()).toBe(true);
    expect(refusal(p.percent({ gte: '0' }), '100')).toBe('a percentage ≥ 0 and < 100');
  });

  it('takes a default written as the config would write it', () => {
    const schema = z.strictObject({ slip: p.percent().prefault('0.5') });
    expect(accepted(schema, {}).slip.toFixed()).toBe('0.5');
    expect(accepted(schema, { slip: '2' }).slip.toFixed()).toBe('2');
  });
});

describe('p.int', () => {
  it('accepts whole numbers within inclusive bounds', () => {
    expect(accepted(p.int({ min: 1, max: 20 }), 1)).toBe(1);
    expect(accepted(p.int({ min: 1, max: 20 }), 20)).toBe(20);
    expect(accepted(p.int(), -3)).toBe(-3);
  });

  it('names the bounds for a value outside them', () => {
    expect(refusal(p.int({ min: 1, max: 20 }), 0)).toBe('an integer ≥ 1 and ≤ 20');
    expect(refusal(p.int({ min: 1, max: 20 }), 21)).toBe('an integer ≥ 1 and ≤ 20');
    expect(refusal(p.int({ min: 1_000 }), 999)).toBe('an integer ≥ 1000');
  });

  it('says a fraction is not a whole number and a string is not a JSON number', () => {
    expect(refusal(p.int({ min: 1 }), 1.5)).toBe('a whole number (an integer ≥ 1)');
    expect(refusal(p.int({ min: 1 }), '2')).toBe('an integer ≥ 1 as a JSON number, not a string');
    expect(refusal(p.int({ min: 1 }), null)).toBe('an integer ≥ 1');
  });
});

describe('p.market and p.asset', () => {
  const markets = new Set(['BTC_USDT', 'BTC_PERP']);

  it('accepts a well-formed market name; outside a loader only the pattern applies', () => {
    expect(accepted(p.market(), 'ETH_USDT')).toBe('ETH_USDT');
  });

  it('refuses a malformed name or a non-string with the pattern message, even inside a loader', () => {
    for (const bad of ['btc_usdt', 'BTCUSDT', 'BTC-USDT', '', 42]) {
      expect(withConfiguredMarkets(markets, () => refusal(p.market(), bad))).toBe('a market name such as "BTC_USDT" (upper-case BASE_QUOTE)');
    }
  });

  it('inside a loader, refuses a market that is not configured, listing the configured ones', () => {
    expect(withConfiguredMarkets(markets, () => accepted(p.market(), 'BTC_PERP'))).toBe('BTC_PERP');
    expect(withConfiguredMarkets(markets, () => refusal(p.market(), 'ETH_USDT'))).toBe('a market configured under "markets" (BTC_USDT, BTC_PERP)');
  });

  it('the scope ends with its call, also when the parse throws, and an inner scope restores the outer one', () => {
    expect(() =>
      withConfiguredMarkets(markets, () => {
        throw new Error('parse failed');
      }),
    ).toThrow('parse failed');
    expect(accepted(p.market(), 'ETH_USDT')).toBe('ETH_USDT');
    const inner = new Set(['ETH_USDT']);
    const seen = withConfiguredMarkets(markets, () => [withConfiguredMarkets(inner, () => accepted(p.market(), 'ETH_USDT')), refusal(p.market(), 'ETH_USDT')]);
    expect(seen).toEqual(['ETH_USDT', 'a market configured under "markets" (BTC_USDT, BTC_PERP)']);
  });

  it('checks markets nested anywhere in the params', () => {
    const schema = z.strictObject({ legs: z.array(z.strictObject({ market: p.market() })) });
    const parsed = withConfiguredMarkets(markets, () => schema.safeParse({ legs: [{ market: 'BTC_USDT' }, { market: 'XRP_USDT' }] }));
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.path).toEqual(['legs', 1, 'market']);
  });

  it('asset tickers', () => {
    expect(accepted(p.asset(), 'USDT')).toBe('USDT');
    expect(refusal(p.asset(), 'usdt')).toBe('an asset ticker such as "USDT" (upper-case letters and digits)');
    expect(refusal(p.asset(), 5)).toBe('an asset ticker such as "USDT"');
  });
});
