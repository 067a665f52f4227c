/**
 * Property tests over mutated venue replies, per parser: whatever a reply holds, a parser either
 * returns a value with no negative unsigned money, no implausible time and no unsafe id, or
 * throws a BadResponseError. Bulk replies: an item is placed or rejected only when the reply
 * proves it. Mutation classes: test/support/fixture-mutations.ts.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dec } from '../../../src/core/decimal.js';
import { AmbiguousOutcomeError, BadResponseError } from '../../../src/core/errors.js';
import { chunkReply } from '../../../src/exchange/bulk/reply.js';
import type { LimitOrderRequest } from '../../../src/model/venue-orders.js';
import { parseConditionalPage, parseExecutedHistory, parseOrder } from '../../../src/exchange/parse.js';
import {
  parseBalanceMap,
  parseBalanceOne,
  parseFlexClose,
  parseFlexPage,
  parseFutures,
  parseLoan,
  parsePing,
} from '../../../src/exchange/parse-account.js';
import { ORDER_SAMPLE, REPLY_SAMPLES as S } from '../../../src/exchange/samples.js';
import {
  FUZZ_SEED,
  domainViolations,
  mutateAll,
  mutationsArb,
  provesRefusal,
  resultsCarrying,
} from '../../support/fixture-mutations.js';

const RUNS = { numRuns: 150, seed: FUZZ_SEED };

const PARSERS: readonly [string, unknown, (v: unknown) => unknown][] = [
  ['collateral order', S.collateral, (v) => parseOrder('collateralLimitOrder', v)],
  ['cancelled order', S.cancel, (v) => parseOrder('cancelOrder', v)],
  ['conditional (spec)', S.conditional, (v) => parseConditionalPage('conditionalOrders', v)],
  ['conditional (live)', S.conditionalLive, (v) => parseConditionalPage('conditionalOrders', v)],
  ['executed history (flat)', S.executedHistoryFlat, (v) => parseExecutedHistory('executedHistory', v, 'BTC_USDT')],
  ['executed history (keyed)', S.executedHistoryKeyed, (v) => parseExecutedHistory('executedHistory', v, undefined)],
  ['balance map', S.balanceMap, (v) => parseBalanceMap('mainBalance', v)],
  ['balance one', S.balanceOne, (v) => parseBalanceOne('mainBalance', v, 'BTC')],
  ['flex history', S.flexHistory, (v) => parseFlexPage('flexHistory', v)],
  ['flex close', S.flexClose, (v) => parseFlexClose('closeFlex', v)],
  ['credit line', S.creditLine, (v) => parseLoan('creditLine', v)],
  ['futures', S.futures, (v) => parseFutures('futures', v)],
  ['ping', S.ping, (v) => parsePing('ping', v)],
];

describe('parsers over mutated replies', () => {
  it.each(PARSERS)('%s: a value within bounds, or a BadResponseError', (_name, sample, parse) => {
    fc.assert(
      fc.property(mutationsArb, (ms) => {
        let out: unknown;
        try {
          out = parse(mutateAll(sample, ms));
        } catch (err) {
          if (err instanceof BadResponseError) return;
          throw err;
        }
        expect(domainViolations(out)).toEqual([]);
      }),
      RUNS,
    );
  });
});

describe('bulk replies over mutations', () => {
  const orders: LimitOrderRequest[] = ['b-0', 'b-1', 'b-2'].map((cid, i) => ({
    market: 'BTC_USDT', side: 'buy', amount: dec('0.01'), price: dec(String(40000 + i)), clientOrderId: cid,
  }));
  const ok = (i: number): unknown => ({ result: { ...ORDER_SAMPLE, clientOrderId: `b-${i}`, price: String(40000 + i) }, error: null });
  const base = [ok(0), { result: null, error: S.bulk[1].error }, ok(2)];
  const ctx = { endpoint: 'bulkLimitOrders', orderEndpoint: true };
  const ambiguous = (cause: Error, cids: string[]): AmbiguousOutcomeError => new AmbiguousOutcomeError('bulkLimitOrders', cids, cause.message, { cause });

  it('an item is placed or rejected only when the reply proves it', () => {
    fc.assert(
      fc.property(mutationsArb, fc.boolean(), (ms, stopOnFail) => {
        const reply = mutateAll(base, ms);
        const { items } = chunkReply(ctx, orders, reply, stopOnFail, ambiguous);
        expect(items.map((it) => it.clientOrderId)).toEqual(['b-0', 'b-1', 'b-2']);
        items.forEach((it, i) => {
          const o = orders[i]!;
          if (it.status === 'placed') {
            const carried = resultsCarrying(reply, o.clientOrderId);
            expect(carried).toHaveLength(1);
            expect([carried[0]!['market'], carried[0]!['side'], it.order.clientOrderId]).toEqual([o.market, o.side, o.clientOrderId]);
            expect(domainViolations(it.order)).toEqual([]);
          }
          if (it.status === 'rejected') expect(provesRefusal(reply, orders, i, stopOnFail)).toBe(true);
          if (it.status === 'not_sent') expect(stopOnFail).toBe(true);
        });
      }),
      { numRuns: 400, seed: FUZZ_SEED },
    );
  });
});
