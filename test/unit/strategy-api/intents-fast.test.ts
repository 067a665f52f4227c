/**
 * The schema-free parse of the common hook results (intents-fast.ts) gives exactly what the
 * schema gives, and leaves every other input (invalid or uncommon) to the schema.
 */
import { describe, expect, it } from 'vitest';
import { Decimal } from '../../../src/core/decimal.js';
import { commonIntents } from '../../../src/strategy-api/intents-fast.js';
import { intents, intentsSchema, MAX_INTENTS_PER_CALL, parseIntents } from '../../../src/strategy-api/intents.js';

const d = (s: string): Decimal => new Decimal(s);
const order = { market: 'BTC_USDT', side: 'buy' as const, amount: '0.001', price: d('60000') };

/** Decimals as their strings, so that equal values compare equal whatever their history. */
const plain = (v: unknown): unknown => JSON.parse(JSON.stringify(v));

describe('commonIntents', () => {
  it.each([
    ['no intent', []],
    ['one order', [intents.placeLimits([{ market: 'BTC_USDT', side: 'buy', amount: '0.001', price: d('60000') }])]],
    [
      'orders with and without postOnly, two intents',
      [
        intents.placeLimits([
          { market: 'BTC_USDT', side: 'sell', amount: d('0.5'), price: '61000.10', postOnly: true },
          { market: 'ETH_USDT', side: 'buy', amount: '1', price: '3000', postOnly: false },
        ]),
        intents.placeLimits([{ market: 'BTC_USDT', side: 'buy', amount: '0.000001', price: '1' }]),
      ],
    ],
  ])('%s: the schema parse, Decimals copied', (_name, value) => {
    const fast = commonIntents(value, MAX_INTENTS_PER_CALL);
    expect(fast).toBeDefined();
    expect(plain(fast)).toEqual(plain(intentsSchema.parse(value)));
    expect(plain(parseIntents(value, 't1'))).toEqual(plain(fast));
    const first = fast?.[0];
    if (first?.type === 'placeLimits') {
      expect(first.orders[0]?.amount).toBeInstanceOf(Decimal);
      expect(first.orders[0]?.price).not.toBe((value[0] as { orders: { price: unknown }[] }).orders[0]?.price);
    }
  });

  it.each([
    ['not an array', { type: 'placeLimits', orders: [order] }],
    ['too many intents', Array.from({ length: MAX_INTENTS_PER_CALL + 1 }, () => intents.placeLimits([order]))],
    ['another intent', [intents.cancelAll()]],
    ['no orders', [{ type: 'placeLimits', orders: [] }]],
    ['101 orders', [{ type: 'placeLimits', orders: Array.from({ length: 101 }, () => order) }]],
    ['an unknown intent key', [{ type: 'placeLimits', orders: [order], extra: 1 }]],
    ['an unknown order key', [intents.placeLimits([{ ...order, ioc: true } as never])]],
    ['a bad market', [intents.placeLimits([{ ...order, market: 'btc_usdt' }])]],
    ['a bad side', [intents.placeLimits([{ ...order, side: 'long' as never }])]],
    ['a number amount', [intents.placeLimits([{ ...order, amount: 1 as never }])]],
    ['an exponent price', [intents.placeLimits([{ ...order, price: '1e3' }])]],
    ['a zero amount', [intents.placeLimits([{ ...order, amount: '0' }])]],
    ['a negative Decimal price', [intents.placeLimits([{ ...order, price: d('-1') }])]],
    ['an infinite Decimal', [intents.placeLimits([{ ...order, price: d('Infinity') }])]],
    ['postOnly not a boolean', [intents.placeLimits([{ ...order, postOnly: 'yes' as never }])]],
    ['postOnly undefined', [intents.placeLimits([{ ...order, postOnly: undefined }])]],
    ['an order of a class', [{ type: 'placeLimits', orders: [Object.assign(new (class O {})(), order)] }]],
  ])('%s: left to the schema', (_name, value) => {
    expect(commonIntents(value, MAX_INTENTS_PER_CALL)).toBeUndefined();
  });
});
