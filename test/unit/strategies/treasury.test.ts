import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Decimal } from '../../../src/core/decimal.js';
import { BufferedState, buildContext, parseIntents } from '../../../src/strategy-api/host.js';
import { review, sameAsReported, treasuryParams } from '../../../strategies/treasury.js';
import { ctxOf, MemoryState, snapshot } from '../../support/daemon-ctx.js';

const params = treasuryParams.parse({ minQuoteBalance: '1000', closeCooldownMs: 60_000 });
const investments = [
  { planId: 'p-small', investmentId: 'i1', currency: 'USDT', amount: new Decimal(100) },
  { planId: 'p-big', investmentId: 'i2', currency: 'USDT', amount: new Decimal(5000) },
  { planId: 'p-btc', investmentId: 'i3', currency: 'BTC', amount: new Decimal(9) },
];

function run(backend: MemoryState, usdt: string, nowMs = 0): ReturnType<typeof parseIntents> {
  const { ctx, state } = ctxOf(params, snapshot({ nowMs, balances: { USDT: new Decimal(usdt) }, flex: { investments, earnings: { USDT: new Decimal('1.5') } } }), backend);
  const out = parseIntents(review(ctx), 't1');
  state.commit();
  return out;
}

describe('treasury', () => {
  it('does nothing while the quote balance is enough, but records the reported earnings', () => {
    const backend = new MemoryState();
    expect(run(backend, '5000')).toEqual([]);
    expect(backend.get('reported')).toEqual({ USDT: '1.5' });
  });

  it('closes the largest investment in the quote asset when funds are low', () => {
    expect(run(new MemoryState(), '10')).toEqual([{ type: 'closeFlex', plan: 'p-big' }]);
  });

  it('asks at most once per cooldown', () => {
    const backend = new MemoryState();
    expect(run(backend, '10', 0)).toHaveLength(1);
    expect(run(backend, '10', 30_000)).toEqual([]);
    expect(run(backend, '10', 61_000)).toHaveLength(1);
  });

  it('reports from the state as stored: the same earnings object again after a call whose state was not committed is reported again', () => {
    const backend = new MemoryState();
    const logged: unknown[] = [];
    const log = { debug: () => undefined, info: (o: unknown) => logged.push(o), warn: () => undefined, error: () => undefined };
    const earnings = Object.freeze({ USDT: new Decimal('1.5') });
    const tick = (e: Readonly<Record<string, Decimal>>, commit: boolean): void => {
      const state = new BufferedState(backend);
      const data = snapshot({ balances: { USDT: new Decimal('5000') }, flex: Object.freeze({ investments: Object.freeze([]), earnings: e }) });
      review(buildContext('t1', params, data, state, log));
      if (commit) state.commit();
    };
    tick(earnings, false);
    expect(backend.get('reported')).toBeUndefined();
    tick(earnings, true);
    expect(backend.get('reported')).toEqual({ USDT: '1.5' });
    tick(earnings, true);
    expect(logged).toHaveLength(2);
    tick(Object.freeze({ USDT: new Decimal('2') }), true);
    expect(backend.get('reported')).toEqual({ USDT: '2' });
    expect(logged).toHaveLength(3);
  });
});

describe('treasury: earnings compared with what was reported', () => {
  it('property: the same answer as comparing their JSON texts, on random stored values and earnings', () => {
    const key = fc.constantFrom('USDT', 'BTC', 'ETH', '0', '1', '__proto__');
    const amount = fc.constantFrom('0', '1.5', '0.000001', '12.34');
    const earnings = fc.dictionary(key, amount, { maxKeys: 3 });
    // Stored values: earnings as written (so often equal), in another key order, and any JSON.
    const stored = fc.oneof(
      earnings.map((e) => JSON.parse(JSON.stringify(e)) as unknown),
      // The same earnings in another key order: written out differently, so not the same.
      earnings.map((e) => JSON.parse(JSON.stringify(Object.fromEntries(Object.entries(e).reverse()))) as unknown),
      fc.jsonValue({ maxDepth: 2 }),
      fc.constantFrom(undefined, null, [], ['1.5'], { USDT: 1.5 }, { USDT: '1.5', BTC: '1.5' }, { BTC: '1.5', USDT: '1.5' }),
    );
    fc.assert(
      fc.property(stored, earnings, (r, e) => {
        // Built as the strategy builds it: a plain object, keys set in order (`__proto__` as an own key).
        const mine: Record<string, string> = JSON.parse(JSON.stringify(e)) as Record<string, string>;
        const want = JSON.stringify(r ?? {}) === JSON.stringify(mine);
        expect(sameAsReported(r as never, Object.freeze(mine))).toBe(want);
      }),
      { numRuns: 3000 },
    );
  });
});
