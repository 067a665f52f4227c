/**
 * The schema-free parse of the common hook results (intents-fast.ts) gives exactly what the
 * schema gives, and leaves every other input (invalid or uncommon) to the schema.
 */
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
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
    ['an unknown intent', [{ type: 'withdraw', amount: '1' }]],
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

/** Decimals as `D:<string>` and every key in its order: the fast parse must give the schema's output exactly. */
const exact = (v: unknown): unknown => JSON.parse(JSON.stringify(v, (_k, x: unknown) => (Decimal.isDecimal(x) ? `D:${(x as Decimal).toString()}` : x)));
const keyOrders = (v: unknown): string[] => (Array.isArray(v) ? v.flatMap(keyOrders) : typeof v === 'object' && v !== null && !Decimal.isDecimal(v) ? [Object.keys(v).join(','), ...Object.values(v).flatMap(keyOrders)] : []);

/** Values a field may hold: valid ones and near misses of every kind. */
const decimalish = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom('100', '99.5', '100.5', '0.0001', '120', '80') },
  { weight: 4, arbitrary: fc.constantFrom('100', '90', '110', '100.00').map((x) => new Decimal(x)) },
  { weight: 1, arbitrary: fc.constantFrom<unknown>('0', '-1', '1e3', ' 1', new Decimal('-5'), new Decimal('Infinity'), new Decimal('NaN'), 1, undefined, null, true) },
);
const ABSENT = Symbol('absent');
const maybe = <T>(arb: fc.Arbitrary<T>): fc.Arbitrary<T | typeof ABSENT> => fc.oneof(fc.constant(ABSENT), arb);
const objectOf = (fields: Record<string, unknown>): Record<string, unknown> => Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== ABSENT));
const marketish = fc.oneof({ weight: 5, arbitrary: fc.constantFrom('BTC_PERP', 'BTC_USDT') }, { weight: 1, arbitrary: fc.constantFrom<unknown>('btc_usdt', 'BTC', '', 7) });
const flag = fc.oneof({ weight: 5, arbitrary: fc.boolean() }, { weight: 1, arbitrary: fc.constantFrom<unknown>(undefined, 'yes') });
const extra = fc.oneof({ weight: 6, arbitrary: fc.constant(ABSENT) }, { weight: 1, arbitrary: fc.constant(1) });

const collateral = fc
  .record({
    market: marketish,
    side: fc.constantFrom('buy', 'sell', 'sell', 'buy', 'long'),
    amount: decimalish,
    price: decimalish,
    stopLoss: maybe(decimalish),
    takeProfit: maybe(decimalish),
    exit: maybe(flag),
    postOnly: maybe(flag),
    ioc: maybe(flag),
    extra,
  })
  .chain((f) => fc.shuffledSubarray(Object.keys(f), { minLength: Object.keys(f).length }).map((keys) => objectOf({ type: 'placeCollateral', ...Object.fromEntries(keys.map((k) => [k, f[k as keyof typeof f]])) })));
const others = fc.oneof(
  fc.record({ clientOrderId: fc.constantFrom('g1-abc', 'a.b_c-9', '', 'x'.repeat(33), 'bad id', 5), extra }).map((f) => objectOf({ type: 'cancel', ...f })),
  fc.record({ market: maybe(marketish), extra }).map((f) => objectOf({ type: 'cancelAll', ...f })),
  fc.record({ plan: fc.constantFrom('plan-1', '', 'p'.repeat(64), 'p'.repeat(65), 3), extra }).map((f) => objectOf({ type: 'closeFlex', ...f })),
  fc.record({ market: marketish, side: fc.constantFrom('buy', 'sell'), amount: decimalish, price: decimalish }).map((o) => ({ type: 'placeLimits', orders: [o] })),
);

describe('commonIntents on random intents of every type', () => {
  it('gives exactly what the schema gives, or leaves the input to it', () => {
    let fast = 0;
    const types = new Set<string>();
    fc.assert(
      fc.property(fc.array(fc.oneof(collateral, others), { minLength: 1, maxLength: 2 }), (value) => {
        const mine = commonIntents(value, MAX_INTENTS_PER_CALL);
        if (mine === undefined) return;
        fast++;
        for (const i of mine) types.add(i.type);
        // The schema's refinement compares a price it could not parse (and throws): never one the fast parse took.
        const parsed = intentsSchema.safeParse(value);
        expect(parsed.success).toBe(true);
        expect(exact(mine)).toEqual(exact(parsed.data));
        expect(keyOrders(mine)).toEqual(keyOrders(parsed.data));
      }),
      { numRuns: 3000, seed: 20261129 },
    );
    // The comparison ran on fast answers of every type, not only on refusals.
    expect(fast).toBeGreaterThan(300);
    expect([...types].sort()).toEqual(['cancel', 'cancelAll', 'closeFlex', 'placeCollateral', 'placeLimits']);
  });

  it('takes the strategies\' entries, exits, cancels and flex closes without the schema', () => {
    const p = d('60000');
    const value = [
      intents.placeCollateral({ market: 'BTC_PERP', side: 'buy', amount: d('0.001'), price: p, stopLoss: p.mul('0.99'), takeProfit: p.mul('1.02') }),
      intents.placeCollateral({ market: 'BTC_PERP', side: 'sell', amount: d('0.001'), price: p, exit: true, ioc: true }),
      intents.cancel('t1-00001'),
      intents.cancelAll('BTC_USDT'),
      intents.cancelAll(),
      intents.closeFlex('plan-1'),
    ];
    const mine = commonIntents(value, MAX_INTENTS_PER_CALL);
    expect(mine).toBeDefined();
    expect(exact(mine)).toEqual(exact(intentsSchema.parse(value)));
    expect(keyOrders(mine)).toEqual(keyOrders(intentsSchema.parse(value)));
  });
});

describe('parseIntents never takes the schema\'s word alone', () => {
  it('gives what the schema gives for every input it accepts, through the plain parse', () => {
    let schemaOnly = 0;
    fc.assert(
      fc.property(fc.array(fc.oneof(collateral, others), { minLength: 1, maxLength: 2 }), (value) => {
        let parsed: ReturnType<typeof intentsSchema.safeParse>;
        try {
          parsed = intentsSchema.safeParse(value);
        } catch {
          // The refinement compares a price it could not parse, and throws: so does parseIntents.
          expect(() => parseIntents(value, 't1')).toThrow();
          return;
        }
        if (!parsed.success) return;
        if (commonIntents(value, MAX_INTENTS_PER_CALL) === undefined) schemaOnly++;
        const mine = parseIntents(value, 't1');
        expect(exact(mine)).toEqual(exact(parsed.data));
        // Key by key in the schema's order; a key the schema keeps as undefined is absent (nothing reads `in`).
        expect(keyOrders(exact(mine))).toEqual(keyOrders(exact(parsed.data)));
      }),
      { numRuns: 3000, seed: 20261130 },
    );
    // Inputs only the schema takes (a key set to undefined): they went through the second parse.
    expect(schemaOnly).toBeGreaterThan(10);
  });

  it('refuses what a changed schema would accept: an intent the plain parse refuses, a decimal that lies', () => {
    const fake = { toJSON: () => 'a lot', s: 1, e: 0, d: [1e20], toStringTag: '[object Decimal]' };
    const lies = [
      [{ type: 'placeLimits', orders: [{ market: 'BTC_USDT', side: 'buy', amount: d('-1'), price: d('1') }] }],
      [{ type: 'placeLimits', orders: [{ market: 'BTC_USDT', side: 'buy', amount: fake, price: d('1') }] }],
      [{ type: 'withdraw', amount: '1' }],
    ];
    const spy = vi.spyOn(intentsSchema, 'safeParse');
    try {
      for (const data of lies) {
        spy.mockReturnValueOnce({ success: true, data } as never);
        expect(() => parseIntents([{ type: 'placeLimits', orders: [{ ...order, postOnly: undefined }] }], 't1')).toThrow(/invalid intent/);
      }
    } finally {
      spy.mockRestore();
    }
  });
});
