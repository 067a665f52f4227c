import { describe, expect, it } from 'vitest';
import { Decimal } from '../../../src/core/decimal.js';
import { StrategyError } from '../../../src/core/errors.js';
import { intents, parseIntents } from '../../../src/strategy-api/intents.js';

const d = (s: string): Decimal => new Decimal(s);

describe('parseIntents', () => {
  it('accepts valid intents and returns Decimals', () => {
    const out = parseIntents(
      [
        intents.placeLimits([{ market: 'BTC_USDT', side: 'buy', amount: '0.001', price: d('60000') }]),
        intents.placeCollateral({ market: 'BTC_PERP', side: 'buy', amount: d('0.01'), price: d('100'), stopLoss: d('90'), takeProfit: d('120') }),
        intents.placeCollateral({ market: 'BTC_PERP', side: 'sell', amount: d('0.01'), price: d('100'), exit: true }),
        intents.cancel('t1-a'),
        intents.cancelAll(),
        intents.cancelAll('BTC_USDT'),
        intents.closeFlex('plan-1'),
      ],
      't1',
    );
    expect(out).toHaveLength(7);
    const first = out[0];
    expect(first?.type === 'placeLimits' && first.orders[0]?.amount.eq('0.001')).toBe(true);
  });

  it('treats undefined as no intents', () => {
    expect(parseIntents(undefined, 't1')).toEqual([]);
  });

  it.each([
    ['not an array', { type: 'cancelAll' }],
    ['unknown type', [{ type: 'withdraw', amount: '1' }]],
    ['a JS number amount', [{ type: 'placeLimits', orders: [{ market: 'BTC_USDT', side: 'buy', amount: 0.1, price: '1' }] }]],
    ['negative price', [{ type: 'placeLimits', orders: [{ market: 'BTC_USDT', side: 'buy', amount: '1', price: '-1' }] }]],
    ['empty bulk', [{ type: 'placeLimits', orders: [] }]],
    ['extra key', [{ type: 'cancel', clientOrderId: 'a', now: true }]],
    ['entry without stop-loss', [{ type: 'placeCollateral', market: 'BTC_PERP', side: 'buy', amount: '1', price: '100' }]],
    ['stop-loss on the wrong side', [{ type: 'placeCollateral', market: 'BTC_PERP', side: 'buy', amount: '1', price: '100', stopLoss: '110' }]],
    ['take-profit on the wrong side', [{ type: 'placeCollateral', market: 'BTC_PERP', side: 'sell', amount: '1', price: '100', stopLoss: '110', takeProfit: '120' }]],
    ['bad market', [{ type: 'cancelAll', market: 'btc' }]],
    ['too many intents', Array.from({ length: 51 }, () => ({ type: 'cancelAll' }))],
  ])('refuses %s as bad_intent', (_name, value) => {
    try {
      parseIntents(value, 't1');
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(StrategyError);
      expect((err as StrategyError).kind).toBe('bad_intent');
    }
  });
});

describe('parseIntents messages name the field, the expectation and the value found', () => {
  const limit = (over: Record<string, unknown>) => [{ type: 'placeLimits', orders: [{ market: 'BTC_USDT', side: 'buy', amount: '1', price: '100', ...over }] }];
  const message = (value: unknown): string => {
    try {
      parseIntents(value, 't1');
    } catch (err) {
      return (err as StrategyError).message;
    }
    throw new Error('expected a refusal');
  };

  it.each([
    ['a JS number price', limit({ price: 12 }), 'intents[0].orders[0].price: expected a decimal string such as "0.01" or a Decimal, found 12'],
    ['a missing price', limit({ price: undefined }), 'intents[0].orders[0].price: expected a decimal string such as "0.01" or a Decimal, found nothing (the key is missing)'],
    ['an exponent', limit({ amount: '1e5' }), 'intents[0].orders[0].amount: expected a plain decimal string such as "0.01", found "1e5"'],
    ['a negative price', limit({ price: '-1' }), 'intents[0].orders[0].price: expected a positive decimal, found "-1"'],
    ['an unknown type', [{ type: 'withdraw', amount: '1' }], 'intents[0].type: expected one of "placeLimits", "placeCollateral", "cancel", "cancelAll", "closeFlex", found "withdraw"'],
    ['an unknown key', [{ type: 'cancel', clientOrderId: 'a', now: true }], 'intents[0].now: expected no such key (unknown keys are refused), found an unknown key'],
    ['not an array', { type: 'cancelAll' }, 'intents: expected an array, found {"type":"cancelAll"}'],
    ['a bad market', [{ type: 'cancelAll' }, { type: 'cancelAll', market: 'btc' }], 'intents[1].market: expected a market name such as BTC_USDT, found "btc"'],
    [
      'an entry without a stop-loss',
      [{ type: 'placeCollateral', market: 'BTC_PERP', side: 'buy', amount: '1', price: '100' }],
      'intents[0].stopLoss: expected a stopLoss on an entry (or exit: true), found nothing (the key is missing)',
    ],
  ])('%s', (_name, value, expected) => {
    const text = message(value);
    expect(text).toBe(`strategy t1 returned an invalid intent: ${expected}`);
    expect(text).not.toMatch(/expected expected|Invalid input/);
  });
});
