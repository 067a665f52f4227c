/**
 * The folds kept current fill by fill (fill-feed.ts) against folding every stored fill again:
 * positions (ReadModels) and collateral positions (EquitySources), on random sequences of fill
 * batches written to a real store, with late (out-of-order) deals, duplicates, attributions and
 * rolled-back transactions between the reads.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Decimal } from '../../../src/core/decimal.js';
import type { Side } from '../../../src/core/orders.js';
import { collateralPositions } from '../../../src/engine/collateral-book.js';
import { collateralFillsOf, EquitySources } from '../../../src/engine/equity-sources.js';
import type { MarketHoldRule } from '../../../src/engine/order-holds.js';
import { derivePositions, PositionBooks, compareFills, type Position } from '../../../src/engine/positions.js';
import { ReadModels } from '../../../src/engine/read-models.js';
import type { FillRecord } from '../../../src/model/fills.js';
import type { Store } from '../../../src/store/index.js';
import { memoryStore } from '../../support/test-scope.js';

/** Every figure as text, so two position lists compare to the last decimal. */
function text(ps: readonly Position[]): unknown[] {
  return ps.map((p) => ({
    ...p,
    base: p.base.toFixed(),
    avgEntry: p.avgEntry?.toFixed() ?? null,
    openCost: p.openCost.toFixed(),
    realisedPnl: p.realisedPnl.toFixed(),
    boughtBase: p.boughtBase.toFixed(),
    soldBase: p.soldBase.toFixed(),
    boughtQuote: p.boughtQuote.toFixed(),
    soldQuote: p.soldQuote.toFixed(),
    fees: Object.fromEntries(Object.entries(p.fees).map(([k, v]) => [k, v.toFixed()])),
  }));
}

const rawFill = fc.record({
  dealId: fc.integer({ min: 1, max: 400 }),
  timeMs: fc.integer({ min: 0, max: 50 }),
  orderId: fc.integer({ min: 1, max: 6 }),
  strategy: fc.constantFrom<string | null>('a', 'b', null),
  market: fc.constantFrom('BTC_USDT', 'BTC_PERP', 'ETH_PERP'),
  side: fc.constantFrom<Side>('buy', 'sell'),
  amount: fc.integer({ min: 1, max: 5_000 }),
  price: fc.integer({ min: 1, max: 90_000 }),
});

type RawFill = typeof rawFill extends fc.Arbitrary<infer T> ? T : never;

function record(r: RawFill): FillRecord {
  const amount = new Decimal(r.amount).div(1000);
  const price = new Decimal(r.price).div(100);
  return {
    dealId: r.dealId,
    orderId: r.orderId,
    clientOrderId: '',
    market: r.market,
    side: r.side,
    role: 'maker',
    timeMs: r.timeMs,
    amount,
    price,
    quote: amount.mul(price),
    fee: amount.mul('0.001'),
    feeAsset: r.side === 'buy' ? 'BTC' : 'USDT',
    strategyId: r.strategy,
    ownerClientOrderId: r.strategy === null ? null : `${r.strategy}-${r.orderId}`,
  };
}

/** One step between two reads: a batch of fills (maybe in a transaction that rolls back), or an attribution. */
const step = fc.oneof(
  fc.record({ kind: fc.constant('insert' as const), fills: fc.array(rawFill, { maxLength: 6 }), rollback: fc.boolean() }),
  fc.record({ kind: fc.constant('attribute' as const), orderId: fc.integer({ min: 1, max: 6 }), strategy: fc.constantFrom('a', 'b') }),
);

const RULE: MarketHoldRule = { base: 'BTC', quote: 'USDT', feeReserveRate: new Decimal('0.001'), leverage: new Decimal(10) };
const rules = (m: string): MarketHoldRule | undefined => (m === 'ETH_PERP' ? undefined : RULE);

function apply(store: Store, s: RawStep): void {
  if (s.kind === 'attribute') {
    store.fills.attribute(s.orderId, s.strategy, `${s.strategy}-${s.orderId}`);
    return;
  }
  try {
    store.tx(() => {
      for (const f of s.fills) store.fills.insert(record(f));
      if (s.rollback) throw new Error('rolled back on purpose');
    });
  } catch (err) {
    if (!s.rollback) throw err;
  }
}

type RawStep = typeof step extends fc.Arbitrary<infer T> ? T : never;

describe('folds kept current fill by fill', () => {
  it('property: PositionBooks fed in application order equal derivePositions; a fill not after its book’s last is refused', () => {
    fc.assert(
      fc.property(fc.uniqueArray(rawFill, { selector: (f) => f.dealId, maxLength: 60 }), (raw) => {
        const fills = raw.map(record).sort(compareFills);
        const books = new PositionBooks();
        for (const f of fills) expect(books.apply(f)).toBe(true);
        expect(text(books.positions())).toEqual(text(derivePositions(fills)));
        const last = fills.at(-1);
        if (last !== undefined) expect(books.apply(last)).toBe(false);
      }),
      { numRuns: 200 },
    );
  });

  it('property: ReadModels and EquitySources read after every step equal a fold of every stored fill, exactly', () => {
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 25 }), (steps) => {
        const store = memoryStore();
        const read = new ReadModels(store);
        const sources = new EquitySources(store, rules);
        for (const s of steps) {
          apply(store, s);
          const all = store.fills.all();
          expect(text(read.allPositions())).toEqual(text(derivePositions(all)));
          for (const id of ['a', 'b']) expect(text(read.positions(id))).toEqual(text(derivePositions(all.filter((f) => f.strategyId === id))));
          const folded = collateralPositions(collateralFillsOf(all, () => undefined), (m) => rules(m)?.leverage);
          const kept = sources.read();
          expect(kept.positions.map(({ settleAsset: _s, ...p }) => Object.values(p).map(String))).toEqual(folded.positions.map((p) => Object.values(p).map(String)));
          expect(kept.unruled).toEqual(folded.unruled);
        }
      }),
      { numRuns: 60 },
    );
  });

  it('inside a transaction the reads see its writes and keep nothing once it rolls back', () => {
    const store = memoryStore();
    const read = new ReadModels(store);
    const base: RawFill = { dealId: 1, timeMs: 1, orderId: 1, strategy: 'a', market: 'BTC_USDT', side: 'buy', amount: 1000, price: 100 };
    store.fills.insert(record(base));
    expect(read.positions('a')[0]?.base.toFixed()).toBe('1');
    expect(() =>
      store.tx(() => {
        store.fills.insert(record({ ...base, dealId: 2, timeMs: 2 }));
        expect(read.positions('a')[0]?.base.toFixed()).toBe('2');
        expect(read.recentFills('a').map((f) => f.dealId)).toEqual([2, 1]);
        throw new Error('rolled back on purpose');
      }),
    ).toThrow();
    expect(read.positions('a')[0]?.base.toFixed()).toBe('1');
    expect(read.recentFills('a').map((f) => f.dealId)).toEqual([1]);
  });
});
