/**
 * `ReadModels.keptPositions` / `allKeptPositions` hand the last list on while no fill was
 * inserted or attributed and no order written. On random sequences of fill batches (some in a
 * transaction that rolls back), attributions, placements and reported fills (provisional), the
 * kept answer after every write equals a fresh ReadModels' read of the same store, exactly, and
 * is the very same list when read twice with nothing written between.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Decimal } from '../../../src/core/decimal.js';
import type { Side } from '../../../src/core/orders.js';
import type { Position } from '../../../src/engine/positions.js';
import { ReadModels } from '../../../src/engine/read-models.js';
import type { FillRecord } from '../../../src/model/fills.js';
import type { Store } from '../../../src/store/index.js';
import { memoryStore } from '../../support/test-scope.js';

const STRATEGIES = ['a', 'b'] as const;

/** Every figure as text, so two lists compare to the last decimal. */
const text = (ps: readonly Position[]): string => JSON.stringify(ps, (_k, v: unknown) => (v instanceof Decimal ? v.toFixed() : v));

const step = fc.oneof(
  fc.record({
    kind: fc.constant('insert' as const),
    fills: fc.array(fc.record({ time: fc.integer({ min: 0, max: 40 }), order: fc.integer({ min: 1, max: 4 }), owner: fc.constantFrom<string | null>('a', 'b', null), buy: fc.boolean(), amount: fc.integer({ min: 1, max: 900 }) }), { maxLength: 4 }),
    rollback: fc.boolean(),
  }),
  fc.record({ kind: fc.constant('attribute' as const), order: fc.integer({ min: 1, max: 4 }), owner: fc.constantFrom(...STRATEGIES) }),
  fc.record({ kind: fc.constant('place' as const), owner: fc.constantFrom(...STRATEGIES), buy: fc.boolean() }),
  fc.record({ kind: fc.constant('report' as const), pick: fc.nat(), amount: fc.integer({ min: 1, max: 500 }) }),
  fc.record({ kind: fc.constant('apply' as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant('none' as const) }),
);
type Step = typeof step extends fc.Arbitrary<infer T> ? T : never;

/** What the sequence placed so far: client order id, reported base so far. */
interface Placed { cid: string; reported: Decimal }

function write(store: Store, s: Step, placed: Placed[], ids: { deal: number }): void {
  if (s.kind === 'insert') {
    try {
      store.tx(() => {
        for (const f of s.fills) store.fills.insert(fillOf(f, ++ids.deal));
        if (s.rollback) throw new Error('rolled back on purpose');
      });
    } catch (err) {
      if (!s.rollback) throw err;
    }
  } else if (s.kind === 'attribute') store.fills.attribute(s.order, s.owner, `${s.owner}-${s.order}`);
  else if (s.kind === 'place') {
    const cid = `c${placed.length}`;
    store.orders.insertPending({ clientOrderId: cid, strategyId: s.owner, kind: 'limit', market: 'BTC_USDT', side: s.buy ? 'buy' : 'sell', amount: new Decimal(1), price: new Decimal(100), postOnly: true, ioc: false, rpi: false }, 0);
    store.orders.setState(cid, 'PENDING', 'OPEN', 'placed', 1, { orderId: 1000 + placed.length });
    placed.push({ cid, reported: new Decimal(0) });
  } else if (s.kind === 'report' && placed.length > 0) {
    // A reply reported more filled than the deals applied: a provisional fill until they are.
    const p = placed[s.pick % placed.length] as Placed;
    p.reported = p.reported.plus(new Decimal(s.amount).div(1000));
    store.orders.patch(p.cid, { reported: { base: p.reported, quote: p.reported.mul('101.5') } }, 2);
  } else if (s.kind === 'apply' && placed.length > 0) {
    const p = placed[s.pick % placed.length] as Placed;
    store.orders.patch(p.cid, { filledBase: p.reported }, 3);
  }
}

function fillOf(f: { time: number; order: number; owner: string | null; buy: boolean; amount: number }, dealId: number): FillRecord {
  const amount = new Decimal(f.amount).div(1000);
  const price = new Decimal(100 + f.time);
  const side: Side = f.buy ? 'buy' : 'sell';
  return {
    dealId, orderId: f.order, clientOrderId: '', market: f.order % 2 === 0 ? 'BTC_USDT' : 'ETH_USDT', side, role: 'maker', timeMs: f.time,
    amount, price, quote: amount.mul(price), fee: amount.mul('0.001'), feeAsset: 'USDT', strategyId: f.owner, ownerClientOrderId: f.owner === null ? null : `${f.owner}-${f.order}`,
  };
}

/** Whether a reply reported more of `id`'s orders filled than their deals applied (read from scratch). */
const provisionalOf = (store: Store, id: string): boolean => store.orders.listProvisional().some((o) => o.strategyId === id && o.reportedFilledBase.gt(o.filledBase));

describe('ReadModels: position lists kept under the change marks', () => {
  it('property: after every write equal a fresh read; with nothing written, the same list', () => {
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 30 }), (steps) => {
        const store = memoryStore();
        const read = new ReadModels(store);
        const placed: Placed[] = [];
        const ids = { deal: 0 };
        for (const s of steps) {
          const before = STRATEGIES.map((id) => read.keptPositions(id));
          const provisionalBefore = STRATEGIES.map((id) => provisionalOf(store, id));
          write(store, s, placed, ids);
          const fresh = new ReadModels(store);
          for (const [i, id] of STRATEGIES.entries()) {
            const kept = read.keptPositions(id);
            expect(text(kept)).toEqual(text(fresh.keptPositions(id)));
            // A provisional fold is made anew at each read; otherwise no fill written: the same list.
            if (provisionalOf(store, id)) continue;
            expect(read.keptPositions(id)).toBe(kept);
            if (s.kind === 'none' || s.kind === 'place' || (s.kind === 'insert' && s.fills.every((f) => f.owner !== id))) {
              if (!provisionalBefore[i]) expect(kept).toBe(before[i]);
            }
          }
          expect(text(read.allKeptPositions())).toEqual(text(fresh.allKeptPositions()));
          if (!STRATEGIES.some((id) => provisionalOf(store, id))) expect(read.allKeptPositions()).toBe(read.allKeptPositions());
        }
      }),
      { numRuns: 120 },
    );
  });
});
