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
