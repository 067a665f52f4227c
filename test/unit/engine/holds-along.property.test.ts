/**
 * The holds summed along successive lists (`HoldsAlong`, the equity check's) against one pass over
 * each list, written out here as the rule reads: on random sequences of lists that append orders,
 * drop one, replace one with a new record (a fill, a state change), move one, clear the list, and
 * hold orders of every state, side and kind, of a market without a rule and with nothing left,
 * every total per asset (to the last digit, in the same key order), every order's hold and the
 * unruled markets are the one pass's. Amounts longer than the decimals' precision are included,
 * so a total taken from the wrong head would show.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ZERO, dec, type Decimal } from '../../../src/core/decimal.js';
import type { OrderState } from '../../../src/core/orders.js';
import { HOLDING_STATES, HoldsAlong, holdOf, holdRulesByName, type HoldingOrder, type OrderHolds, type HoldRules } from '../../../src/engine/order-holds.js';

const rules: HoldRules = (market) => (market === 'NOPE_USDT' ? undefined : holdRulesByName('USDT', dec('0.001'), dec('10'))(market));

/** One pass over the list, as the rule reads (each holding order's hold added in list order). */
function onePass(orders: readonly HoldingOrder[]): OrderHolds {
  const byAsset: Record<string, Decimal> = {};
  const held: OrderHolds['orders'] = [];
  const unruled = new Set<string>();
  for (const o of orders) {
    if (!HOLDING_STATES.includes(o.state)) continue;
    const rule = rules(o.market);
    if (rule === undefined) {
      unruled.add(o.market);
      continue;
    }
    const h = holdOf(o, rule);
    if (h === null) continue;
    byAsset[h.asset] = (byAsset[h.asset] ?? ZERO).plus(h.amount);
    held.push({ clientOrderId: o.clientOrderId, market: o.market, asset: h.asset, amount: h.amount });
  }
  return { byAsset, orders: held, unruled: [...unruled].sort() };
}

/** Every figure as text, keys in their order. */
function text(h: OrderHolds): unknown {
  return {
    byAsset: Object.entries(h.byAsset).map(([k, v]) => [k, v.toFixed()]),
    orders: h.orders.map((o) => [o.clientOrderId, o.market, o.asset, o.amount.toFixed()]),
    unruled: h.unruled,
  };
}

const STATES: readonly OrderState[] = ['OPEN', 'PARTIALLY_FILLED', 'PENDING_CANCEL', 'PENDING', 'FILLED', 'CANCELLED'];
const MARKETS = ['BTC_USDT', 'ETH_USDT', 'ETH_BTC', 'BTC_PERP', 'NOPE_USDT'];

/** A digit string of 1–70 digits with the point somewhere (beyond the 60 digits of precision at times). */
const amount = fc.tuple(fc.stringMatching(/^[1-9][0-9]{0,69}$/), fc.integer({ min: 0, max: 40 })).map(([digits, places]) => {
  const cut = Math.max(1, digits.length - places);
  return dec(places === 0 || cut === digits.length ? digits : `${digits.slice(0, cut)}.${digits.slice(cut)}`);
});

const orderSpec = fc.record({
  market: fc.constantFrom(...MARKETS),
  side: fc.constantFrom('buy' as const, 'sell' as const),
  kind: fc.constantFrom('limit' as const, 'collateral' as const),
  state: fc.constantFrom(...STATES),
  price: amount,
  amount,
  filled: fc.constantFrom(0, 0.25, 1, 1.5),
});

type Spec = typeof orderSpec extends fc.Arbitrary<infer T> ? T : never;

let n = 0;
function recordOf(s: Spec): HoldingOrder {
  const filled = s.amount.mul(s.filled);
  return Object.freeze({ clientOrderId: `o${n++}`, kind: s.kind, market: s.market, side: s.side, price: s.price, amount: s.amount, filledBase: filled, reportedFilledBase: ZERO, state: s.state });
}

const step = fc.oneof(
  fc.record({ op: fc.constant('append' as const), spec: orderSpec }),
  fc.record({ op: fc.constant('drop' as const), at: fc.nat() }),
  fc.record({ op: fc.constant('replace' as const), at: fc.nat(), spec: orderSpec }),
  fc.record({ op: fc.constant('move' as const), at: fc.nat(), to: fc.nat() }),
  fc.record({ op: fc.constant('clear' as const) }),
  fc.record({ op: fc.constant('same' as const) }),
);

describe('holds summed along successive lists', () => {
  it('equal one pass over each list, to the last digit', () => {
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 40 }), (steps) => {
        const along = new HoldsAlong(rules);
        let list: HoldingOrder[] = [];
        for (const s of steps) {
          const next = list.slice();
          if (s.op === 'append') next.push(recordOf(s.spec));
          else if (s.op === 'drop' && next.length > 0) next.splice(s.at % next.length, 1);
          else if (s.op === 'replace' && next.length > 0) next[s.at % next.length] = recordOf(s.spec);
          else if (s.op === 'move' && next.length > 0) next.splice(s.to % next.length, 0, ...next.splice(s.at % next.length, 1));
          else if (s.op === 'clear') next.length = 0;
          list = next;
          expect(text(along.of(list))).toEqual(text(onePass(list)));
        }
      }),
      { numRuns: 300 },
    );
  });

  it('a list changed after the call does not change the next answer', () => {
    const along = new HoldsAlong(rules);
    const a = recordOf({ market: 'BTC_USDT', side: 'sell', kind: 'limit', state: 'OPEN', price: dec('1'), amount: dec('2'), filled: 0 });
    const b = recordOf({ market: 'BTC_USDT', side: 'sell', kind: 'limit', state: 'OPEN', price: dec('1'), amount: dec('3'), filled: 0 });
    const list = [a, b];
    along.of(list);
    list[0] = b;
    expect(text(along.of([b, b]))).toEqual(text(onePass([b, b])));
    expect(along.of([a]).byAsset['BTC']?.toFixed()).toBe('2');
  });
});
