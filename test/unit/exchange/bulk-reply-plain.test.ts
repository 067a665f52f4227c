/**
 * `slotOutcomes` decides the usual reply (every item its own order's result or an error, full
 * length, distinct clientOrderIds, no stopOnFail) without the reply's cross-checks
 * (src/exchange/bulk/reply.ts `plainOutcomes`). Over random chunks and replies, usual or not
 * (duplicate, empty and missing ids, foreign, swapped, garbled and empty items, short and long
 * replies), it answers exactly as `checkedOutcomes`, which makes every check on every reply.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dec } from '../../../src/core/decimal.js';
import { AmbiguousOutcomeError, BadResponseError, type BotError } from '../../../src/core/errors.js';
import { checkedOutcomes, isOrderOf, slotOutcomes, type Slot } from '../../../src/exchange/bulk/reply.js';
import { mismatchedField, placementIdentity } from '../../../src/exchange/reply-match.js';
import type { LimitOrderInput } from '../../../src/exchange/requests.js';
import type { BulkItemResult, VenueOrder } from '../../../src/model/venue-orders.js';
import { FUZZ_SEED } from '../../support/fixture-mutations.js';

const CIDS = ['a-1', 'a-2', 'a-3', ''] as const;
const MARKETS = ['BTC_USDT', 'ETH_USDT'] as const;
const AMOUNTS = ['0.01', '0.010', '0.02'] as const;
const PRICES = ['40000', '40000.5', '39999'] as const;

const orderArb = fc.record({
  cid: fc.constantFrom<string | undefined>(...CIDS, undefined),
  market: fc.constantFrom(...MARKETS),
  side: fc.constantFrom('buy' as const, 'sell' as const),
  amount: fc.constantFrom(...AMOUNTS),
  price: fc.constantFrom(...PRICES),
  rpi: fc.boolean(),
  ioc: fc.boolean(),
});

type OrderSeed = typeof orderArb extends fc.Arbitrary<infer T> ? T : never;

function input(s: OrderSeed): LimitOrderInput {
  const o: LimitOrderInput = { market: s.market, side: s.side, amount: dec(s.amount), price: dec(s.price), rpi: s.rpi, ioc: s.ioc };
  if (s.cid !== undefined) o.clientOrderId = s.cid;
  return o;
}

/** A venue order with the fields the checks read (the rest as a placement reply carries them). */
function venueOrder(s: OrderSeed): VenueOrder {
  return {
    orderId: 1, clientOrderId: s.cid ?? '', market: s.market, side: s.side, type: 'limit', timestampMs: 0, amount: dec(s.amount), price: dec(s.price),
    filledBase: dec('0'), filledQuote: dec('0'), remaining: dec(s.amount), fee: dec('0'), status: 'OPEN', rawStatus: 'NEW', postOnly: false, ioc: false, rpi: false, stp: 'no',
  };
}

/** Per item: the order's own result (the usual case, most often), another order's, an error, empty or garbled. */
const slotKindArb = fc.oneof(
  { weight: 6, arbitrary: fc.constant({ kind: 'own' as const }) },
  { weight: 2, arbitrary: orderArb.map((o) => ({ kind: 'other' as const, o })) },
  { weight: 3, arbitrary: fc.constantFrom(10, 13, 36, 9).map((code) => ({ kind: 'error' as const, code })) },
  { weight: 1, arbitrary: fc.constant({ kind: 'empty' as const }) },
  { weight: 1, arbitrary: fc.constantFrom<string | undefined>(...CIDS, undefined).map((claims) => ({ kind: 'garbled' as const, claims })) },
);

type SlotKind = { kind: 'own' } | { kind: 'other'; o: OrderSeed } | { kind: 'error'; code: number } | { kind: 'empty' } | { kind: 'garbled'; claims: string | undefined };

function slotOf(k: SlotKind, own: OrderSeed): Slot {
  switch (k.kind) {
    case 'own':
      return { kind: 'result', order: venueOrder(own) };
    case 'other':
      return { kind: 'result', order: venueOrder(k.o) };
    case 'error':
      return { kind: 'error', body: { code: k.code, message: 'refused', fieldErrors: { amount: ['Not enough balance.'] } } };
    case 'empty':
      return { kind: 'empty' };
    default: {
      const cause = new BadResponseError('bulkLimitOrders', '[0].result', 'garbled');
      return k.claims === undefined ? { kind: 'garbled', cause } : { kind: 'garbled', cause, claims: k.claims };
    }
  }
}

const ctx = { endpoint: 'bulkLimitOrders', orderEndpoint: true, privateEndpoint: true };
const ambiguous = (cause: BotError, cids: string[]): AmbiguousOutcomeError => new AmbiguousOutcomeError('bulkLimitOrders', cids, cause.message, { cause });

/** An outcome as plain data: errors by class, message, code and cause. */
function plain(it: BulkItemResult): unknown {
  if (it.status === 'placed') return it;
  const e = it.error as BotError & { cause?: unknown };
  const cause = e.cause instanceof Error ? [e.cause.constructor.name, e.cause.message] : undefined;
  return { status: it.status, clientOrderId: it.clientOrderId, error: [e.constructor.name, e.message, e.code, JSON.stringify(e), cause] };
}

describe('a bulk reply decided without its cross-checks', () => {
  it('answers as every check does, usual reply or not', () => {
    const chunkArb = fc.array(fc.tuple(orderArb, slotKindArb), { minLength: 1, maxLength: 5 });
    fc.assert(
      fc.property(chunkArb, fc.integer({ min: -1, max: 1 }), fc.boolean(), fc.boolean(), (chunk, lengthDelta, stopOnFail, distinct) => {
        // Half the chunks get distinct ids (the engine's case); the rest keep what was drawn.
        const seeds = chunk.map(([o], i) => (distinct ? { ...o, cid: `c-${i}` } : o));
        const orders = seeds.map(input);
        const slots = chunk.map(([, k], i) => slotOf(k, seeds[i]!));
        const length = Math.max(0, orders.length + lengthDelta);
        const reply = { slots, length };
        const fast = slotOutcomes(ctx, orders, reply, stopOnFail, ambiguous);
        const full = checkedOutcomes(ctx, orders, reply, stopOnFail, ambiguous);
        expect(fast.items.map(plain)).toEqual(full.items.map(plain));
        expect(fast.items.map((it) => (it.status === 'placed' ? it.order : undefined))).toEqual(full.items.map((it) => (it.status === 'placed' ? it.order : undefined)));
        expect(fast.failed?.message).toBe(full.failed?.message);
      }),
      { numRuns: 2000, seed: FUZZ_SEED },
    );
  });

  it('compares an order with a result as the identity check does', () => {
    fc.assert(
      fc.property(orderArb, orderArb, (a, b) => {
        const o = input(a);
        const v = venueOrder(b);
        expect(isOrderOf(o, v)).toBe(mismatchedField(v, placementIdentity(o)) === undefined);
      }),
      { numRuns: 2000, seed: FUZZ_SEED },
    );
  });
});
